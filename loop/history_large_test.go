package loop

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// longThread saves a thread whose transcript is over agui.MaxEventSize in
// JSON (twelve exchanges of 1 MiB each) and returns its messages.
func longThread(t *testing.T, store Store, id string) []agui.Message {
	t.Helper()
	big := strings.Repeat("x", 1<<20)
	var msgs []agui.Message
	for i := range 12 {
		msgs = append(msgs, UserText(big))
		msgs = append(msgs, &agui.AssistantMessage{ID: "a" + string(rune('a'+i)), Content: "ok"})
	}
	if _, err := store.Save(t.Context(), &Checkpoint{ThreadID: id, Status: StatusIdle, Messages: msgs}, 0, 0); err != nil {
		t.Fatal(err)
	}
	return msgs
}

// A thread whose history is over the event limit still runs: a client
// lacking its history gets a MESSAGES_SNAPSHOT of the newest messages that
// fit in one event (not one over the limit that fails the run), and each
// later run finishes too.
func TestLongThreadStillRuns(t *testing.T) {
	store := NewMemoryStore()
	msgs := longThread(t, store, "long")
	a := mustNew(t, Script(Turn{Text: "first"}, Turn{Text: "second"}), WithCheckpoints(store))
	for _, runID := range []string{"r1", "r2"} {
		in := agui.NewInput("long", runID)
		next := UserText("more")
		in.Messages = []agui.Message{next}
		evs := runCore(t, a, in)
		if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
			t.Fatalf("run %s ended %v: %v", runID, types(evs), evs[len(evs)-1])
		}
		snap, ok := evs[1].(*agui.MessagesSnapshot)
		if !ok {
			t.Fatalf("run %s: no snapshot: %v", runID, types(evs))
		}
		b, err := snap.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > agui.MaxEventSize {
			t.Fatalf("snapshot of %d bytes", len(b))
		}
		first, last := snap.Messages[0], snap.Messages[len(snap.Messages)-1]
		if first.MessageID() == msgs[0].MessageID() || last.MessageID() != next.ID {
			t.Fatalf("snapshot from %s to %s, want the newest part ending with the input", first.MessageID(), last.MessageID())
		}
		if _, ok := first.(*agui.ToolMessage); ok {
			t.Fatal("snapshot starts with a tool result")
		}
	}
}

// GET …/threads/{id} of a thread over the event limit answers 200 with a
// bounded body: the newest messages that fit, and how many are left out.
func TestHistoryHandlerLongThread(t *testing.T) {
	store := NewMemoryStore()
	msgs := longThread(t, store, "long")
	a := mustNew(t, Script(), WithCheckpoints(store))
	rec := httptest.NewRecorder()
	ThreadsHandler(a, nil).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/threads/long", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body.String()[:min(200, rec.Body.Len())])
	}
	if rec.Body.Len() > agui.MaxEventSize {
		t.Fatalf("body of %d bytes", rec.Body.Len())
	}
	var h struct {
		ThreadID string            `json:"threadId"`
		Messages []json.RawMessage `json:"messages"`
		Omitted  int               `json:"omitted"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
		t.Fatal(err)
	}
	if h.ThreadID != "long" || h.Omitted == 0 || h.Omitted+len(h.Messages) != len(msgs) {
		t.Fatalf("thread %q: %d messages, %d omitted, of %d", h.ThreadID, len(h.Messages), h.Omitted, len(msgs))
	}
	var newest struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(h.Messages[len(h.Messages)-1], &newest); err != nil || newest.ID != msgs[len(msgs)-1].MessageID() {
		t.Fatalf("newest message %s (%v)", newest.ID, err)
	}
}

// The newest part never starts with a tool result whose call was left
// out, and a message alone over the room leaves nothing.
func TestNewestThatFit(t *testing.T) {
	call := &agui.AssistantMessage{ID: "a1", ToolCalls: []agui.ToolCall{{ID: "c1", Function: agui.FunctionCall{Name: "echo", Arguments: strings.Repeat("y", 1000)}}}}
	res := &agui.ToolMessage{ID: "t1", ToolCallID: "c1", Content: agui.TextContent("r")}
	after := &agui.AssistantMessage{ID: "a2", Content: "done"}
	msgs := []agui.Message{UserText("go"), call, res, after}
	start, enc, err := newestThatFit(msgs, 500)
	if err != nil || start != 3 || len(enc) != 1 {
		t.Fatalf("start %d, %d encoded, %v", start, len(enc), err)
	}
	start, enc, err = newestThatFit(msgs, 1<<20)
	if err != nil || start != 0 || len(enc) != 4 {
		t.Fatalf("start %d, %d encoded, %v", start, len(enc), err)
	}
	if start, enc, _ := newestThatFit(msgs, 10); start != 4 || len(enc) != 0 {
		t.Fatalf("start %d, %d encoded", start, len(enc))
	}
}
