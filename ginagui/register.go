package ginagui

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Register mounts agent a on r: POST path runs it (see Handler), GET,
// PUT, PATCH and DELETE on path are answered 405 with an Allow: POST
// header and the JSON error body of other refusals, and GET
// path/capabilities serves its AG-UI 1.0 capabilities (core.WithCapabilities,
// by default DefaultCapabilities). OPTIONS is left to CORS middleware. It
// fails, registering nothing, when an option is invalid; like any Gin
// route, it panics when one of these routes is already registered.
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
	r.POST(path, serve(h))
	r.Match([]string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete}, path, methodNotAllowed)
	r.GET(strings.TrimSuffix(path, "/")+"/capabilities", func(c *gin.Context) {
		c.Header("Cache-Control", "no-cache")
		c.Data(http.StatusOK, "application/json", body)
	})
	return nil
}

// DefaultCapabilities returns what is known of any agent with state type
// S without asking it: it streams, over SSE or protobuf, and publishes
// state snapshots and deltas unless S is core.NoState. Everything else is
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
