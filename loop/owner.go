package loop

import (
	"context"
	"errors"
	"net/http"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// errForbidden names nothing of the thread: its owner, status and pending
// approval are none of the caller's business.
var errForbidden = agui.NewError(core.CodeForbidden, "the thread belongs to someone else")

// principalFrom returns the principal ctx carries ([core.PrincipalFrom]),
// "" for none: a run without one may use only unowned threads.
func principalFrom(ctx context.Context) string {
	p, _ := core.PrincipalFrom(ctx)
	return p
}

// CheckOwner reports whether principal may use threadID: nil for a thread
// that does not exist yet (the principal's first run will own it), for an
// unowned thread and for the owner; a [core.CodeForbidden] [*agui.Error] for
// anyone else. Any endpoint reading a thread (a run, a resume, a history
// read) calls it before answering; a store failure is CHECKPOINT_ERROR.
func (a *Agent) CheckOwner(ctx context.Context, threadID, principal string) error {
	cp, _, err := a.cfg.store.Load(ctx, threadID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil
	case err != nil:
		return runError(CodeCheckpoint, err)
	}
	return checkOwner(cp, principal)
}

// checkOwner is CheckOwner on a loaded checkpoint.
func checkOwner(cp *Checkpoint, principal string) error {
	if cp.Owner == "" || cp.Owner == principal {
		return nil
	}
	return errForbidden
}

// OwnerGuard returns next behind a thread ownership check, for an HTTP
// route serving a (such as a [core.Handler]). principal is the route's
// principal hook, the same [core.PrincipalFunc] given to the route with
// [core.WithPrincipal]; nil uses the principal an earlier middleware put on
// the request's context (ginagui.Input does, with the route's options). A
// failing hook is a JSON 401 (core.CodeUnauthenticated) on every method, a
// POST of a thread of another principal (or, without any principal, of an
// owned thread) a JSON 403 (FORBIDDEN), both before any stream; the
// request then carries the principal ([core.ContextWithPrincipal]), so a
// thread the run creates is recorded as the principal's.
//
// The guard reads the run input with a [core.InputReader] of default
// options (body, count and time limits, refusals as JSON) unless an
// earlier middleware put it on the request's context
// ([core.ContextWithInput], as ginagui.Input does with the route's own
// options); either way the body is read once.
// Requests other than POST start no run and pass on with their principal
// to the route (a [ThreadsHandler] checks the thread itself).
func (a *Agent) OwnerGuard(principal core.PrincipalFunc, next http.Handler) http.Handler {
	// Default options cannot be out of range.
	ir, _ := core.NewInputReader()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := principal.Authenticate(r)
		if err != nil {
			err.(*core.RequestError).WriteHTTP(w)
			return
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		in, ok := core.InputFrom(ctx)
		if !ok {
			if in, err = ir.Read(w, r); err != nil {
				var re *core.RequestError
				if !errors.As(err, &re) {
					re = &core.RequestError{Status: http.StatusBadRequest, Code: core.CodeMalformedInput, Message: "invalid run input"}
				}
				re.WriteHTTP(w)
				return
			}
			ctx = core.ContextWithInput(ctx, in)
		}
		if err := a.CheckOwner(ctx, in.ThreadID, principalFrom(ctx)); err != nil {
			status := http.StatusForbidden
			if agui.CodeOf(err) != core.CodeForbidden {
				status = http.StatusServiceUnavailable
			}
			(&core.RequestError{Status: status, Code: agui.CodeOf(err), Message: agui.ErrorText(err)}).WriteHTTP(w)
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// claimOwner checks the run's principal against cp before anything else
// is looked at (so a foreign caller learns nothing, not even that an
// approval is pending) and records it as the owner of an unowned thread.
func claimOwner(ctx context.Context, cp *Checkpoint) error {
	p := principalFrom(ctx)
	if err := checkOwner(cp, p); err != nil {
		return err
	}
	if cp.Owner == "" {
		cp.Owner = p
	}
	return nil
}
