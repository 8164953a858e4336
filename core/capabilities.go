package core

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agui-go/agui"
)

// DefaultCapabilities returns what is known of any agent with state type
// S without asking it: it streams, over SSE or protobuf, and publishes
// state snapshots and deltas unless S is [NoState]. Everything else is
// left undeclared, which the protocol reads as unknown, not unsupported.
func DefaultCapabilities[S any]() agui.Capabilities {
	caps := agui.Capabilities{
		Transport: &agui.TransportCapabilities{Streaming: new(true), HTTPBinary: new(true)},
	}
	var zero S
	if _, stateless := any(zero).(NoState); !stateless {
		caps.State = &agui.StateCapabilities{Snapshots: new(true), Deltas: new(true)}
	}
	return caps
}

// Capabilities returns what the agent route's capabilities endpoint
// declares: the capabilities set with [WithCapabilities], else
// [DefaultCapabilities] of S.
func (h *Handler[S]) Capabilities() agui.Capabilities {
	if c := h.t.cfg.capabilities; c != nil {
		return *c
	}
	return DefaultCapabilities[S]()
}

// capabilitiesHandler serves one route's capabilities document.
type capabilitiesHandler struct {
	body []byte
	ir   *InputReader
}

// NewCapabilitiesHandler returns the http.Handler of an agent route's
// AG-UI capabilities endpoint, to mount on GET beside the route (as
// "GET /agents/echo/capabilities" on an [http.ServeMux]; ginagui.Register
// mounts it at path/capabilities): it answers caps as JSON, with
// Cache-Control: no-cache, behind ir's principal hook ([WithPrincipal]),
// whose refusals it answers and reports as ir does. Pass the route's
// [Handler.Capabilities] and [Handler.InputReader], so the endpoint
// declares and guards what the route serves; a nil ir is a route without
// a principal hook. The document is encoded once, here: it fails when caps
// does not encode as JSON. The handler is safe for concurrent use.
func NewCapabilitiesHandler(caps agui.Capabilities, ir *InputReader) (http.Handler, error) {
	body, err := json.Marshal(caps)
	if err != nil {
		return nil, fmt.Errorf("core: capabilities: %w", err)
	}
	if ir == nil {
		if ir, err = NewInputReader(); err != nil {
			return nil, err
		}
	}
	return &capabilitiesHandler{body: append(body, '\n'), ir: ir}, nil
}

func (c *capabilitiesHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The route's principal hook guards every method of it.
	if _, ok := c.ir.Authenticate(w, r); !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(c.body)
}
