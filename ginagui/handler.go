package ginagui

import (
	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// Handler returns a Gin handler serving agent a on a POST route: it
// validates the request, streams the run and aborts the rest of the chain
// once the stream is over. Transformers registered with [Transform] on the
// route's groups wrap the run's stream (see Transform for the order).
//
// Handler cannot return an error, so an invalid option is logged once
// here, to slog.Default() since the options that failed cannot be trusted
// to name a logger, and every request is then answered 500; [Register]
// reports the same error at startup instead.
func Handler[S any](a core.Agent[S], opts ...core.HandlerOption) gin.HandlerFunc {
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		return misconfigured(err)
	}
	return serve(h)
}

// serve adapts a core.Handler to Gin. The decoded input goes on
// c.Request's context before the run starts, so the agent and the app's
// middleware (after c.Next returns) find it with InputFrom.
func serve[S any](h *core.Handler[S]) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer c.Abort() // nothing after us may write into the stream
		namePattern(c)
		// The principal hook before the body: an unknown caller's body is
		// never read.
		if !readInput(c, h.InputReader()) {
			return
		}
		var opts []core.RunOption
		if ts := transformers(c); len(ts) > 0 {
			opts = append(opts, core.WithTransformers(ts...))
		}
		h.Serve(c.Writer, c.Request, opts...)
	}
}
