package mcptool

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// A dead MCP server's error reaches the model and the client as a stable
// code and a safe message: neither the result nor any event carries the
// SDK's error text or the session id, which go to the log only. Before,
// the SDK's text, with the session id, reached the browser.
func TestDeadServerErrorIsSafe(t *testing.T) {
	srv := testServer(newHooks())
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	defer func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	}()
	ts, err := Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	session := ts.session.ID()
	if session == "" {
		t.Fatal("no session id")
	}
	hs.CloseClientConnections()
	hs.Close()

	var logs bytes.Buffer
	var events []string
	p := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":1}`}}}, loop.Turn{Text: "ok"})
	a, err := loop.New(p, loop.WithToolSets(ts), loop.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("go")}, OnEvent: func(ev agui.Event) error {
		b, err := agui.AppendSSE(nil, ev)
		events = append(events, string(b))
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := toolResults(res)["c1"]
	if r == nil || !strings.Contains(r.Content.String(), string(CodeServerUnavailable)) {
		t.Fatalf("result %+v", r)
	}
	for _, s := range append(events, r.Content.String(), r.Error) {
		if strings.Contains(s, session) || strings.Contains(s, "127.0.0.1") {
			t.Fatalf("the client sees the session or the address: %s", s)
		}
	}
	if !strings.Contains(logs.String(), "add") || !strings.Contains(logs.String(), string(CodeServerUnavailable)) {
		t.Fatalf("log %s", logs.String())
	}
}
