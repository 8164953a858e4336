package ginagui

import (
	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Option configures Handler, Register and Input. Options are plain
// values, safe to share between routes and goroutines.
type Option interface{ apply(*config) }

type config struct {
	handler      []core.HandlerOption
	capabilities *agui.Capabilities
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// WithHandlerOptions configures the transport (default: the defaults of
// core.NewHandler: 8 MiB body limit, 15 s heartbeat, 30 s write timeout,
// slog.Default(), no shutdown gate).
func WithHandlerOptions(opts ...core.HandlerOption) Option {
	return optionFunc(func(c *config) { c.handler = append(c.handler, opts...) })
}

// WithCapabilities sets what Register serves at GET <path>/capabilities
// (default: DefaultCapabilities for the agent's state type).
func WithCapabilities(caps agui.Capabilities) Option {
	return optionFunc(func(c *config) { c.capabilities = &caps })
}
