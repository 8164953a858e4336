package ginagui

import (
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
func Input(opts ...core.HandlerOption) gin.HandlerFunc {
	ir, err := core.NewInputReader(opts...)
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
		if !readInput(c, ir) {
			c.Abort()
			return
		}
		c.Next()
	}
}

// readInput runs the route's principal hook (core.WithPrincipal) and,
// unless c's request already carries an input, reads it with ir, putting
// both on c.Request's context: the app's middleware after Input, and after
// the agent route's c.Next, finds them there (core.PrincipalFrom,
// InputFrom). An unknown caller is refused before its body is read. It
// reports false once it has answered a refusal.
func readInput(c *gin.Context, ir *core.InputReader) bool {
	r, ok := ir.Authenticate(c.Writer, c.Request)
	if !ok {
		return false
	}
	c.Request = r
	if _, ok := core.InputFrom(r.Context()); ok {
		return true
	}
	in, err := ir.Read(c.Writer, r)
	if err != nil {
		ir.Refuse(c.Writer, r, err)
		return false
	}
	c.Request = r.WithContext(core.ContextWithInput(r.Context(), in))
	return true
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
// core.HandlerOption keeps its settings private.
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
