package loop

import (
	"context"
	"errors"
	"net/http"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// CodeForbidden: the thread belongs to another principal.
const CodeForbidden agui.Code = "THREAD_FORBIDDEN"

// CodeUnauthenticated is the code of OwnerGuard's 401, when the principal
// function fails.
const CodeUnauthenticated = "UNAUTHENTICATED"

// errForbidden names nothing of the thread: its owner, status and pending
// approval are none of the caller's business.
var errForbidden = agui.NewError(CodeForbidden, "the thread belongs to someone else")

type principalKey struct{}

// WithPrincipal returns a copy of ctx carrying principal, the identity a
// run acts for (a user id, an API key's name; "" is none). A run with a
// principal records it as the owner of a thread it creates, and fails with
// THREAD_FORBIDDEN, before anything runs, on a thread another principal
// owns. OwnerGuard sets it from each HTTP request.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// principalFrom returns the principal ctx carries, "" for none.
func principalFrom(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// CheckOwner reports whether principal may use threadID: nil for a thread
// that does not exist yet (the principal's first run will own it), for an
// unowned thread and for the owner; a THREAD_FORBIDDEN [*agui.Error] for
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
// route serving a (such as a [core.Handler]): principal names the caller of
// each request (from its session, bearer token or API key; return a fixed
// name such as "anonymous" for callers without credentials, who then
// share their threads). A failing principal gets a JSON 401, a thread of
// another principal a JSON 403 (THREAD_FORBIDDEN), both before any
// stream; the run then carries the principal ([WithPrincipal]), so a thread
// it creates is recorded as the principal's.
//
// The guard reads the run input as a core.Handler with default options
// does (body, count and time limits) unless an earlier middleware put it
// on the request's context ([core.ContextWithInput], as ginagui.Input does
// with the route's own options); either way the body is read once.
// Requests other than POST start no run and pass through unchecked.
func (a *Agent) OwnerGuard(principal func(*http.Request) (string, error), next http.Handler) http.Handler {
	// A handler of a with the default options, whose ReadInput applies
	// the default body, count and time limits.
	read := func(w http.ResponseWriter, r *http.Request) (*agui.RunAgentInput, error) {
		return core.ReadInput(w, r, core.DefaultMaxBodyBytes)
	}
	if h, err := core.NewHandler[core.NoState](a); err == nil {
		read = h.ReadInput
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			// No run: the route answers it (405, capabilities, a history
			// read, which checks the principal put on the context here).
			if who, err := principal(r); err == nil {
				r = r.WithContext(WithPrincipal(r.Context(), who))
			}
			next.ServeHTTP(w, r)
			return
		}
		who, err := principal(r)
		if err != nil {
			(&core.RequestError{Status: http.StatusUnauthorized, Code: CodeUnauthenticated,
				Message: "the request names no principal"}).WriteHTTP(w)
			return
		}
		ctx := r.Context()
		in, ok := core.InputFrom(ctx)
		if !ok {
			if in, err = read(w, r); err != nil {
				var re *core.RequestError
				if !errors.As(err, &re) {
					re = &core.RequestError{Status: http.StatusBadRequest, Code: core.CodeMalformedInput, Message: "invalid run input"}
				}
				re.WriteHTTP(w)
				return
			}
			ctx = core.ContextWithInput(ctx, in)
		}
		if err := a.CheckOwner(ctx, in.ThreadID, who); err != nil {
			status := http.StatusForbidden
			if agui.CodeOf(err) != CodeForbidden {
				status = http.StatusServiceUnavailable
			}
			(&core.RequestError{Status: status, Code: core.RequestCode(agui.CodeOf(err)), Message: agui.ErrorText(err)}).WriteHTTP(w)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(ctx, who)))
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
