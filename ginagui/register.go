package ginagui

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// Register mounts agent a on r: POST path runs it (see [Handler]), GET,
// PUT, PATCH and DELETE on path are answered 405 with an Allow: POST
// header and the JSON error body of other refusals, and GET
// path/capabilities serves its AG-UI 1.0 capabilities ([core.WithCapabilities],
// by default [core.DefaultCapabilities]) with core's handler
// ([core.NewCapabilitiesHandler]), behind the route's principal hook
// ([core.WithPrincipal]) as the run is. OPTIONS is left to CORS middleware.
//
// Register reports every problem as an error, never a panic: it fails,
// registering nothing, when an option is invalid or the capabilities
// route is taken, and fails when the POST route is taken. The 405 routes
// are a courtesy that never collides with the app's own: one the app
// already registered (GET path, say, or a wildcard covering it) is kept
// and the courtesy route skipped. Register the app's own routes on the
// same paths first: Gin panics on a route added after one it conflicts
// with.
func Register[S any](r gin.IRouter, path string, a core.Agent[S], opts ...core.HandlerOption) error {
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		return err
	}
	caps, err := core.NewCapabilitiesHandler(h.Capabilities(), h.InputReader())
	if err != nil {
		return err
	}
	capsPath := strings.TrimSuffix(path, "/") + "/capabilities"
	if err := route(func() { r.GET(capsPath, abortAfter(caps)) }); err != nil {
		return fmt.Errorf("ginagui: Register %s: GET %s: %w", path, capsPath, err)
	}
	if err := route(func() { r.POST(path, serve(h)) }); err != nil {
		return fmt.Errorf("ginagui: Register %s: POST: %w", path, err)
	}
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		_ = route(func() { r.Handle(m, path, methodNotAllowed) }) // the app's own route wins
	}
	return nil
}

// abortAfter adapts h to Gin, as the last handler of its chain.
func abortAfter(h http.Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer c.Abort()
		h.ServeHTTP(c.Writer, c.Request)
	}
}

// route adds a route with f, turning Gin's panic on a conflicting route
// into an error.
func route(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	f()
	return nil
}

// methodNotAllowed refuses a request to an agent route that is not a POST,
// as core.InputReader.Read would, without ever running the agent.
func methodNotAllowed(c *gin.Context) {
	(&core.RequestError{Status: http.StatusMethodNotAllowed, Code: core.CodeMethodNotAllowed,
		Message: "a run is started with POST"}).WriteHTTP(c.Writer)
	c.Abort()
}
