package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agui-go/agui"
)

// TestEveryRouteIsDescribed: every agent route the chat page lists tells a
// first-time user what it does and what to type, in its capabilities
// (identity.description, custom.suggestions), and keeps the defaults of its
// state type; and no description names a route that does not exist.
func TestEveryRouteIsDescribed(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/agents", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+demoToken) // lists the private route too
	var list struct{ Routes []string }
	getJSON(t, req, &list)
	described := abouts()
	for _, route := range list.Routes {
		var caps struct {
			agui.Capabilities
			Custom struct {
				Suggestions []suggestion `json:"suggestions"`
			} `json:"custom"`
		}
		req, err := http.NewRequest(http.MethodGet, srv.URL+route+"/capabilities", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+demoToken)
		if route == "/agents/users/detached" {
			req.Header.Set("Authorization", "Bearer alice-token")
		}
		getJSON(t, req, &caps)
		if caps.Identity == nil || caps.Identity.Description == "" || len(caps.Custom.Suggestions) == 0 || caps.Transport == nil {
			t.Errorf("%s: capabilities %+v, want a description, suggestions and the default transport", route, caps)
			continue
		}
		for _, s := range caps.Custom.Suggestions {
			if s.Title == "" || s.Message == "" {
				t.Errorf("%s: suggestion %+v lacks a title or a message", route, s)
			}
		}
		delete(described, route)
	}
	for route := range described {
		t.Errorf("abouts describes %s, which the app does not serve", route)
	}
	// Routes with shared state keep declaring it.
	for _, route := range []string{"/agents/editor", "/agents/plan", "/agents/frontend"} {
		var caps agui.Capabilities
		req, _ := http.NewRequest(http.MethodGet, srv.URL+route+"/capabilities", nil)
		getJSON(t, req, &caps)
		if caps.State == nil || caps.State.Snapshots == nil || !*caps.State.Snapshots {
			t.Errorf("%s: state %+v, want snapshots declared", route, caps.State)
		}
	}
}

func getJSON(t *testing.T, req *http.Request, v any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", req.URL, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", req.URL, err)
	}
}
