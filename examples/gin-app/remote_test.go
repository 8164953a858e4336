package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agui-go/agui"
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
