package ginagui

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
)

// Handler returns a Gin handler serving agent a on a POST route: it
// validates the request, streams the run and aborts the rest of the chain
// once the stream is over. Transformers registered with Transform on the
// route's groups wrap the run's stream (see Transform for the order).
//
// Handler cannot return an error, so an invalid option is logged once
// here and every request is then answered 500; Register reports the same
// error at startup instead.
func Handler[S any](a core.Agent[S], opts ...Option) gin.HandlerFunc {
	h, err := core.NewHandler(a, newConfig(opts).handler...)
	if err != nil {
		slog.Default().Error("ginagui: handler not configured", slog.Any("error", err))
		return func(c *gin.Context) {
			c.AbortWithStatusJSON(http.StatusInternalServerError,
				gin.H{"error": "the agent route is misconfigured", "code": "MISCONFIGURED"})
		}
	}
	return serve(h)
}

// serve adapts a core.Handler to Gin. The decoded input goes on
// c.Request's context before the run starts, so the agent and the app's
// middleware (after c.Next returns) find it with InputFrom.
func serve[S any](h *core.Handler[S]) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer c.Abort() // nothing after us may write into the stream
		if _, ok := core.InputFrom(c.Request.Context()); !ok {
			in, err := h.ReadInput(c.Writer, c.Request)
			if err != nil {
				var re *core.RequestError
				if errors.As(err, &re) {
					re.WriteHTTP(c.Writer)
				}
				return
			}
			c.Request = c.Request.WithContext(core.ContextWithInput(c.Request.Context(), in))
		}
		var opts []core.Option
		if ts := transformers(c); len(ts) > 0 {
			opts = append(opts, core.WithTransformers(ts...))
		}
		h.Serve(c.Writer, c.Request, opts...)
	}
}

// InputFrom returns the run input of c's request once the agent route's
// handler has decoded it: app middleware reads it after c.Next returns.
// Code holding only a context.Context (an agent, a transformer) uses
// core.InputFrom; gin's own Context.Value does not reach the request's
// context unless the engine sets ContextWithFallback.
func InputFrom(c *gin.Context) (*core.RunAgentInput, bool) {
	if c.Request == nil {
		return nil, false
	}
	return core.InputFrom(c.Request.Context())
}
