package core

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/agui-go/agui"
)

// CodeTooManyRuns is the code of the 429 a [Handler] answers when its
// concurrent-run cap ([WithMaxConcurrentRuns]) is reached.
const CodeTooManyRuns agui.Code = "TOO_MANY_RUNS"

// DefaultRetryAfter is the Retry-After of a 429 over the concurrent-run
// cap unless [WithMaxConcurrentRuns] says otherwise.
const DefaultRetryAfter = time.Second

// opsConfig is the part of a handler's configuration that operates it:
// the names in its logs and metrics, its refusal hook and its cap on
// concurrent runs.
type opsConfig struct {
	route      RouteInfo
	refused    func(ctx context.Context, r Refusal)
	maxRuns    int
	retryAfter time.Duration
}

// check rejects settings out of range.
func (o opsConfig) check() error {
	switch {
	case o.maxRuns < 0:
		return errors.New("core: WithMaxConcurrentRuns needs a non-negative cap")
	case o.retryAfter < 0:
		return errors.New("core: WithMaxConcurrentRuns needs a non-negative Retry-After")
	}
	return nil
}

// WithMaxConcurrentRuns caps the runs the handler streams at once at n
// (default 0: no cap). A request over the cap is answered before its
// stream starts, with a JSON 429 (code TOO_MANY_RUNS) and a Retry-After
// header of retryAfter rounded up to whole seconds (0 means
// [DefaultRetryAfter], 1 s); nothing of it runs. The cap is the handler's
// own: one per route. A negative n or retryAfter makes [NewHandler] fail.
//
// 429 rather than 503: the server is healthy, this route is busy, and a
// load balancer must not take the instance out of rotation for it; 503
// stays the answer of a shut [Gate].
func WithMaxConcurrentRuns(n int, retryAfter time.Duration) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.ops.maxRuns, c.ops.retryAfter = n, retryAfter })
}

// admitRun takes one of the handler's run slots. It returns release, to
// call once the run's stream has ended, or, over the cap, the refusal to
// answer; it sets the Retry-After header on w for it.
func (t *transport) admitRun(w http.ResponseWriter) (release func(), refused *RequestError) {
	limit := t.cfg.ops.maxRuns
	if limit == 0 {
		return func() {}, nil
	}
	if t.running.Add(1) > int64(limit) {
		t.running.Add(-1)
		ra := t.cfg.ops.retryAfter
		if ra == 0 {
			ra = DefaultRetryAfter
		}
		w.Header().Set("Retry-After", retryAfterSeconds(ra))
		return nil, &RequestError{Status: http.StatusTooManyRequests, Code: CodeTooManyRuns,
			Message: "too many runs on this route; retry later"}
	}
	return func() { t.running.Add(-1) }, nil
}

// Admitter is implemented by an [Agent] that can tell, before a run's
// stream starts, that it will not take the run now: the loop's agent, when
// its checkpoint store is full. [Handler.NewRun] (which Serve, and any
// other transport, builds its runs with) calls AdmitRun once per new run,
// after reading the input and before anything is written, on the
// request's goroutine; ctx carries the route and the
// input ([InputFrom]). A [*RequestError] it returns is answered as it is
// (its RetryAfter as a Retry-After header), any other error as a 503
// (UNAVAILABLE); the run does not start. A client thus gets a status it
// can retry on, not a stream that ends at once in a RUN_ERROR.
type Admitter interface {
	AdmitRun(ctx context.Context, in *agui.RunAgentInput) error
}

// admitAgent asks a an [Admitter] whether it takes the run of in; nil
// when it does or is no Admitter.
func admitAgent(ctx context.Context, a any, in *agui.RunAgentInput) *RequestError {
	ad, ok := a.(Admitter)
	if !ok {
		return nil
	}
	err := ad.AdmitRun(ctx, in)
	if err == nil {
		return nil
	}
	var re *RequestError
	if errors.As(err, &re) {
		return re
	}
	return &RequestError{Status: http.StatusServiceUnavailable, Code: CodeUnavailable,
		Message: "the agent cannot take the run now; retry later"}
}

// retryAfterSeconds is d rounded up to whole seconds, as Retry-After
// takes them.
func retryAfterSeconds(d time.Duration) string {
	return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10)
}
