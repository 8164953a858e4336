// Package nodeserver_test drives software we did not write with the Go
// client: server.mjs is an AG-UI server whose every event is built with
// @ag-ui/core@1.0.0's EventType and encoded by @ag-ui/encoder@1.0.0, which
// answers SSE or protobuf as the request's Accept asks. The Go client runs
// it over both encodings and must accept every stream with its verifier
// (client.Agent.Run rejects a stream the verifier rejects), raise no
// warning, and reduce the events into the messages, state and outcome the
// server meant, as test/conformance does the other way round with the
// official client against our server. proxy_test.go puts the two together:
// the official client runs the Node server directly and through a route
// that serves it with package remote, and must see the same run both ways.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing or stale. It skips only
// when node is not on PATH, and fails then under CI=true.
package nodeserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/internal/nodetest"
)

// startServer runs server.mjs and returns its base URL; the process ends
// with the test.
func startServer(t *testing.T) string {
	t.Helper()
	node := nodetest.Node(t, ".")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, "server.mjs")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait() // killed: the error says so
	})
	// The server prints "listening PORT" once it accepts connections on
	// the port the system picked for it.
	line, err := bufio.NewReader(stdout).ReadString('\n')
	port, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		cancel()
		_ = cmd.Wait()
		t.Fatalf("node server.mjs did not start: %q, %v\n%s", line, err, stderr.String())
	}
	return "http://127.0.0.1:" + port
}

// contentTypes records the Content-Type of every response, to show which
// encoding the official encoder picked.
type contentTypes struct {
	mu    sync.Mutex
	types []string
}

func (c *contentTypes) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		c.mu.Lock()
		c.types = append(c.types, resp.Header.Get("Content-Type"))
		c.mu.Unlock()
	}
	return resp, err
}

// encodings are the two ways the Go client asks: SSE only, and protobuf
// first. want is the Content-Type the official encoder must answer with.
var encodings = []struct {
	name string
	opts []client.Option
	want string
}{
	{"sse", nil, agui.SSEContentType},
	{"protobuf", []client.Option{client.WithProtobuf()}, agui.ProtoContentType},
}

// run runs the Node agent at path with the Go client and returns the view,
// failing t on a stream error (the verifier's rejection among them) or a
// warning, or when the response was not in the encoding asked for.
func run(t *testing.T, base, path string, opts []client.Option, wantType string) *client.View {
	t.Helper()
	var warnings []client.Warning
	rt := &contentTypes{}
	opts = append([]client.Option{
		client.WithHTTPClient(&http.Client{Transport: rt}),
		client.WithWarnings(func(w client.Warning) { warnings = append(warnings, w) }),
	}, opts...)
	agent, err := client.New(base+path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Weather in Lisbon?")}}
	view, err := agent.Run(t.Context(), in)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings: %+v", warnings)
	}
	if len(rt.types) != 1 || rt.types[0] != wantType {
		t.Errorf("response Content-Types %q, want one %q", rt.types, wantType)
	}
	return view
}

// sameJSON fails t unless got, encoded as JSON, equals the JSON want.
func sameJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var g, w any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the wanted JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, b, want)
	}
}

// The official encoder's run, in both encodings, reduces to the messages
// the server built (reasoning with its encrypted value, text with its tool call, the tool result, a
// message streamed as chunks), the state its snapshot and deltas make,
// and a successful outcome.
func TestClientRunsTheOfficialEncoder(t *testing.T) {
	base := startServer(t)
	for _, enc := range encodings {
		t.Run(enc.name, func(t *testing.T) {
			view := run(t, base, "/agents/chat", enc.opts, enc.want)
			sameJSON(t, "messages", view.Messages, `[
				{"id":"u1","role":"user","content":"Weather in Lisbon?"},
				{"id":"r1","role":"reasoning","content":"The user wants the weather.","encryptedValue":"opaque-chain"},
				{"id":"m1","role":"assistant","content":"You asked: Weather in Lisbon?",
				 "toolCalls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Lisbon\"}"}}]},
				{"id":"t1","role":"tool","content":"{\"celsius\":21}","toolCallId":"c1"},
				{"id":"m2","role":"assistant","content":"It is 21 °C in Lisbon."}
			]`)
			sameJSON(t, "state", view.State, `{"city":"Lisboa","steps":["weather"],"celsius":21}`)
			if o := view.Outcome(); view.Finished == nil || view.RunError != nil || o == nil || o.Type != agui.OutcomeSuccess {
				t.Errorf("finished %v, run error %v, outcome %v: want a successful finish", view.Finished, view.RunError, o)
			}
		})
	}
}

// A RUN_ERROR from the official encoder is the view's RunError, with the
// server's message and code, and no error of the stream; what the run
// said before it stays.
func TestClientReadsTheOfficialRunError(t *testing.T) {
	base := startServer(t)
	for _, enc := range encodings {
		t.Run(enc.name, func(t *testing.T) {
			view := run(t, base, "/agents/error", enc.opts, enc.want)
			if view.RunError == nil || view.RunError.Message != "the weather service is down" || view.RunError.Code != "UPSTREAM_DOWN" {
				t.Fatalf("RunError = %+v, want the server's message and code", view.RunError)
			}
			if view.Finished != nil {
				t.Errorf("Finished = %+v after RUN_ERROR", view.Finished)
			}
			sameJSON(t, "messages", view.Messages, `[
				{"id":"u1","role":"user","content":"Weather in Lisbon?"},
				{"id":"m1","role":"assistant","content":"Looking it up."}
			]`)
		})
	}
}
