package ginagui

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// RegisterResumable mounts the resumable route rh (see [resume.Handler])
// on r at path:
//
//   - POST path starts a run, or joins it when its runId is known;
//   - GET path/runs/*runId rejoins it after its Last-Event-ID header (or
//     ?after=) and DELETE path/runs/*runId stops it; the run id is one
//     escaped path segment (a "/" in it is %2F), taken whole;
//   - GET path/threads/:threadId/run follows the thread's active run (204
//     when there is none);
//   - GET path/capabilities serves [resume.Handler.Capabilities] with
//     core's handler ([core.NewCapabilitiesHandler]);
//   - GET, PUT, PATCH and DELETE on path are answered 405, as [Register]
//     answers them.
//
// All of them are under r, so the group's middleware (authentication
// included) applies to rejoins and stops as to runs; give the handler rh
// is built on a [core.WithPrincipal] that reads the authenticated principal
// so that only the user who started a run may rejoin or stop it.
// Transformers of the route's groups apply to new runs, as with Register.
// It only routes: build rh with [resume.New], and call its Close when the
// server shuts down, after Gate.Shutdown.
//
// RegisterResumable reports every problem as an error, never a panic, as
// Register does: it fails, registering nothing, when the capabilities
// route is taken, and fails when one of the run routes is taken; the 405
// courtesy routes give way to the app's own.
func RegisterResumable[S any](r gin.IRouter, path string, rh *resume.Handler[S]) error {
	if rh == nil {
		return fmt.Errorf("ginagui: RegisterResumable %s: no handler", path)
	}
	caps, err := core.NewCapabilitiesHandler(rh.Capabilities(), rh.Base().InputReader())
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(path, "/")
	routes := []struct {
		method, path string
		handle       gin.HandlerFunc
	}{
		{http.MethodGet, base + "/capabilities", abortAfter(caps)},
		{http.MethodPost, path, func(c *gin.Context) {
			defer c.Abort()
			namePattern(c)
			var opts []core.RunOption
			if ts := transformers(c); len(ts) > 0 {
				opts = append(opts, core.WithTransformers(ts...))
			}
			rh.Start(c.Writer, c.Request, opts...)
		}},
		// A run id may hold a "/" (escaped %2F in its URL), which Gin's
		// router sees unescaped unless the engine uses the raw path: a
		// catch-all takes the run id whole either way.
		{http.MethodGet, base + "/runs/*runId", func(c *gin.Context) {
			defer c.Abort()
			namePattern(c)
			rh.Rejoin(c.Writer, c.Request, runIDParam(c))
		}},
		{http.MethodDelete, base + "/runs/*runId", func(c *gin.Context) {
			defer c.Abort()
			namePattern(c)
			rh.Stop(c.Writer, c.Request, runIDParam(c))
		}},
		{http.MethodGet, base + "/threads/:threadId/run", func(c *gin.Context) {
			defer c.Abort()
			namePattern(c)
			rh.Active(c.Writer, c.Request, c.Param("threadId"))
		}},
	}
	for _, rt := range routes {
		if err := route(func() { r.Handle(rt.method, rt.path, rt.handle) }); err != nil {
			return fmt.Errorf("ginagui: RegisterResumable %s: %s %s: %w", path, rt.method, rt.path, err)
		}
	}
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		_ = route(func() { r.Handle(m, path, methodNotAllowed) }) // the app's own route wins
	}
	return nil
}

// runIDParam is the run id of a path/runs/*runId route, without the
// catch-all's leading "/".
func runIDParam(c *gin.Context) string {
	return strings.TrimPrefix(c.Param("runId"), "/")
}
