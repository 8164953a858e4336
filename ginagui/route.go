package ginagui

import "github.com/gin-gonic/gin"

// namePattern sets c's request's Pattern to the Gin route it matched (such
// as "/agents/:name"), unless a router already set one, so that the core
// handler labels the run's log line, metrics and refusals with the route
// (see core.WithRoute) without per-request allocation.
func namePattern(c *gin.Context) {
	if c.Request.Pattern == "" {
		c.Request.Pattern = c.FullPath()
	}
}
