package ginagui

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Input returns middleware that checks and decodes the run request ahead
// of the rest of the chain, so that the app's own middleware can read the
// input with [InputFrom] before the run starts (to authorize the thread, say).
// A refused request gets its 4xx JSON answer and the chain is aborted. The
// agent route then runs the decoded input without reading the body again.
// Pass it the route's options so the body limit, strictness and principal
// hook ([core.WithPrincipal], whose principal Input puts on the request's
// context too) agree. An
// invalid option is handled as in [Handler]: logged to [slog.Default]() once,
// then every request is answered 500.
//
// Without Input, the route's handler decodes the input itself, and app
// middleware sees it only after c.Next returns. Requests other than POST
// pass through untouched, so Input can sit on a group of agent routes.
func Input(opts ...core.Option) gin.HandlerFunc {
	h, err := core.NewHandler[core.NoState](inputOnly{}, opts...)
	if err != nil {
		return misconfigured(err)
	}
	return func(c *gin.Context) {
		if _, ok := InputFrom(c); ok || c.Request.Method != http.MethodPost {
			// A request other than POST starts no run: its route answers
			// it (an agent's capabilities, a 405), so Input on a group
			// leaves every such route working.
			c.Next()
			return
		}
		namePattern(c)
		// The route's principal hook (core.WithPrincipal) first: the
		// app's middleware after Input finds the principal too
		// (core.PrincipalFrom), and an unknown caller is refused before
		// its body is read.
		r, ok := h.Authenticate(c.Writer, c.Request)
		if !ok {
			c.Abort()
			return
		}
		c.Request = r
		in, err := h.ReadInput(c.Writer, c.Request)
		if err != nil {
			h.Refuse(c.Writer, c.Request, err)
			c.Abort()
			return
		}
		c.Request = c.Request.WithContext(core.ContextWithInput(c.Request.Context(), in))
		c.Next()
	}
}

// inputOnly is the agent of the handler Input borrows its request checks
// from; that handler never serves a run.
type inputOnly struct{}

func (inputOnly) Run(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
	return agui.Outcome{}, errors.New("ginagui: Input is middleware, not an agent")
}

// InputFrom returns the run input of c's request once [Input] or the agent
// route's handler has decoded it. Code holding only a [context.Context] (an
// agent, a transformer) uses [core.InputFrom]; gin's own Context.Value does
// not reach the request's context unless the engine sets
// ContextWithFallback.
func InputFrom(c *gin.Context) (*agui.RunAgentInput, bool) {
	if c.Request == nil {
		return nil, false
	}
	return core.InputFrom(c.Request.Context())
}

// misconfigured logs err once and returns a handler answering every
// request 500: what a HandlerFunc constructor, which cannot return its
// configuration error, serves instead. It logs to slog.Default(): the
// options that failed are the only place a logger could come from, and
// core.Option keeps its settings private.
func misconfigured(err error) gin.HandlerFunc {
	slog.Default().Error("ginagui: agent route misconfigured", slog.Any("error", err))
	re := &core.RequestError{Status: http.StatusInternalServerError, Code: CodeMisconfigured,
		Message: "the agent route is misconfigured: " + err.Error()}
	return func(c *gin.Context) {
		re.WriteHTTP(c.Writer)
		c.Abort()
	}
}

// CodeMisconfigured is the code of the 500 that a route built with
// invalid options answers every request with (see [Handler]).
const CodeMisconfigured agui.Code = "MISCONFIGURED"
