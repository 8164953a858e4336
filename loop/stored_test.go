package loop

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// keptStore records, for every save, kept and the transcript's length.
type keptStore struct {
	*MemoryStore
	mu    sync.Mutex
	saves [][2]int // {kept, len(cp.Messages)}
}

func (s *keptStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	s.mu.Lock()
	s.saves = append(s.saves, [2]int{kept, len(cp.Messages)})
	s.mu.Unlock()
	return s.MemoryStore.Save(ctx, cp, expect, kept)
}

// A run's saves after its claim hand the store only what they append:
// kept is the length of the transcript saved before.
func TestSavesKeepTheStoredTranscript(t *testing.T) {
	store := &keptStore{MemoryStore: NewMemoryStore()}
	model := Script(Turn{Calls: echoCalls("c1")}, Turn{Calls: echoCalls("c2")}, Turn{Text: "done"},
		Turn{Calls: echoCalls("c3")}, Turn{Text: "again"})
	a := mustNew(t, model, WithTools(echoTool(t)), WithCheckpoints(store))
	for _, text := range []string{"go", "more"} {
		if res, err := a.Execute(t.Context(), Input{ThreadID: "k", Messages: []agui.Message{UserText(text)}}); err != nil || res.FinishReason != FinishStop {
			t.Fatalf("run %q: %v %v", text, res.FinishReason, err)
		}
	}
	prev := 0
	for i, s := range store.saves {
		if s[0] != prev {
			t.Errorf("save %d of %d messages: kept %d, want %d (the saved transcript before)", i, s[1], s[0], prev)
		}
		prev = s[1]
	}
	if len(store.saves) < 8 {
		t.Fatalf("%d saves, want at least 8", len(store.saves))
	}
}

// A hook that rewrites a call's arguments replaces its assistant turn in
// the transcript: the next save keeps only the messages before it.
func TestSaveAfterRewriteKeepsThePrefix(t *testing.T) {
	store := &keptStore{MemoryStore: NewMemoryStore()}
	model := Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "done"})
	a := mustNew(t, model, WithTools(echoTool(t)), WithCheckpoints(store),
		WithBeforeToolCall(func(ctx context.Context, c Call) (CallVerdict, error) {
			return CallVerdict{Args: json.RawMessage(`{"id":"edited"}`)}, nil
		}))
	res, err := a.Execute(t.Context(), Input{ThreadID: "r", Messages: []agui.Message{UserText("go")}})
	if err != nil || res.FinishReason != FinishStop {
		t.Fatalf("run: %v %v", res.FinishReason, err)
	}
	// The claim saves [user], the turn [user, assistant]; the result's
	// save follows the rewrite of message 1, so it keeps 1.
	var rewrites int
	prev := 0
	for _, s := range store.saves {
		if s[0] < prev {
			rewrites++
			if s[0] != 1 {
				t.Errorf("save after the rewrite: kept %d, want 1", s[0])
			}
		}
		prev = s[1]
	}
	if rewrites != 1 {
		t.Fatalf("%d saves kept less than the transcript before, want 1: %v", rewrites, store.saves)
	}
	cp, _, _ := store.Load(t.Context(), "r")
	if am := cp.Messages[1].(*agui.AssistantMessage); am.ToolCalls[0].Function.Arguments != `{"id":"edited"}` {
		t.Fatalf("stored arguments %s", am.ToolCalls[0].Function.Arguments)
	}
}
