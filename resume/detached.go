package resume

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// CodeTooManyDetachedRuns is the code of the 429 a [Handler]
// with [WithDetach] answers, before any stream, when its cap on runs that
// may outlive their client ([WithMaxDetachedRuns]) is reached for the
// route or for the request's principal.
const CodeTooManyDetachedRuns agui.Code = "TOO_MANY_DETACHED_RUNS"

// Defaults of [WithMaxDetachedRuns].
const (
	DefaultMaxDetachedRuns             = 256
	DefaultMaxDetachedRunsPerPrincipal = 8
)

// WithMaxDetachedRuns caps the runs of a route with [WithDetach] that are
// live at once at perRoute, and those of one principal (see
// [core.WithPrincipal]) at perPrincipal (defaults 256 and 8,
// [DefaultMaxDetachedRuns] and [DefaultMaxDetachedRunsPerPrincipal]). Any
// run of such a route may outlive its client, so without a cap a client
// that starts runs and goes away keeps them all running, and their logs
// held, for the grace period; the per-principal cap keeps one principal
// from taking the route's share. A run over a cap is answered before its
// stream with a JSON 429, code TOO_MANY_DETACHED_RUNS, and the Retry-After
// of [core.WithMaxConcurrentRuns] (default 1 s); nothing of it runs. A run is
// counted from its start to its end, watched or not; a request that joins
// a run already running is not counted again. Requests without a
// principal (every request, without [core.WithPrincipal]) are under the route's
// cap only, as they cannot be told apart. 0 lifts a cap; a negative
// one makes [New] fail. A route without [WithDetach]
// cancels a run with its last connection and has no such cap.
func WithMaxDetachedRuns(perRoute, perPrincipal int) Option {
	return func(c *config) { c.maxDetached, c.maxDetachedPer = perRoute, perPrincipal }
}

// detachCount counts the live runs of a detaching route, in all and per
// principal.
type detachCount struct {
	mu  sync.Mutex
	all int
	per map[string]int
}

func checkDetachCaps(c config) error {
	if c.maxDetached < 0 || c.maxDetachedPer < 0 {
		return errors.New("resume: WithMaxDetachedRuns needs non-negative caps")
	}
	return nil
}

// admitDetached counts a new run of principal against the detached-run
// caps. It returns release, to call once the run has ended, or, over a
// cap, the refusal to answer; it sets the Retry-After header on w for it.
func (rh *Handler[S]) admitDetached(w http.ResponseWriter, principal string) (release func(), refused *core.RequestError) {
	if rh.cfg.grace == 0 {
		return func() {}, nil
	}
	d := &rh.detached
	d.mu.Lock()
	defer d.mu.Unlock()
	if (rh.cfg.maxDetached > 0 && d.all >= rh.cfg.maxDetached) ||
		(rh.cfg.maxDetachedPer > 0 && principal != "" && d.per[principal] >= rh.cfg.maxDetachedPer) {
		ra := rh.set.RetryAfter
		w.Header().Set("Retry-After", strconv.FormatInt(int64((ra+time.Second-1)/time.Second), 10))
		return nil, &core.RequestError{Status: http.StatusTooManyRequests, Code: CodeTooManyDetachedRuns,
			Message: "too many runs that may outlive their client; retry later"}
	}
	if d.per == nil {
		d.per = map[string]int{}
	}
	d.all++
	d.per[principal]++
	var once sync.Once
	return func() {
		once.Do(func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.all--
			if d.per[principal]--; d.per[principal] <= 0 {
				delete(d.per, principal)
			}
		})
	}, nil
}
