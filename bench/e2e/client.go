package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Load describes one load run of a route: Concurrency clients each open a
// stream, read it to its end, check it, and open the next, until Duration
// has passed; the streams open then are read to their end. Each client
// opens at least one stream.
type Load struct {
	// URL is the route, such as http://127.0.0.1:PORT/fixture.
	URL string
	// Concurrency is the number of streams open at once (default 1).
	Concurrency int
	// Duration is how long new streams are opened (default 1 s).
	Duration time.Duration
	// Events is the number of events a complete stream carries (default
	// FixtureEvents; negative: any number); the last must be RUN_FINISHED.
	Events int
	// Messages is the JSON array of the input's messages (nil: one user
	// message), such as threadfixture.Messages(n).
	Messages []byte
	// Timeout bounds each stream (default 60 s).
	Timeout time.Duration
}

// Sample is what a load run measured. Values are immutable.
type Sample struct {
	Streams  int
	Failures int
	// Errors holds up to five distinct failure messages.
	Errors []string
	// Events counts the events of complete streams only.
	Events int64
	// Elapsed runs from the first request to the last stream's end.
	Elapsed time.Duration
	// TTFE holds the time from sending each request to its first event,
	// sorted, for every stream that got one.
	TTFE []time.Duration
}

// EventsPerSec is the rate of events of complete streams.
func (s Sample) EventsPerSec() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Events) / s.Elapsed.Seconds()
}

// Run runs the load. It fails only when the load cannot start; failed
// streams are counted in the Sample.
func (l Load) Run(ctx context.Context) (Sample, error) {
	if l.Concurrency <= 0 {
		l.Concurrency = 1
	}
	if l.Duration <= 0 {
		l.Duration = time.Second
	}
	if l.Events == 0 {
		l.Events = FixtureEvents
	}
	if l.Timeout <= 0 {
		l.Timeout = 60 * time.Second
	}
	if err := checkLoopback(l.URL); err != nil {
		return Sample{}, err
	}
	tr := &http.Transport{MaxIdleConnsPerHost: l.Concurrency, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	start := time.Now()
	stopAt := start.Add(l.Duration)
	// Run ids (and thread ids) unique across loads, as a loop agent keeps
	// every thread it ran.
	prefix := "run-" + strconv.FormatInt(start.UnixNano(), 36) + "-"
	per := make([]Sample, l.Concurrency)
	var wg sync.WaitGroup
	for w := range l.Concurrency {
		wg.Go(func() {
			s := &per[w]
			body := make([]byte, 0, 512+len(l.Messages))
			// Each client opens at least one stream.
			for i := 0; i == 0 || (time.Now().Before(stopAt) && ctx.Err() == nil); i++ {
				body = requestBody(body[:0], prefix+strconv.Itoa(w)+"-"+strconv.Itoa(i), l.Messages)
				n, ttfe, err := l.stream(ctx, client, body)
				s.Streams++
				if ttfe > 0 {
					s.TTFE = append(s.TTFE, ttfe)
				}
				if err != nil {
					s.Failures++
					if msg := err.Error(); len(s.Errors) < 5 && !slices.Contains(s.Errors, msg) {
						s.Errors = append(s.Errors, msg)
					}
					continue
				}
				s.Events += int64(n)
			}
		})
	}
	wg.Wait()
	out := Sample{Elapsed: time.Since(start)}
	for _, s := range per {
		out = out.merge(s)
	}
	slices.Sort(out.TTFE)
	return out, ctx.Err()
}

// merge adds t's streams to s (TTFE unsorted).
func (s Sample) merge(t Sample) Sample {
	s.Streams += t.Streams
	s.Failures += t.Failures
	s.Events += t.Events
	s.TTFE = append(s.TTFE, t.TTFE...)
	for _, e := range t.Errors {
		if len(s.Errors) < 5 && !slices.Contains(s.Errors, e) {
			s.Errors = append(s.Errors, e)
		}
	}
	return s
}

// requestBody appends a 1.0 RunAgentInput carrying messages (a JSON
// array; nil: one user message). Each run has a thread of its own, as a
// loop agent refuses a second run on a busy thread.
func requestBody(b []byte, runID string, messages []byte) []byte {
	if messages == nil {
		messages = []byte(`[{"id":"u-1","role":"user","content":"stream the fixture"}]`)
	}
	b = append(b, `{"threadId":"thread-`...)
	b = append(b, runID...)
	b = append(b, `","runId":"`...)
	b = append(b, runID...)
	b = append(b, `","protocolVersion":"1.0","state":{},"messages":`...)
	b = append(b, messages...)
	return append(b, `,"tools":[],"context":[],"forwardedProps":{}}`...)
}

// Patterns of the SSE stream: every event has one data line; JSON never
// holds a raw newline, so "\ndata: " starts an event.
var (
	patEvent    = []byte("\ndata: ")
	patFinished = []byte(`"type":"RUN_FINISHED"`)
)

// stream posts body and reads the response to its end: it returns the
// number of events, the time to the first one, and an error unless the
// stream was complete (l.Events events, the last RUN_FINISHED).
func (l Load) stream(ctx context.Context, client *http.Client, body []byte) (events int, ttfe time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.URL, bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("status %d", resp.StatusCode)
	}
	// window is the stream's last bytes: the pattern's length less one
	// carried over from the previous read, so that a pattern split across
	// two reads is found once, and the last event for the final check.
	// The body starts as if after a newline.
	var buf [32 << 10]byte
	window := append(make([]byte, 0, len(buf)+1024), '\n')
	last := -1 // where the last event's data line starts in window
	for {
		n, rerr := resp.Body.Read(buf[:])
		if n > 0 {
			carried := len(window)
			window = append(window, buf[:n]...)
			from := max(0, carried-len(patEvent)+1)
			for i := from; ; {
				j := bytes.Index(window[i:], patEvent)
				if j < 0 {
					break
				}
				events++
				last = i + j
				i += j + len(patEvent)
			}
			if ttfe == 0 && events > 0 {
				ttfe = time.Since(start)
			}
			// Keep the last event (or the pattern's tail) for the next read.
			keep := len(window) - (len(patEvent) - 1)
			if last >= 0 && len(window)-last <= 1024 {
				keep = min(keep, last)
			}
			if keep > 0 {
				window = append(window[:0], window[keep:]...)
				if last >= 0 {
					last -= keep
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return events, ttfe, rerr
		}
	}
	switch {
	case l.Events >= 0 && events != l.Events:
		return events, ttfe, fmt.Errorf("%d events, want %d", events, l.Events)
	case last < 0 || !bytes.Contains(window[last:], patFinished):
		return events, ttfe, errors.New("the last event is not RUN_FINISHED")
	}
	return events, ttfe, nil
}

// Percentile returns the p-th percentile (0 < p < 100) of sorted durations,
// 0 for none.
func Percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}
