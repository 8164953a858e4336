package ginagui

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// RegisterResumable mounts agent a on r like [Register], on a resumable
// route whose runs are kept in lg (see [core.ResumableHandler]):
//
//   - POST path starts a run, or joins it when its runId is known;
//   - GET path/runs/*runId rejoins it after its Last-Event-ID header (or
//     ?after=) and DELETE path/runs/*runId stops it; the run id is one
//     escaped path segment (a "/" in it is %2F), taken whole;
//   - GET path/threads/:threadId/run follows the thread's active run (204
//     when there is none);
//   - GET path/capabilities declares transport.resumable.
//
// All of them are under r, so the group's middleware (authentication
// included) applies to rejoins and stops as to runs; give the route a
// [core.WithPrincipal] that reads the authenticated principal so that only
// the user who started a run may rejoin or stop it. Transformers of the
// route's groups apply to new runs, as with Register. opts are the
// handler's options and the resumable route's ([core.WithDetach],
// core.WithPrincipal, ...) in one list. Call Close on the returned handler
// when the server shuts down, after Gate.Shutdown.
func RegisterResumable[S any](r gin.IRouter, path string, a core.Agent[S], lg core.RunLog, opts ...core.HandlerOption) (*core.ResumableHandler[S], error) {
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		return nil, err
	}
	rh, err := core.NewResumableHandler(h, lg, opts...)
	if err != nil {
		return nil, err
	}
	caps := h.Capabilities()
	tr := agui.TransportCapabilities{}
	if caps.Transport != nil {
		tr = *caps.Transport
	}
	// Resumable streams are SSE only.
	tr.Resumable, tr.HTTPBinary = new(true), new(false)
	caps.Transport = &tr
	capsHandler, err := core.NewCapabilitiesHandler(caps, h.InputReader())
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(path, "/")
	r.POST(path, func(c *gin.Context) {
		defer c.Abort()
		namePattern(c)
		var opts []core.RunOption
		if ts := transformers(c); len(ts) > 0 {
			opts = append(opts, core.WithTransformers(ts...))
		}
		rh.Start(c.Writer, c.Request, opts...)
	})
	r.Match([]string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete}, path, methodNotAllowed)
	// A run id may hold a "/" (escaped %2F in its URL), which Gin's
	// router sees unescaped unless the engine uses the raw path: a
	// catch-all takes the run id whole either way.
	r.GET(base+"/runs/*runId", func(c *gin.Context) {
		defer c.Abort()
		namePattern(c)
		rh.Rejoin(c.Writer, c.Request, runIDParam(c))
	})
	r.DELETE(base+"/runs/*runId", func(c *gin.Context) {
		defer c.Abort()
		namePattern(c)
		rh.Stop(c.Writer, c.Request, runIDParam(c))
	})
	r.GET(base+"/threads/:threadId/run", func(c *gin.Context) {
		defer c.Abort()
		namePattern(c)
		rh.Active(c.Writer, c.Request, c.Param("threadId"))
	})
	r.GET(base+"/capabilities", abortAfter(capsHandler))
	return rh, nil
}

// runIDParam is the run id of a path/runs/*runId route, without the
// catch-all's leading "/".
func runIDParam(c *gin.Context) string {
	return strings.TrimPrefix(c.Param("runId"), "/")
}
