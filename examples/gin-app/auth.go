package main

import (
	"crypto/subtle"
	"net/http"

	"github.com/gin-gonic/gin"
)

// bearer is ordinary Gin middleware that requires "Authorization: Bearer
// <token>". It answers before the agent route runs, so a refused client
// gets a plain 401 and never a stream.
func bearer(token string) gin.HandlerFunc {
	want := []byte("Bearer " + token)
	return func(c *gin.Context) {
		got := []byte(c.GetHeader("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			c.Header("WWW-Authenticate", `Bearer realm="agents"`)
			c.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"error": "a bearer token is required", "code": "UNAUTHENTICATED"})
			return
		}
		c.Next()
	}
}
