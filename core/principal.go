package core

import (
	"context"
	"errors"
	"net/http"
)

// PrincipalFunc names the principal behind a request: the identity its
// runs and threads belong to (a user id from the session or bearer token
// a middleware checked, an API key's name). It returns an error when the
// request's credentials name nobody (unknown, malformed or expired);
// return a fixed name such as "anonymous" for callers without
// credentials, who then share what they create. It must be safe for
// concurrent use.
//
// It is the one principal hook of a route ([WithPrincipal]): run
// ownership on a resumable route (package resume) and thread
// ownership in package loop (its OwnerGuard and ThreadsHandler) both read
// what it returns, from the request's context ([PrincipalFrom]).
type PrincipalFunc func(*http.Request) (string, error)

// errUnauthenticated is the refusal of a request whose principal could not
// be found; it says nothing of why (the credentials are the client's own).
var errUnauthenticated = &RequestError{Status: http.StatusUnauthorized, Code: CodeUnauthenticated,
	Message: "the request's credentials name no principal"}

// WithPrincipal sets the route's principal hook (see [PrincipalFunc]),
// run on every request of the route, whatever its method: a [Handler]'s
// run, a resumable route's start, rejoin, active-run lookup and stop,
// ginagui's capabilities route. A failing f is a JSON 401
// ([CodeUnauthenticated]) before any stream; otherwise the principal is
// put on the request's context ([ContextWithPrincipal]), where the run
// and its agent find it. The default is no hook: the route has no owners
// (every request of a resumable route is the same principal, and loop
// threads created there are unowned), unless a middleware put a
// principal on the context itself. A nil f makes [NewHandler] fail.
func WithPrincipal(f PrincipalFunc) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.principal, c.principalSet = f, true })
}

type principalKey struct{}

// ContextWithPrincipal returns a copy of ctx carrying principal, the
// identity a run acts for ("" is none). A route with [WithPrincipal] puts
// it there for each request; callers of a run outside HTTP (core.Run,
// loop's Execute) set it themselves.
func ContextWithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// PrincipalFrom returns the principal ctx carries, and whether it carries
// one: false means the request or run has no principal, not even an
// anonymous one, and a check that needs one must refuse.
func PrincipalFrom(ctx context.Context) (string, bool) {
	p, ok := ctx.Value(principalKey{}).(string)
	return p, ok
}

// Authenticate runs f on r and returns r carrying the principal
// ([ContextWithPrincipal]), or the 401 [*RequestError] to answer when f
// fails. A nil f returns r as it is: the route has no hook, and whatever
// principal a middleware put on the context stays.
func (f PrincipalFunc) Authenticate(r *http.Request) (*http.Request, error) {
	if f == nil {
		return r, nil
	}
	p, err := f(r)
	if err != nil {
		return r, errUnauthenticated
	}
	return r.WithContext(ContextWithPrincipal(r.Context(), p)), nil
}

// Authenticate runs the route's principal hook ([WithPrincipal]) on r:
// it returns r carrying the principal and true, or answers the 401 and
// reports it as the route's other refusals, and returns false. Adapters
// call it on every route of the agent before answering; [Handler.Serve]
// and the capabilities handler ([NewCapabilitiesHandler]) call it
// themselves.
func (ir *InputReader) Authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	r2, err := ir.cfg.principal.Authenticate(r)
	if err != nil {
		ir.Refuse(w, r, err)
		return r, false
	}
	return r2, true
}

func checkPrincipal(c handlerConfig) error {
	if c.principalSet && c.principal == nil {
		return errors.New("core: WithPrincipal needs a function")
	}
	return nil
}
