package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

const themeToolJSON = `{"name":"set_theme_color","description":"Sets the page's theme colour","parameters":{"type":"object","properties":{"color":{"type":"string","enum":["teal","tomato"]}},"required":["color"]}}`

// TestFrontend drives /agents/frontend over HTTP: the first run calls the
// page's tool and ends for the client, with the colour predicted into
// state; the run with the tool's result answers with it verbatim; the
// thread reads back from GET /agents/frontend/threads/{threadId}.
func TestFrontend(t *testing.T) {
	srv := newTestServer(t)
	body := `{"threadId":"tf","runId":"r1","protocolVersion":"1.0","state":{"keep":1},"tools":[` + themeToolJSON + `],` +
		`"messages":[{"id":"u1","role":"user","content":"make it teal"}]}`
	evs := stream(t, srv.URL+"/agents/frontend", body)
	if fin := finished(t, evs); fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("first run: %v", aguitest.Types(evs))
	}
	var call *agui.ToolCallStart
	var args strings.Builder
	var predicted bool
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.ToolCallStart:
			call = e
		case *agui.ToolCallArgs:
			args.WriteString(e.Delta)
		case *agui.StateDelta:
			for _, op := range e.Delta {
				predicted = predicted || (op.Path == "/theme" && op.Value == "teal")
			}
		case *agui.StateSnapshot:
			b, _ := json.Marshal(e.Snapshot)
			predicted = predicted || string(b) == `{"keep":1,"theme":"teal"}`
		case *agui.ToolCallResult:
			t.Fatalf("the server answered the page's call: %v", aguitest.Types(evs))
		}
	}
	if call == nil || call.ToolCallName != "set_theme_color" || args.String() != `{"color":"teal"}` || !predicted {
		t.Fatalf("call %+v args %s predicted %v: %v", call, args.String(), predicted, aguitest.Types(evs))
	}
	body = `{"threadId":"tf","runId":"r2","protocolVersion":"1.0","state":{"keep":1,"theme":"teal"},"tools":[` + themeToolJSON + `],"messages":[` +
		`{"id":"u1","role":"user","content":"make it teal"},` +
		`{"id":"` + call.ParentMessageID + `","role":"assistant","toolCalls":[{"id":"` + call.ToolCallID + `","type":"function","function":{"name":"set_theme_color","arguments":"{\"color\":\"teal\"}"}}]},` +
		`{"id":"res1","role":"tool","toolCallId":"` + call.ToolCallID + `","content":"theme is now teal (#008080)"}]}`
	evs = stream(t, srv.URL+"/agents/frontend", body)
	if fin := finished(t, evs); fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("second run: %v", aguitest.Types(evs))
	}
	var text strings.Builder
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.TextMessageContent:
			text.WriteString(e.Delta)
		case *agui.MessagesSnapshot:
			t.Fatalf("snapshot for a complete history: %v", aguitest.Types(evs))
		}
	}
	if !strings.Contains(text.String(), "theme is now teal (#008080)") || !strings.Contains(text.String(), "theme is teal") {
		t.Fatalf("answer %q", text.String())
	}

	resp, err := http.Get(srv.URL + "/agents/frontend/threads/tf")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		ThreadID string            `json:"threadId"`
		Messages []json.RawMessage `json:"messages"`
		State    map[string]any    `json:"state"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	if h.ThreadID != "tf" || len(h.Messages) != 4 || h.State["theme"] != "teal" {
		t.Fatalf("history %+v", h)
	}
}

// An unknown thread of the loop route is a 404 with a JSON body.
func TestLoopHistoryUnknownThread(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.URL + "/agents/loop/threads/nope")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(b), `"THREAD_NOT_FOUND"`) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	evs := stream(t, srv.URL+"/agents/loop", input("Plan a weekend in Oslo", ""))
	finished(t, evs)
	resp2, err := http.Get(srv.URL + "/agents/loop/threads/t")
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	if resp2.StatusCode != 200 {
		t.Fatalf("%d", resp2.StatusCode)
	}
}

func TestExampleArgs(t *testing.T) {
	cases := map[string]string{
		`{}`: `{}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`:                                                           `{}`,
		`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string","default":"x"}},"required":["a","b"]}`: `{"a":1,"b":"x"}`,
		`not json`: `{}`,
	}
	for in, want := range cases {
		if got := exampleArgs(json.RawMessage(in)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
