package mcptool

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// inMemory connects a Toolset to srv in process.
func inMemory(t *testing.T, srv *mcp.Server, opts ...Option) *Toolset {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	ts, err := Connect(context.Background(), ct, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	return ts
}

// subprocess connects a Toolset to the test binary run as an MCP server.
func subprocess(t *testing.T) *Toolset {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"=1")
	ts, err := Connect(context.Background(), &mcp.CommandTransport{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	return ts
}

// offered records the tool names of each model request.
type offered struct {
	mu    sync.Mutex
	turns [][]string
	specs map[string]json.RawMessage
}

// provider wraps a script, recording what each turn is offered.
func (o *offered) provider(s *loop.Scripted) loop.Provider {
	return loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		o.mu.Lock()
		var names []string
		if o.specs == nil {
			o.specs = map[string]json.RawMessage{}
		}
		for _, sp := range req.Tools {
			names = append(names, sp.Name)
			o.specs[sp.Name] = sp.Schema
		}
		o.turns = append(o.turns, names)
		o.mu.Unlock()
		return s.Stream(ctx, req)
	})
}

// run executes calls in one turn followed by a closing answer.
func run(t *testing.T, ctx context.Context, rec *offered, tools loop.Option, calls ...loop.ScriptedCall) loop.Result {
	t.Helper()
	script := loop.Script(loop.Turn{Calls: calls}, loop.Turn{Text: "ok"})
	var p loop.Provider = script
	if rec != nil {
		p = rec.provider(script)
	}
	a, err := loop.New(p, tools)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// toolResults maps call ids to their tool messages.
func toolResults(res loop.Result) map[string]*agui.ToolMessage {
	out := map[string]*agui.ToolMessage{}
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok {
			out[tm.ToolCallID] = tm
		}
	}
	return out
}

func TestInProcessToolsSchemasAndErrors(t *testing.T) {
	ts := inMemory(t, testServer(newHooks()), WithPrefix("calc_"))
	rec := &offered{}
	res := run(t, context.Background(), rec, loop.WithToolSets(ts),
		loop.ScriptedCall{ID: "c1", Name: "calc_add", Args: `{"a":2,"b":3}`},
		loop.ScriptedCall{ID: "c2", Name: "calc_fail", Args: `{}`},
		loop.ScriptedCall{ID: "c3", Name: "calc_add", Args: `{"a":"two"}`},
	)
	if got := rec.turns[0]; !slices.Equal(got, []string{"calc_add", "calc_die", "calc_fail", "calc_wait"}) {
		t.Fatalf("offered %v", got)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(rec.specs["calc_add"], &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || schema.Properties["a"] == nil || !slices.Contains(schema.Required, "b") || !strings.Contains(string(schema.Properties["a"]), "the first number") {
		t.Fatalf("the model got schema %s", rec.specs["calc_add"])
	}
	r := toolResults(res)
	if r["c1"].Error != "" || r["c1"].Content.String() != `{"sum":5}` {
		t.Fatalf("add: %+v", r["c1"])
	}
	if !strings.Contains(r["c2"].Error, "the disk is full") || !strings.Contains(r["c2"].Content.String(), `"execution"`) {
		t.Fatalf("tool error: %q %s", r["c2"].Error, r["c2"].Content.String())
	}
	// The loop validates arguments against the server's schema before
	// calling it.
	if !strings.Contains(r["c3"].Content.String(), `"validation"`) {
		t.Fatalf("bad arguments: %s", r["c3"].Content.String())
	}
}

// Aborting the run cancels the MCP request: the server's handler sees its
// context end.
func TestAbortCancelsMCPRequest(t *testing.T) {
	h := newHooks()
	ts := inMemory(t, testServer(h))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan loop.Result, 1)
	go func() {
		done <- run(t, ctx, nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c1", Name: "wait", Args: `{}`})
	}()
	<-h.started
	cancel()
	if err := <-h.cancelled; err == nil {
		t.Fatal("the server's context did not end")
	}
	res := <-done
	if res.FinishReason != loop.FinishAborted {
		t.Fatalf("finish %s", res.FinishReason)
	}
	if c := toolResults(res)["c1"].Content.String(); !strings.Contains(c, `"cancelled"`) {
		t.Fatalf("result %s", c)
	}
}

func TestToolListChanged(t *testing.T) {
	srv := testServer(newHooks())
	reloads := make(chan []string, 4)
	ts := inMemory(t, srv, WithOnReload(func(names []string, err error) {
		if err != nil {
			t.Errorf("reload: %v", err)
		}
		reloads <- names
	}))
	before := ts.Tools() // an agent built on the old list
	mcp.AddTool(srv, &mcp.Tool{Name: "mul", Description: "Multiplies"}, func(ctx context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		return nil, addOut{Sum: in.A * in.B}, nil
	})
	if got := <-reloads; !slices.Contains(got, "mul") {
		t.Fatalf("after adding: %v", got)
	}
	srv.RemoveTools("add")
	if got := <-reloads; slices.Contains(got, "add") {
		t.Fatalf("after removing: %v", got)
	}
	// A model turn now sees the new list.
	rec := &offered{}
	res := run(t, context.Background(), rec, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c1", Name: "mul", Args: `{"a":2,"b":3}`})
	if got := rec.turns[0]; !slices.Equal(got, []string{"die", "fail", "mul", "wait"}) {
		t.Fatalf("offered %v", got)
	}
	if c := toolResults(res)["c1"].Content.String(); c != `{"sum":6}` {
		t.Fatalf("mul: %s", c)
	}
	// A tool taken from the old list says it was removed.
	res = run(t, context.Background(), nil, loop.WithTools(before...), loop.ScriptedCall{ID: "c1", Name: "add", Args: `{"a":2,"b":3}`})
	if e := toolResults(res)["c1"].Error; !strings.Contains(e, "no longer offers the tool add") {
		t.Fatalf("removed tool: %q", e)
	}
}

func TestStreamableHTTP(t *testing.T) {
	srv := testServer(newHooks())
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	// The handler keeps its sessions until they are closed.
	defer func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	}()
	reloads := make(chan []string, 4)
	ts, err := Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1},
		WithOnReload(func(names []string, err error) {
			if err == nil {
				reloads <- names
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, context.Background(), nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c1", Name: "add", Args: `{"a":20,"b":22}`})
	if c := toolResults(res)["c1"].Content.String(); c != `{"sum":42}` {
		t.Fatalf("add over HTTP: %s", c)
	}
	// The list changes: the notification comes over the server's stream.
	srv.RemoveTools("fail")
	if got := <-reloads; slices.Contains(got, "fail") || !slices.Contains(got, "add") {
		t.Fatalf("after removing over HTTP: %v", got)
	}
	// The server goes away: a call fails with a clear result, at once.
	hs.CloseClientConnections()
	hs.Close()
	res = run(t, context.Background(), nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c2", Name: "add", Args: `{"a":1,"b":1}`})
	if e := toolResults(res)["c2"].Error; !strings.Contains(e, "MCP server test") {
		t.Fatalf("server down: %q", e)
	}
	if err := ts.Close(); err != nil {
		t.Logf("close: %v", err)
	}
}

func TestSubprocess(t *testing.T) {
	ts := subprocess(t)
	res := run(t, context.Background(), nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`})
	if c := toolResults(res)["c1"].Content.String(); c != `{"sum":3}` {
		t.Fatalf("add over stdio: %s", c)
	}
	// The server dies during a call: the call ends with an error result,
	// and so does every later call.
	res = run(t, context.Background(), nil, loop.WithToolSets(ts),
		loop.ScriptedCall{ID: "c2", Name: "die", Args: `{}`})
	if e := toolResults(res)["c2"].Error; !strings.Contains(e, "MCP server test") {
		t.Fatalf("die: %q", e)
	}
	res = run(t, context.Background(), nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c3", Name: "add", Args: `{"a":1,"b":2}`})
	if e := toolResults(res)["c3"].Error; !strings.Contains(e, "unavailable") {
		t.Fatalf("after death: %q", e)
	}
}

func TestRender(t *testing.T) {
	cases := []struct {
		res  *mcp.CallToolResult
		want string
	}{
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}}, "a\nb"},
		{&mcp.CallToolResult{StructuredContent: map[string]int{"n": 1}}, `{"n":1}`},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1}}}},
			`[{"type":"text","text":"a"},{"type":"image","mimeType":"image/png","data":"AQ=="}]`},
		{&mcp.CallToolResult{}, ""},
	}
	for i, c := range cases {
		got, err := render(c.res)
		if err != nil || got != c.want {
			t.Errorf("case %d: %q %v, want %q", i, got, err, c.want)
		}
	}
}
