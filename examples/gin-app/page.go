package main

import (
	"embed"
	"net/http"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"
)

// web holds the chat page and its committed bundle, so running the app
// needs no Node. web/src is the bundle's source; `npm run build` in web/
// rebuilds web/dist/app.js.
//
//go:embed web/index.html web/dist/app.js
var web embed.FS

// registerPage serves the chat page at GET / (and its script at
// GET /app.js), and the agent routes it offers at GET /agents as
// {"routes": [...]}. The page is mounted on explicit routes: Gin panics when
// a static handler at "/" sits beside the agents' capability routes.
func registerPage(r *gin.Engine, routes []string) {
	serve := func(name, contentType string) gin.HandlerFunc {
		return func(c *gin.Context) {
			body, err := web.ReadFile(name)
			if err != nil {
				c.AbortWithStatus(http.StatusInternalServerError)
				return
			}
			c.Header("Cache-Control", "no-cache")
			c.Data(http.StatusOK, contentType, body)
		}
	}
	r.GET("/", serve("web/index.html", "text/html; charset=utf-8"))
	r.GET("/app.js", serve("web/dist/app.js", "text/javascript; charset=utf-8"))
	listed := append([]string(nil), routes...)
	r.GET("/agents", func(c *gin.Context) {
		// Only the routes this caller may use: the private group needs
		// the demo token.
		visible := make([]string, 0, len(listed))
		for _, route := range listed {
			if strings.HasPrefix(route, "/agents/private/") && !hasToken(c.Request, demoToken) {
				continue
			}
			visible = append(visible, route)
		}
		c.JSON(http.StatusOK, gin.H{"routes": visible})
	})
}

// agentRoutes lists the POST routes under /agents that r serves, sorted:
// every agent registered so far, whichever helper added it, but not the
// thread API beside a loop route (<route>/threads…), which is no agent.
func agentRoutes(r *gin.Engine) []string {
	var routes []string
	for _, ri := range r.Routes() {
		if ri.Method == http.MethodPost && strings.HasPrefix(ri.Path, "/agents/") && !strings.Contains(ri.Path, "/threads") {
			routes = append(routes, ri.Path)
		}
	}
	sort.Strings(routes)
	return routes
}
