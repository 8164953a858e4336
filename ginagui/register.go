package ginagui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Register mounts agent a on r: POST path runs it (see [Handler]), GET,
// PUT, PATCH and DELETE on path are answered 405 with an Allow: POST
// header and the JSON error body of other refusals, and GET
// path/capabilities serves its AG-UI 1.0 capabilities ([core.WithCapabilities],
// by default [DefaultCapabilities]), behind the route's principal hook
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
func Register[S any](r gin.IRouter, path string, a core.Agent[S], opts ...core.Option) error {
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		return err
	}
	caps, ok := h.Capabilities()
	if !ok {
		caps = DefaultCapabilities[S]()
	}
	body, err := json.Marshal(caps)
	if err != nil {
		return err
	}
	capsPath := strings.TrimSuffix(path, "/") + "/capabilities"
	if err := route(func() {
		r.GET(capsPath, func(c *gin.Context) {
			// The route's principal hook guards every method of it.
			if _, ok := h.Authenticate(c.Writer, c.Request); !ok {
				c.Abort()
				return
			}
			c.Header("Cache-Control", "no-cache")
			c.Data(http.StatusOK, "application/json", body)
		})
	}); err != nil {
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

// DefaultCapabilities returns what is known of any agent with state type
// S without asking it: it streams, over SSE or protobuf, and publishes
// state snapshots and deltas unless S is [core.NoState]. Everything else is
// left undeclared, which the protocol reads as unknown, not unsupported.
func DefaultCapabilities[S any]() agui.Capabilities {
	caps := agui.Capabilities{
		Transport: &agui.TransportCapabilities{Streaming: new(true), HTTPBinary: new(true)},
	}
	var zero S
	if _, stateless := any(zero).(core.NoState); !stateless {
		caps.State = &agui.StateCapabilities{Snapshots: new(true), Deltas: new(true)}
	}
	return caps
}

// methodNotAllowed refuses a request to an agent route that is not a POST,
// as core.ReadInput would, without ever running the agent.
func methodNotAllowed(c *gin.Context) {
	(&core.RequestError{Status: http.StatusMethodNotAllowed, Code: core.CodeMethodNotAllowed,
		Message: "a run is started with POST"}).WriteHTTP(c.Writer)
	c.Abort()
}
