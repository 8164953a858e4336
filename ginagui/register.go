package ginagui

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// Register mounts agent a on r: POST path runs it (see Handler) and GET
// path/capabilities serves its AG-UI 1.0 capabilities (WithCapabilities,
// by default DefaultCapabilities). It fails, registering nothing, when
// an option is invalid.
func Register[S any](r gin.IRouter, path string, a core.Agent[S], opts ...Option) error {
	cfg := newConfig(opts)
	h, err := core.NewHandler(a, cfg.handler...)
	if err != nil {
		return err
	}
	caps := DefaultCapabilities[S]()
	if cfg.capabilities != nil {
		caps = *cfg.capabilities
	}
	body, err := json.Marshal(caps)
	if err != nil {
		return err
	}
	r.POST(path, serve(h))
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
func DefaultCapabilities[S any]() core.Capabilities {
	caps := core.Capabilities{
		Transport: &core.TransportCapabilities{Streaming: core.Bool(true), HTTPBinary: core.Bool(true)},
	}
	var zero S
	if _, stateless := any(zero).(core.NoState); !stateless {
		caps.State = &core.StateCapabilities{Snapshots: core.Bool(true), Deltas: core.Bool(true)}
	}
	return caps
}
