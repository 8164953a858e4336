package mcptool

import (
	"fmt"
	"time"
)

// Option configures [Connect].
type Option func(*config) error

type config struct {
	prefix      string
	callTimeout time.Duration
	onReload    func(names []string, err error)
}

// WithPrefix is put before every tool name the model sees, so that the tools
// of several servers cannot clash (default none). The server is called
// with the tool's own name.
func WithPrefix(p string) Option {
	return func(c *config) error { c.prefix = p; return nil }
}

// DefaultCallTimeout is how long a tool call waits for the server's
// answer unless [WithCallTimeout] says otherwise: long enough for a tool
// that does real work, short enough that a server which neither answers
// nor dies does not hold a run (and its thread) for good.
const DefaultCallTimeout = 60 * time.Second

// WithCallTimeout bounds each tool call, so that a server that neither answers
// nor dies cannot hold a run (default [DefaultCallTimeout], 60 s). A call
// that outlives it fails with [CodeTimeout]; the run's context bounds it
// too.
func WithCallTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("mcptool: CallTimeout %v: must be positive", d)
		}
		c.callTimeout = d
		return nil
	}
}

// WithOnReload is called after each reload of the tool list that a
// notifications/tools/list_changed from the server caused, with the tool
// names now offered, or the error that left the previous list in place
// (default none). It is called from the [Toolset]'s own goroutine, one call
// at a time, and must not call Close.
func WithOnReload(f func(names []string, err error)) Option {
	return func(c *config) error { c.onReload = f; return nil }
}
