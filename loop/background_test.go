package loop

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/agui-go/agui"
)

// lastUserText is the text of req's last user message.
func lastUserText(req ModelRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if u, ok := req.Messages[i].(*agui.UserMessage); ok {
			return u.Content.String()
		}
	}
	return ""
}

// One task over the bound: its call gets an error result the model
// reads, and the run goes on.
func TestBackgroundBounded(t *testing.T) {
	bg, err := NewBackground(WithMaxTasks(1))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	tool, err := NewBackgroundTool(bg, "work", "", func(ctx context.Context, in workArgs) (string, error) {
		<-release
		return in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2")}, Turn{Text: "ok"}), WithTools(tool), WithToolConcurrency(1))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	got := results(res.Messages)
	if !strings.Contains(got["c1"], `"status":"running"`) || !strings.Contains(got["c2"], "TOOL_FAILED") || bg.Len() != 1 {
		t.Fatalf("results %v, %d tasks", got, bg.Len())
	}
	close(release)
	if err := bg.Shutdown(t.Context()); err != nil || bg.Len() != 0 {
		t.Fatalf("shutdown: %v, %d tasks", err, bg.Len())
	}
	if _, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Messages: []agui.Message{UserText("again")}}); err != nil {
		t.Fatal(err)
	}
	// After Shutdown no task starts.
	if err := dispatchOutsideRun(t, bg); err == nil {
		t.Fatal("a task started after Shutdown")
	}
}

// dispatchOutsideRun dispatches a task of bg outside a run's call and
// returns dispatch's error.
func dispatchOutsideRun(t *testing.T, bg *Background) error {
	t.Helper()
	ctx := withScope(t.Context(), scope{toolCallID: "c", thread: "none"})
	_, err := bg.dispatch(ctx, workArgs{}, func(context.Context) (any, error) { return nil, nil })
	return err
}

// Shutdown with a done context cancels the running tasks, whose context
// says why, and leaves no goroutine behind (goleak checks TestMain).
func TestBackgroundShutdownCancels(t *testing.T) {
	bg, err := NewBackground()
	if err != nil {
		t.Fatal(err)
	}
	cause := make(chan error, 1)
	tool, err := NewBackgroundTool(bg, "work", "", func(ctx context.Context, in workArgs) (string, error) {
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return "", ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1")}, Turn{Text: "ok"}), WithTools(tool))
	if _, err := a.Execute(t.Context(), user("go")); err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(t.Context())
	cancel()
	if err := bg.Shutdown(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("shutdown: %v", err)
	}
	if err := <-cause; !errors.Is(err, ErrBackgroundClosed) {
		t.Fatalf("the task's cause: %v", err)
	}
	if bg.Len() != 0 {
		t.Fatalf("%d tasks after shutdown", bg.Len())
	}
}

// A task that finishes while a run holds its thread waits for that run to
// end before it writes: the holder's checkpoint writes never conflict,
// and the next run delivers the result to the client and the model.
func TestBackgroundDeliveryWaitsForTheHolder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bg, err := NewBackground(WithTaskActivityType("research"))
		if err != nil {
			t.Fatal(err)
		}
		finish, hold := make(chan struct{}), make(chan struct{})
		tool, err := NewBackgroundTool(bg, "work", "", func(ctx context.Context, in workArgs) (map[string]int, error) {
			if err := TaskOutput(ctx, "step 1"); err != nil {
				return nil, err
			}
			<-finish
			return map[string]int{"sources": 7}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var seen []agui.Message
		model := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
			turn := Turn{Text: "ok"}
			switch lastUserText(req) {
			case "go":
				if _, ok := req.Messages[len(req.Messages)-1].(*agui.ToolMessage); !ok {
					turn = Turn{Calls: workCalls("c1")}
				}
			case "wait":
				<-hold
			case "next":
				mu.Lock()
				seen = req.Messages
				mu.Unlock()
			}
			return Script(turn).Stream(ctx, ModelRequest{})
		})
		a := mustNew(t, model, WithTools(tool))
		var first recorder
		res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("go")}, OnEvent: first.on})
		if err != nil {
			t.Fatal(err)
		}
		var snap *agui.ActivitySnapshot
		for _, ev := range first.events() {
			if s, ok := ev.(*agui.ActivitySnapshot); ok {
				snap = s
			}
		}
		if snap == nil || snap.ActivityType != "research" || snap.Content["status"] != "running" || snap.Content["toolName"] != "work" {
			t.Fatalf("dispatch events %v", first.trace())
		}
		thread := res.ThreadID
		held := goExecute(t.Context(), a, Input{ThreadID: thread, Messages: []agui.Message{UserText("wait")}})
		synctest.Wait()
		close(finish)
		synctest.Wait() // the task is done and its delivery waits for the holder
		if bg.Len() != 1 {
			t.Fatalf("%d tasks while the thread is held", bg.Len())
		}
		close(hold)
		if res, err := held.wait(); err != nil || res.FinishReason != FinishStop {
			t.Fatalf("the holder: %v %v", res.FinishReason, err)
		}
		if err := bg.Shutdown(t.Context()); err != nil {
			t.Fatal(err)
		}
		var next recorder
		if _, err := a.Execute(t.Context(), Input{ThreadID: thread, Messages: []agui.Message{UserText("next")}, OnEvent: next.on}); err != nil {
			t.Fatal(err)
		}
		var delivered *agui.ActivityMessage
		for _, ev := range next.events() {
			if s, ok := ev.(*agui.MessagesSnapshot); ok {
				for _, m := range s.Messages {
					if am, ok := m.(*agui.ActivityMessage); ok {
						delivered = am
					}
				}
			}
		}
		if delivered == nil || delivered.ID != snap.MessageID || delivered.Content["status"] != "completed" {
			t.Fatalf("next run's events %v", next.trace())
		}
		if outs, _ := delivered.Content["outputs"].([]any); len(outs) != 1 || outs[0] != "step 1" {
			t.Fatalf("outputs %v", delivered.Content["outputs"])
		}
		mu.Lock()
		defer mu.Unlock()
		var told bool
		for _, m := range seen {
			if _, ok := m.(*agui.ActivityMessage); ok {
				t.Fatal("the model was sent an activity message")
			}
			if s, ok := m.(*agui.SystemMessage); ok && strings.Contains(s.Content, `{"sources":7}`) && strings.Contains(s.Content, "completed") {
				told = true
			}
		}
		if !told {
			t.Fatalf("the model was not told the result: %s", dump(seen))
		}
	})
}

func TestTaskOutputOutsideATask(t *testing.T) {
	if err := TaskOutput(t.Context(), 1); !errors.Is(err, ErrNotInTool) {
		t.Fatalf("got %v", err)
	}
}
