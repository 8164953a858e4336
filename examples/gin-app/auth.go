package main

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// demoToken is the demo's one bearer token; it names the user "demo".
const demoToken = "demo"

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header. The scheme is matched case-insensitively, as RFC 9110 §11.1
// requires of authentication schemes; the token is compared as it is.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// hasToken reports whether r carries token as its bearer token, in
// constant time.
func hasToken(r *http.Request, token string) bool {
	got, ok := bearerToken(r)
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// bearer is ordinary Gin middleware that requires "Authorization: Bearer
// <token>". It answers before the agent route runs, so a refused client
// gets a plain 401 and never a stream.
func bearer(token string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if !hasToken(c.Request, token) {
			c.Header("WWW-Authenticate", `Bearer realm="agents"`)
			refuseUnauthenticated(c, "a bearer token is required")
			return
		}
		c.Next()
	}
}

// principal is the app's one principal hook (core.WithPrincipal), given to
// every owned route: the loop, frontend and MCP agents and their history
// routes, and the users' resumable route, whose threads and runs belong to
// the principal that created them. Callers without credentials are all
// "anonymous" (one principal, so the curl lines of docs/example-app.md
// work without a token), the demo token is the user "user:demo", "Bearer alice-token" and
// "Bearer bob-token" are "user:alice" and "user:bob", and any other
// credentials are refused (401), on every method.
var principal core.PrincipalFunc = func(r *http.Request) (string, error) {
	if r.Header.Get("Authorization") == "" {
		return "anonymous", nil
	}
	if hasToken(r, demoToken) {
		return "user:" + demoToken, nil
	}
	if name, ok := userOf(r); ok {
		return "user:" + name, nil
	}
	return "", errors.New("unknown credentials")
}

// refuseUnauthenticated answers c with a JSON 401 UNAUTHENTICATED and ends
// the chain. It writes with core.RequestError's WriteHTTP, not
// c.AbortWithStatusJSON: the refusal comes before the body is read, and
// WriteHTTP makes sure net/http does not then wait for the unread body,
// which a client stalling its upload would hold past a shutdown's grace.
func refuseUnauthenticated(c *gin.Context, msg string) {
	(&core.RequestError{Status: http.StatusUnauthorized, Code: core.CodeUnauthenticated, Message: msg}).WriteHTTP(c.Writer)
	c.Abort()
}

// ownerGuard is Gin middleware putting a's thread ownership check (see
// loop.Agent.OwnerGuard) in front of the rest of the chain.
func ownerGuard(a *loop.Agent) gin.HandlerFunc {
	return func(c *gin.Context) {
		passed := false
		a.OwnerGuard(principal, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			passed = true
			c.Request = r
			c.Next()
		})).ServeHTTP(c.Writer, c.Request)
		if !passed {
			c.Abort()
		}
	}
}
