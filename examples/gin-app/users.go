package main

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// users is a demo login for two people: "Authorization: Bearer
// alice-token" is alice, "Bearer bob-token" is bob. It answers 401 to
// anyone else before the agent route runs; who the caller is, the route's
// principal hook (principal) says.
func users() gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, ok := userOf(c.Request); !ok {
			c.Header("WWW-Authenticate", `Bearer realm="users"`)
			refuseUnauthenticated(c, "a user's bearer token is required")
			return
		}
		c.Next()
	}
}

// userOf returns the demo user r's bearer token names, alice or bob.
func userOf(r *http.Request) (string, bool) {
	token, ok := bearerToken(r)
	name, known := strings.CutSuffix(token, "-token")
	return name, ok && known && (name == "alice" || name == "bob")
}
