package nodeserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/remote"
)

// officialRun is what client.mjs prints: what a caller of the official
// @ag-ui/client HttpAgent sees of one run.
type officialRun struct {
	Raw       []map[string]any `json:"raw"`  // decoded by the transport
	Seen      []map[string]any `json:"seen"` // handed to subscribers
	Messages  []map[string]any `json:"messages"`
	State     any              `json:"state"`
	RunErrors []map[string]any `json:"runErrors"`
	Warnings  []string         `json:"warnings"`
	Errors    []string         `json:"errors"`
	Rejected  string           `json:"rejected"`
}

// runOfficial runs client.mjs against url, asking for accept ("" for the
// client's default, SSE).
func runOfficial(t *testing.T, node, url, accept string) officialRun {
	t.Helper()
	args := []string{"client.mjs", url}
	if accept != "" {
		args = append(args, accept)
	}
	out, err := exec.CommandContext(t.Context(), node, args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node client.mjs %s: %v\n%s", url, err, stderr)
	}
	var r officialRun
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("client.mjs printed %q: %v", out, err)
	}
	if len(r.Warnings) > 0 || len(r.Errors) > 0 {
		t.Errorf("the official client against %s warned %q, logged errors %q", url, r.Warnings, r.Errors)
	}
	return r
}

// proxy serves the Node agent at base+path through remote.New on a
// core.NewHandler route of an httptest server, and returns the route's URL.
func proxy(t *testing.T, base, path string) string {
	t.Helper()
	c, err := client.New(base + path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := remote.New(c)
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler(p)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /proxied"+path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/proxied" + path
}

// ownedByRunner are the fields of the run's own lifecycle events that the
// runner in front sets, not the remote: its protocol version on
// RUN_STARTED, its outcome on RUN_FINISHED; timestamps anywhere.
var ownedByRunner = map[string][]string{
	"RUN_STARTED":  {"protocolVersion"},
	"RUN_FINISHED": {"outcome"},
}

// comparable drops from events what the runner in front owns, and replaces
// a RUN_ERROR by its type, which the caller compares on its own.
func comparable(events []map[string]any) []map[string]any {
	out := make([]map[string]any, 0, len(events))
	for _, ev := range events {
		e := make(map[string]any, len(ev))
		for k, v := range ev {
			e[k] = v
		}
		typ, _ := e["type"].(string)
		delete(e, "timestamp")
		for _, k := range ownedByRunner[typ] {
			delete(e, k)
		}
		if typ == "RUN_ERROR" {
			e = map[string]any{"type": typ}
		}
		out = append(out, e)
	}
	return out
}

// sameAs fails t unless got and want are deeply equal, printing both as
// JSON.
func sameAs(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s through the proxy:\n got %s\nwant %s (Node directly)", what, g, w)
	}
}

// The official @ag-ui/client, over SSE and over protobuf, sees the same
// run from the Node agent whether it talks to Node directly or to a
// core.NewHandler route that serves the Node agent through remote.New:
// the same events as its pipeline hands them to subscribers (types and
// payloads, but for what the runner in front owns on RUN_STARTED and
// RUN_FINISHED; on the wire the proxy's chunks arrive expanded, as that
// pipeline expands Node's), reduced into the same messages and state, without a
// warning either way. The remote's RUN_ERROR reaches it as our coded
// RUN_ERROR (remote.CodeRunError) naming the remote's code and message.
func TestOfficialClientSeesNodeThroughTheProxy(t *testing.T) {
	node := nodetest.Node(t, ".")
	base := startServer(t)
	accepts := []struct{ name, accept string }{
		{"sse", ""},
		{"protobuf", agui.ProtoContentType},
	}
	for _, path := range []string{"/agents/chat", "/agents/error"} {
		proxied := proxy(t, base, path)
		for _, a := range accepts {
			t.Run(strings.TrimPrefix(path, "/agents/")+"/"+a.name, func(t *testing.T) {
				direct := runOfficial(t, node, base+path, a.accept)
				via := runOfficial(t, node, proxied, a.accept)
				if direct.Rejected != "" || via.Rejected != "" {
					t.Fatalf("runAgent rejected: directly %q, through the proxy %q", direct.Rejected, via.Rejected)
				}
				if len(direct.Seen) < 3 {
					t.Fatalf("Node directly: only %d events", len(direct.Seen))
				}
				// Our emitter expands TEXT_MESSAGE_CHUNK on the way out, as
				// the official client's pipeline does on the way in: the
				// proxy's wire carries what that pipeline makes of Node's.
				sameAs(t, "raw events", comparable(via.Raw), comparable(direct.Seen))
				sameAs(t, "events seen by subscribers", comparable(via.Seen), comparable(direct.Seen))
				sameAs(t, "messages", via.Messages, direct.Messages)
				sameAs(t, "state", via.State, direct.State)
				if path != "/agents/error" {
					if len(direct.RunErrors)+len(via.RunErrors) > 0 {
						t.Errorf("RUN_ERROR: directly %v, through the proxy %v", direct.RunErrors, via.RunErrors)
					}
					return
				}
				if len(direct.RunErrors) != 1 || len(via.RunErrors) != 1 {
					t.Fatalf("RUN_ERROR: directly %v, through the proxy %v: want one each", direct.RunErrors, via.RunErrors)
				}
				e := via.RunErrors[0]
				msg, _ := e["message"].(string)
				if e["code"] != string(remote.CodeRunError) || !strings.Contains(msg, "UPSTREAM_DOWN") || !strings.Contains(msg, "the weather service is down") {
					t.Errorf("RUN_ERROR through the proxy = %v: want code %s naming the remote's code and message", e, remote.CodeRunError)
				}
			})
		}
	}
}
