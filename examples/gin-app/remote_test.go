package main

import (
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// /agents/remote serves the app's editor through the Go client over
// loopback: the same events, messages and state as /agents/editor,
// under this route's own RUN_STARTED and RUN_FINISHED.
func TestRemoteRouteProxiesEditor(t *testing.T) {
	srv := newTestServer(t)
	direct := stream(t, srv.URL+"/agents/editor", input("Name my draft", ""))
	proxied := stream(t, srv.URL+"/agents/remote", input("Name my draft", ""))
	types := func(evs []agui.Event) []agui.EventType {
		var out []agui.EventType
		for _, ev := range evs {
			out = append(out, ev.Type())
		}
		return out
	}
	if !slices.Equal(types(proxied), types(direct)) {
		t.Errorf("proxied event types %v, want the editor's %v", types(proxied), types(direct))
	}
	if got, want := text(proxied), text(direct); got != want || want == "" {
		t.Errorf("proxied text %q, want the editor's %q", got, want)
	}
	state := func(evs []agui.Event) string {
		for _, ev := range evs {
			if s, ok := ev.(*agui.StateSnapshot); ok {
				b, _ := json.Marshal(s.Snapshot)
				return string(b)
			}
		}
		return ""
	}
	if got := state(proxied); got != `{"revision":1,"title":"Q3 plan"}` {
		t.Errorf("proxied state %s, want the editor's draft", got)
	}
	if rs, ok := proxied[0].(*agui.RunStarted); !ok || rs.ThreadID != "t" || rs.RunID != "r" {
		t.Errorf("first event %#v, want RUN_STARTED of t/r", proxied[0])
	}
}

// -remote-url points /agents/remote at an agent elsewhere instead of the
// app's editor; without it the route serves the editor (above).
func TestRemoteURLFlag(t *testing.T) {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello from elsewhere!")
	})
	h, err := core.NewHandler(greeter)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := httptest.NewServer(h)
	defer elsewhere.Close()

	var f flags
	fs := flag.NewFlagSet("gin-app", flag.ContinueOnError)
	f.register(fs)
	if err := fs.Parse([]string{"-remote-url", elsewhere.URL}); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	if err := f.apply(&cfg); err != nil {
		t.Fatal(err)
	}
	r, err := newRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	defer http.DefaultClient.CloseIdleConnections()
	if got := text(stream(t, srv.URL+"/agents/remote", input("hi", ""))); got != "Hello from elsewhere!" {
		t.Errorf("/agents/remote said %q, want the agent at -remote-url", got)
	}
}
