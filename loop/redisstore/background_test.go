package redisstore_test

import (
	"context"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
)

// A background task dispatched on one replica delivers its result
// through Redis, and another replica, with its own client, runs the
// thread's next turn with it: the client gets the task completed, the
// model reads its result.
func TestBackgroundResultAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	bg, err := loop.NewBackground()
	if err != nil {
		t.Fatal(err)
	}
	research, err := loop.NewBackgroundTool(bg, "research", "", func(ctx context.Context, in struct {
		Topic string `json:"topic"`
	}) (map[string]any, error) {
		return map[string]any{"topic": in.Topic, "sources": 7}, loop.TaskOutput(ctx, "step 1")
	})
	if err != nil {
		t.Fatal(err)
	}
	replicaA, err := loop.New(loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "research", Args: `{"topic":"Go"}`}}},
		loop.Turn{Text: "Started."},
	), loop.WithTools(research), loop.WithCheckpoints(newStore(t, client(t, srv))))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []agui.Message
	model := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		mu.Lock()
		seen = req.Messages
		mu.Unlock()
		return loop.Script(loop.Turn{Text: "Found it."}).Stream(ctx, req)
	})
	replicaB, err := loop.New(model, loop.WithTools(research), loop.WithCheckpoints(newStore(t, client(t, srv))))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := replicaA.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Research Go")}}); err != nil {
		t.Fatal(err)
	}
	if err := bg.Shutdown(ctx); err != nil { // the task delivered
		t.Fatal(err)
	}
	var snap *agui.MessagesSnapshot
	_, err = replicaB.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("And?")}, OnEvent: func(ev agui.Event) error {
		if s, ok := ev.(*agui.MessagesSnapshot); ok {
			snap = s
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if snap == nil {
		t.Fatal("no MESSAGES_SNAPSHOT on the next turn")
	}
	var task *agui.ActivityMessage
	for _, m := range snap.Messages {
		if a, ok := m.(*agui.ActivityMessage); ok {
			task = a
		}
	}
	if task == nil || task.ActivityType != "background-task" || task.Content["status"] != "completed" || task.Content["toolName"] != "research" {
		t.Fatalf("snapshot %+v", snap)
	}
	mu.Lock()
	defer mu.Unlock()
	var told bool
	for _, m := range seen {
		if s, ok := m.(*agui.SystemMessage); ok && strings.Contains(s.Content, `"sources":7`) {
			told = true
		}
	}
	if !told {
		t.Fatalf("the model was not told the result: %+v", seen)
	}
}
