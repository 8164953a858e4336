package ginagui

import (
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// transformersKey is the gin.Context key of the request's transformer
// list, outermost first.
type transformersKey struct{}

// Transform returns Gin middleware that adds ts to the transformer chain
// of every agent route below the router or group it is registered on:
//
//	compat := r.Group("/compat", ginagui.Transform(inline))
//	ginagui.Register(compat, "/supervisor", supervisor)
//
// Transformers compose the way Gin middleware does: the middleware that
// is registered first (on the outer group) wraps the ones registered after
// it, so it sees the events last, after the inner transformers have
// rewritten them, just as an outer middleware sees a response after the
// inner handlers have written it. Within one call, ts[0] is the outermost.
// So with
//
//	api := r.Group("/api", ginagui.Transform(a))
//	v1 := api.Group("/v1", ginagui.Transform(b, c))
//
// an agent on v1 emits into c, whose output goes to b, then to a, then to
// the client.
//
// Each run builds its own instances from the factories, so a transformer
// that keeps per-run state is safe on a busy route. The middleware itself
// is safe for concurrent use.
func Transform(ts ...core.NewTransformer) gin.HandlerFunc {
	ts = slices.Clone(ts)
	return func(c *gin.Context) {
		outer, _ := c.Get(transformersKey{})
		list, _ := outer.([]core.NewTransformer)
		// Clip so that two routes under one group never share a backing
		// array.
		c.Set(transformersKey{}, append(slices.Clip(list), ts...))
		c.Next()
	}
}

// transformers returns the request's transformers in the order the run
// applies them: innermost first.
func transformers(c *gin.Context) []core.NewTransformer {
	v, _ := c.Get(transformersKey{})
	list, _ := v.([]core.NewTransformer)
	out := slices.Clone(list)
	slices.Reverse(out)
	return out
}
