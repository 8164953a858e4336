package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/agui-go/agui"
)

// This file rejoins a run on a resumable route (package resume of this
// module, and any server that answers the same way): its response names
// the run's URL in Content-Location and numbers its SSE frames with ids;
// when the connection drops before the run's terminal event, the client
// GETs that URL with Last-Event-ID and carries on, skipping what it has
// seen, as resumableFetch does in the browser. Cancelling the context is
// a deliberate stop: the client DELETEs the run's URL, so a run the route
// keeps going for a grace period does not outlive its caller.

// stopTimeout bounds the DELETE sent when the caller cancels a resumable
// run.
const stopTimeout = 5 * time.Second

// readSSE reads an SSE response, rejoining its run after a drop when the
// response names one, and closes what it reads.
func (p *pipeline) readSSE(ctx context.Context, resp *http.Response, yield yielder) {
	runURL := p.runURL(resp)
	body := resp.Body
	var (
		cursor   int64
		attempts int
		lastErr  error
	)
	for {
		if body != nil {
			next, progressed, stop, err := p.sse(body, cursor, yield)
			body.Close()
			if stop {
				return
			}
			if p.ended {
				return // the run is over: what broke after it lost nothing
			}
			cursor, lastErr = next, err
			if progressed {
				attempts = 0
			}
		}
		if ctx.Err() != nil {
			if runURL != "" && !p.ended {
				p.stop(ctx, runURL)
			}
			yield(nil, contextError(ctx, agui.NewError(agui.CodeCancelled, "client: the run was cancelled")))
			return
		}
		if runURL == "" || p.agent.cfg.reconnects == 0 {
			if lastErr != nil {
				yield(nil, &agui.Error{Code: agui.CodeDisconnected, Message: "client: the stream broke off: " + lastErr.Error(), Err: lastErr})
			} else {
				p.end(yield)
			}
			return
		}
		attempts++
		if attempts > p.agent.cfg.reconnects {
			msg := "client: no progress after " + strconv.Itoa(p.agent.cfg.reconnects) + " reconnects to " + runURL
			if lastErr != nil {
				msg += ": " + lastErr.Error()
			}
			yield(nil, &agui.Error{Code: agui.CodeDisconnected, Message: msg, Err: lastErr})
			return
		}
		t := time.NewTimer(backoff(p.agent.cfg.reconnectDelay, attempts))
		select {
		case <-ctx.Done():
			t.Stop()
			continue // reported above, with the stop
		case <-t.C:
		}
		p.warnf("", "the connection dropped; rejoining "+runURL+" after event "+strconv.FormatInt(cursor, 10))
		body = nil
		var err error
		if body, err = p.rejoin(ctx, runURL, cursor); err != nil {
			var se *StatusError
			if errors.As(err, &se) && se.StatusCode/100 == 4 {
				yield(nil, err) // gone, forbidden, unknown: retrying will not help
				return
			}
			lastErr = err
		}
	}
}

// runURL is the absolute URL of the run a response names, or "".
func (p *pipeline) runURL(resp *http.Response) string {
	loc := resp.Header.Get("Content-Location")
	if loc == "" {
		return ""
	}
	base, err := url.Parse(p.agent.url)
	if err != nil {
		return ""
	}
	u, err := base.Parse(loc)
	if err != nil {
		return ""
	}
	return u.String()
}

// rejoin GETs the run's URL after cursor.
func (p *pipeline) rejoin(ctx context.Context, runURL string, cursor int64) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, runURL, nil)
	if err != nil {
		return nil, err
	}
	p.agent.header(req)
	req.Header.Set("Accept", agui.SSEContentType)
	if cursor > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(cursor, 10))
	}
	resp, err := p.agent.cfg.httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, statusError(resp)
	}
	return resp.Body, nil
}

// stop DELETEs the run's URL after the caller cancelled it, on a context
// of its own: the caller's is done.
func (p *pipeline) stop(ctx context.Context, runURL string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, runURL, nil)
	if err != nil {
		return
	}
	p.agent.header(req)
	if resp, err := p.agent.cfg.httpClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// backoff is the wait before the given attempt: base, doubled for each
// attempt before it that made no progress, at most eight times base.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base
	for range min(attempt-1, 3) {
		d *= 2
	}
	return d
}
