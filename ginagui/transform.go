package ginagui

import (
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// transformersKey is the gin.Context key of the request's transformer
// list, in the order the events pass through it: the innermost group's
// first, the outermost group's last.
type transformersKey struct{}

// Transform returns Gin middleware that adds ts to the transformer chain
// of every agent route below the router or group it is registered on:
//
//	compat := r.Group("/compat", ginagui.Transform(inline))
//	ginagui.Register(compat, "/supervisor", supervisor)
//
// Within one call, transformers run in the order written, as with
// [core.WithTransformers]: in Transform(a, b), a sees the agent's events
// first and b's output goes on towards the client. Across groups they
// compose the way Gin middleware does: an outer group wraps the inner ones,
// so its transformers see the events last, after the inner groups' (and
// the route's own core.WithTransformers) have rewritten them, just as an
// outer middleware sees a response after the inner handlers have written
// it. So with
//
//	api := r.Group("/api", ginagui.Transform(a))
//	v1 := api.Group("/v1", ginagui.Transform(b, c))
//
// an agent on v1 emits into b, whose output goes to c, then to a, then to
// the client. A transformer that must record what the client receives,
// such as a log, goes last: at the end of a list, or on the outermost
// group.
//
// Each run builds its own instances from the factories, so a transformer
// that keeps per-run state is safe on a busy route. The middleware itself
// is safe for concurrent use.
func Transform(ts ...core.TransformerFactory) gin.HandlerFunc {
	ts = slices.Clone(ts)
	return func(c *gin.Context) {
		outer, _ := c.Get(transformersKey{})
		list, _ := outer.([]core.TransformerFactory)
		// This group is inside the ones before it: its transformers see
		// the events before theirs.
		c.Set(transformersKey{}, append(slices.Clip(ts), list...))
		c.Next()
	}
}

// transformers returns the request's transformer factories in the order
// the events pass through them.
func transformers(c *gin.Context) []core.TransformerFactory {
	v, _ := c.Get(transformersKey{})
	list, _ := v.([]core.TransformerFactory)
	return slices.Clone(list)
}
