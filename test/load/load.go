package load

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Config describes one load run. The zero value of each field means its
// default.
type Config struct {
	// URL is the route to load, such as http://127.0.0.1:8080/agents/echo
	// (default: "", which serves the ticker agent in-process). Only http
	// URLs on this machine are accepted (localhost or a loopback address).
	URL string
	// Streams is how many runs are opened at once (default 100).
	Streams int
	// Rate is how many streams are opened per second (default 1000), so
	// that TTFE measures a new stream's wait while the earlier ones are
	// streaming, not the queue of a thundering herd. The streams stay open
	// until all of them are.
	Rate float64
	// Interval is the in-process agent's pace (default 100 ms).
	Interval time.Duration
	// Extra is how many deltas the in-process agent sends after every
	// stream has opened (default 10).
	Extra int
	// Deadline bounds the whole load run (default 60 s): a stream still
	// open then counts as a failure.
	Deadline time.Duration
	// Leave, when positive, lets each stream go once every stream is open
	// and it has read Leave more events, instead of reading its run to the
	// end (default 0). It is for long routes, such as examples/gin-app's
	// /agents/slow, that hold streams open by themselves; the server then
	// sees each client disconnect.
	Leave int
	// Body is the request body (default: a 1.0 RunAgentInput with one user
	// message; every stream gets its own runId).
	Body func(i int) []byte
	// AllOpen, if set, is called once every stream has received its first
	// event or failed, while they are all held open: a caller measuring a
	// server in another process samples its memory here.
	AllOpen func()
}

// Result is what a load run measured. Values are immutable.
type Result struct {
	Streams  int
	Failures int
	// Errors holds up to five distinct failure messages.
	Errors []string
	Events int64
	// Elapsed runs from the first dial to the last stream's end.
	Elapsed      time.Duration
	RunsPerSec   float64
	EventsPerSec float64
	// TTFE50 and TTFE99 are percentiles of the time from dialing to the
	// first event, over the streams that got one.
	TTFE50, TTFE99 time.Duration
	// HeapPerStream is the growth of the process's heap in use while every
	// stream was open, divided by the number of streams; only measured
	// in-process (0 with URL). It includes the load client's own share, a
	// 512-byte read buffer and a connection per stream.
	HeapPerStream int64
	// StackPerStream is the same for goroutine stacks (server and client).
	StackPerStream int64
	// CPU is the process's CPU time (user and system) during the run,
	// client and in-process server together (0 where not measured). On a
	// shared machine it is a steadier figure than wall-clock time.
	CPU time.Duration
}

func (r Result) String() string {
	s := fmt.Sprintf("streams=%d failures=%d runs/s=%.0f events/s=%.0f ttfe_p50=%s ttfe_p99=%s elapsed=%s",
		r.Streams, r.Failures, r.RunsPerSec, r.EventsPerSec,
		r.TTFE50.Round(10*time.Microsecond), r.TTFE99.Round(10*time.Microsecond), r.Elapsed.Round(time.Millisecond))
	if r.CPU > 0 && r.Events > 0 {
		s += fmt.Sprintf(" cpu=%s cpu/event=%s", r.CPU.Round(time.Millisecond), (r.CPU / time.Duration(r.Events)).Round(100*time.Nanosecond))
	}
	if r.HeapPerStream > 0 {
		s += fmt.Sprintf(" heap/stream=%.1fKiB stack/stream=%.1fKiB", float64(r.HeapPerStream)/1024, float64(r.StackPerStream)/1024)
	}
	if len(r.Errors) > 0 {
		s += fmt.Sprintf(" errors=%q", r.Errors)
	}
	return s
}

// Run opens cfg.Streams runs at once and reads each to its end. It fails
// only when it cannot start; failed streams are counted in the Result.
// Run is safe to call from several goroutines, though the heap figures of
// concurrent in-process runs would mix.
func Run(ctx context.Context, cfg Config) (Result, error) {
	cfg = withDefaults(cfg)
	ctx, cancel := context.WithTimeout(ctx, cfg.Deadline)
	defer cancel()

	var addr, path string
	var srv *server
	if cfg.URL == "" {
		var err error
		if srv, err = startServer(cfg.Interval, cfg.Extra); err != nil {
			return Result{}, err
		}
		addr, path = srv.addr, tickerPath
	} else {
		u, err := url.Parse(cfg.URL)
		if err != nil || u.Scheme != "http" || u.Host == "" {
			return Result{}, fmt.Errorf("load: URL %q is not an http URL", cfg.URL)
		}
		if !loopback(u.Hostname()) {
			return Result{}, fmt.Errorf("load: URL %q is not on this machine: the generator loads loopback addresses only", cfg.URL)
		}
		addr, path = u.Host, u.RequestURI()
	}

	base := memStats()
	cpu0 := processCPU()
	n := cfg.Streams
	outs := make([]outcome, n)
	var settled atomic.Int64
	allOpen := make(chan struct{})
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		if wait := time.Until(start.Add(time.Duration(float64(i) / cfg.Rate * float64(time.Second)))); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
			}
		}
		wg.Go(func() {
			var once sync.Once
			mark := func() {
				once.Do(func() {
					if settled.Add(1) == int64(n) {
						close(allOpen)
					}
				})
			}
			outs[i] = stream(ctx, addr, path, cfg.Body(i), mark, leaving{open: allOpen, after: cfg.Leave})
			mark()
		})
	}

	res := Result{Streams: n}
	select {
	case <-allOpen:
		if cfg.AllOpen != nil {
			cfg.AllOpen()
		}
		if srv != nil {
			open := memStats()
			res.HeapPerStream = (int64(open.HeapInuse) - int64(base.HeapInuse)) / int64(n)
			res.StackPerStream = (int64(open.StackInuse) - int64(base.StackInuse)) / int64(n)
			close(srv.release)
		}
	case <-ctx.Done():
		if srv != nil {
			close(srv.release)
		}
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.CPU = processCPU() - cpu0

	var stopErr error
	if srv != nil {
		stopCtx, stopCancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		stopErr = srv.stop(stopCtx)
		stopCancel()
	}

	ttfes := make([]time.Duration, 0, n)
	for _, o := range outs {
		res.Events += int64(o.events)
		if o.ttfe > 0 {
			ttfes = append(ttfes, o.ttfe)
		}
		if o.err != nil {
			res.Failures++
			if msg := o.err.Error(); len(res.Errors) < 5 && !slices.Contains(res.Errors, msg) {
				res.Errors = append(res.Errors, msg)
			}
		}
	}
	slices.Sort(ttfes)
	if len(ttfes) > 0 {
		res.TTFE50 = ttfes[len(ttfes)*50/100]
		res.TTFE99 = ttfes[min(len(ttfes)-1, len(ttfes)*99/100)]
	}
	if secs := res.Elapsed.Seconds(); secs > 0 {
		res.RunsPerSec = float64(n-res.Failures) / secs
		res.EventsPerSec = float64(res.Events) / secs
	}
	if stopErr != nil {
		return res, fmt.Errorf("load: stopping the server: %w", stopErr)
	}
	return res, nil
}

func withDefaults(c Config) Config {
	if c.Streams <= 0 {
		c.Streams = 100
	}
	if c.Rate <= 0 {
		c.Rate = 1000
	}
	if c.Interval <= 0 {
		c.Interval = 100 * time.Millisecond
	}
	if c.Extra <= 0 {
		c.Extra = 10
	}
	if c.Deadline <= 0 {
		c.Deadline = 60 * time.Second
	}
	if c.Body == nil {
		c.Body = DefaultBody
	}
	return c
}

// DefaultBody is a 1.0 RunAgentInput with one user message, for stream i.
func DefaultBody(i int) []byte {
	id := fmt.Sprintf("load-%d", i)
	return []byte(`{"threadId":"t-` + id + `","runId":"` + id + `","protocolVersion":"1.0","state":{},` +
		`"messages":[{"id":"u-` + id + `","role":"user","content":"stream me some words please"}],` +
		`"tools":[],"context":[],"forwardedProps":{}}`)
}

func memStats() runtime.MemStats {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}

// loopback reports whether host is localhost or a loopback IP address: a
// load generator must never send its traffic anywhere else.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
