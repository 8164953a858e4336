package main

import (
	"context"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// userKey is the request-context key of the authenticated user's name.
type userKey struct{}

// users is a demo login for two people: "Authorization: Bearer
// alice-token" is alice, "Bearer bob-token" is bob. It puts the user's
// name on the request's context, where userOf reads it, and answers 401
// to anyone else before the agent route runs.
func users() gin.HandlerFunc {
	return func(c *gin.Context) {
		token, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
		name, known := strings.CutSuffix(token, "-token")
		if !ok || !known || (name != "alice" && name != "bob") {
			c.Header("WWW-Authenticate", `Bearer realm="users"`)
			c.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"error": "a user's bearer token is required", "code": "UNAUTHENTICATED"})
			return
		}
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), userKey{}, name))
		c.Next()
	}
}

// userOf is the principal a resumable run belongs to: the user that
// users authenticated ("" on a route without it).
func userOf(r *http.Request) string {
	name, _ := r.Context().Value(userKey{}).(string)
	return name
}
