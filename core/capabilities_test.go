package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A plain net/http server mounts an agent's capabilities endpoint beside
// its run route.
func ExampleNewCapabilitiesHandler() {
	type counter struct{ N int }
	a := core.AgentFunc[counter](func(ctx context.Context, rc *core.RunContext[counter]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	h, err := core.NewHandler(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	caps, err := core.NewCapabilitiesHandler(h.Capabilities(), h.InputReader())
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("POST /agents/counter", h)
	mux.Handle("GET /agents/counter/capabilities", caps)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/agents/counter/capabilities")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	fmt.Print(string(body))
	// Output:
	// application/json no-cache
	// {"transport":{"streaming":true,"httpBinary":true},"state":{"snapshots":true,"deltas":true}}
}

func TestDefaultCapabilities(t *testing.T) {
	t.Parallel()
	plain := core.DefaultCapabilities[core.NoState]()
	if plain.State != nil || plain.Transport == nil || !*plain.Transport.Streaming || !*plain.Transport.HTTPBinary {
		t.Errorf("NoState: %+v, want streaming and binary, no state", plain)
	}
	stateful := core.DefaultCapabilities[struct{ N int }]()
	if stateful.State == nil || !*stateful.State.Snapshots || !*stateful.State.Deltas {
		t.Errorf("stateful: %+v, want snapshots and deltas", stateful)
	}
	named := agui.Capabilities{Identity: &agui.IdentityCapabilities{Name: "named"}}
	h := mustHandler(t, sayAgent("x"), core.WithCapabilities(named))
	if got := h.Capabilities(); got.Identity == nil || got.Identity.Name != "named" || got.Transport != nil {
		t.Errorf("WithCapabilities: %+v, want exactly the configured capabilities", got)
	}
}

// The endpoint is behind the route's principal hook, whose refusal is
// the route's 401 and goes to its refusal hook.
func TestCapabilitiesHandlerAuthenticates(t *testing.T) {
	t.Parallel()
	var rf refusals
	auth := func(r *http.Request) (string, error) {
		if u := r.Header.Get("X-User"); u != "" {
			return u, nil
		}
		return "", errors.New("no user")
	}
	h := mustHandler(t, sayAgent("x"), core.WithPrincipal(auth), core.WithRefusalHook(rf.hook), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	caps, err := core.NewCapabilitiesHandler(h.Capabilities(), h.InputReader())
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	caps.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/caps", nil))
	var body struct{ Code string }
	if rec.Code != http.StatusUnauthorized || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Code != string(core.CodeUnauthenticated) {
		t.Errorf("no user: %d %s, want 401 UNAUTHENTICATED", rec.Code, rec.Body)
	}
	if got := rf.all(); len(got) != 1 || got[0].Status != http.StatusUnauthorized {
		t.Errorf("refusals = %+v, want the 401", got)
	}
	req := httptest.NewRequest(http.MethodGet, "/caps", nil)
	req.Header.Set("X-User", "ann")
	rec = httptest.NewRecorder()
	caps.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !json.Valid(rec.Body.Bytes()) {
		t.Errorf("ann: %d %s, want 200 and the document", rec.Code, rec.Body)
	}
}

func TestNewCapabilitiesHandlerFailsOnUnencodable(t *testing.T) {
	t.Parallel()
	if _, err := core.NewCapabilitiesHandler(agui.Capabilities{Custom: map[string]any{"ch": make(chan int)}}, nil); err == nil {
		t.Error("capabilities that do not encode were accepted")
	}
	if _, err := core.NewCapabilitiesHandler(agui.Capabilities{}, nil); err != nil {
		t.Errorf("no InputReader: %v, want a route without a principal hook", err)
	}
}
