package loop

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agui-go/agui"
)

// A run whose input lacks messages of the thread starts with
// MESSAGES_SNAPSHOT of the transcript; a complete history gets none.
func TestMessagesSnapshotWhenHistoryIsShort(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hello"}))
	first := UserText("hi")
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{first}
	evs := runCore(t, a, in)
	for _, ev := range evs {
		if ev.Type() == agui.TypeMessagesSnapshot {
			t.Fatalf("snapshot on a new thread: %v", types(evs))
		}
	}
	second := UserText("again")
	in = agui.NewInput("t1", "r2")
	in.Messages = []agui.Message{second} // a reloaded page: only the new message
	evs = runCore(t, a, in)
	snap, ok := evs[1].(*agui.MessagesSnapshot)
	if !ok {
		t.Fatalf("events %v", types(evs))
	}
	if len(snap.Messages) != 3 || snap.Messages[0].MessageID() != first.ID || snap.Messages[2].MessageID() != second.ID {
		t.Fatalf("snapshot %s", dump(snap.Messages))
	}
	cp, _, err := a.cfg.store.Load(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	in = agui.NewInput("t1", "r3")
	in.Messages = append(cp.Messages, UserText("third"))
	evs = runCore(t, a, in)
	for _, ev := range evs {
		if ev.Type() == agui.TypeMessagesSnapshot {
			t.Fatalf("snapshot for a complete history: %v", types(evs))
		}
	}
}

func TestHistoryHandler(t *testing.T) {
	a, _ := paintAgent(t, NewMemoryStore())
	in := agui.NewInput("t 1", "r1")
	in.Messages = []agui.Message{UserText("paint")}
	in.State = json.RawMessage(`{"color":"red","count":0}`)
	runTyped(t, a, in)
	mux := http.NewServeMux()
	mux.Handle("/agents/paint/threads/{threadId}", ThreadsHandler(a.Loop(), nil))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	get := func(method, path string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("content type %q", ct)
		}
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body
	}
	status, body := get(http.MethodGet, "/agents/paint/threads/t%201")
	if status != 200 || body["threadId"] != "t 1" {
		t.Fatalf("%d %v", status, body)
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 4 { // user, assistant call, tool result, assistant text
		t.Fatalf("messages %v", body["messages"])
	}
	if m, _ := msgs[1].(map[string]any); m["role"] != "assistant" || m["toolCalls"] == nil {
		t.Fatalf("assistant message %v", msgs[1])
	}
	if st, _ := body["state"].(map[string]any); st["color"] != "blue" {
		t.Fatalf("state %v", body["state"])
	}
	if status, body := get(http.MethodGet, "/agents/paint/threads/nope"); status != 404 || body["code"] != string(CodeThreadNotFound) {
		t.Fatalf("%d %v", status, body)
	}
	if status, _ := get(http.MethodPost, "/agents/paint/threads/t%201"); status != 405 {
		t.Fatalf("POST: %d", status)
	}
}
