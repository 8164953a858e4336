package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestPageServed(t *testing.T) {
	srv := newTestServer(t)
	for _, tc := range []struct{ path, contentType, contains string }{
		{"/", "text/html; charset=utf-8", `<script type="module" src="app.js">`},
		{"/app.js", "text/javascript; charset=utf-8", "/agents/echo"},
	} {
		resp, body := get(t, srv.URL+tc.path)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("GET %s: %d %q, want 200 %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.contentType)
		}
		if !strings.Contains(body, tc.contains) {
			t.Errorf("GET %s: body lacks %q", tc.path, tc.contains)
		}
	}
	// Serving the page must not shadow anything: unknown paths stay 404.
	if resp, _ := get(t, srv.URL+"/nope"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /nope: %d, want 404", resp.StatusCode)
	}
}

func TestAgentsListsEveryAgentRoute(t *testing.T) {
	srv := newTestServer(t)
	resp, body := get(t, srv.URL+"/agents")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /agents: %d", resp.StatusCode)
	}
	var got struct{ Routes []string }
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("GET /agents: %v in %s", err, body)
	}
	for _, want := range []string{"/agents/echo", "/agents/slow", "/agents/approver", "/agents/flaky", "/agents/supervisor", "/agents/editor", "/agents/tools", "/agents/remote"} {
		if !slices.Contains(got.Routes, want) {
			t.Errorf("GET /agents = %v, lacks %s", got.Routes, want)
		}
	}
	if !slices.IsSorted(got.Routes) {
		t.Errorf("GET /agents = %v, not sorted", got.Routes)
	}
	// Every listed route answers a run, not 404.
	for _, route := range got.Routes {
		resp := do(t, srv.URL+route, input("hi", ""))
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			t.Errorf("POST %s: 404", route)
		}
	}
}

func TestAgentRoutesSkipsOtherMethodsAndPaths(t *testing.T) {
	r := gin.New()
	h := func(*gin.Context) {}
	r.POST("/agents/b", h)
	r.POST("/agents/a", h)
	r.GET("/agents/a/capabilities", h)
	r.POST("/other", h)
	if got, want := agentRoutes(r), []string{"/agents/a", "/agents/b"}; !slices.Equal(got, want) {
		t.Errorf("agentRoutes = %v, want %v", got, want)
	}
}
