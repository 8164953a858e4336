package loop

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// observerStatuses are the statuses an observer's activity events went
// through, in order.
func observerStatuses(evs []agui.Event) []string {
	var out []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.ActivitySnapshot:
			out = append(out, e.Content["status"].(string))
		case *agui.ActivityDelta:
			for _, op := range e.Patch {
				if op.Path == "/status" {
					out = append(out, op.Value.(string))
				}
			}
		}
	}
	return out
}

// A failing observer model shows as a failed cycle; the run goes on and
// the model reads the whole conversation.
func TestObserverFailure(t *testing.T) {
	o, err := NewObserver(Script(Turn{Err: errors.New("down")}), WithObserveTokens(1))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen int
	model := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		mu.Lock()
		seen = len(req.Messages)
		mu.Unlock()
		return Script(Turn{Text: "ok"}).Stream(ctx, req)
	})
	a := mustNew(t, model, WithObserver(o))
	res, err := a.Execute(t.Context(), user("one"))
	if err != nil {
		t.Fatal(err)
	}
	var rec recorder
	res, err = a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Messages: []agui.Message{UserText("two")}, OnEvent: rec.on})
	if err != nil || res.FinishReason != FinishStop {
		t.Fatalf("%v %v", res.FinishReason, err)
	}
	if got := strings.Join(observerStatuses(rec.events()), " "); got != "running failed" {
		t.Fatalf("statuses %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen != 3 || len(res.Messages) != 4 {
		t.Fatalf("the model read %d messages; transcript %s", seen, dump(res.Messages))
	}
}

// A second cycle rewrites the earlier observations with the new
// messages, and the model reads the newest only, never an earlier user
// message again.
func TestObserverCyclesAccumulate(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	observer := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		mu.Lock()
		asked = append(asked, lastUserText(req))
		n := len(asked)
		mu.Unlock()
		return Script(Turn{Text: strings.Repeat("obs ", n)}).Stream(ctx, req)
	})
	o, err := NewObserver(observer, WithObserveTokens(1), WithObservationActivityType("om"))
	if err != nil {
		t.Fatal(err)
	}
	var last []agui.Message
	model := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		mu.Lock()
		last = req.Messages
		mu.Unlock()
		return Script(Turn{Text: "ok"}).Stream(ctx, req)
	})
	a := mustNew(t, model, WithObserver(o))
	thread := ""
	for _, text := range []string{"one", "two", "three"} {
		res, err := a.Execute(t.Context(), Input{ThreadID: thread, Messages: []agui.Message{UserText(text)}})
		if err != nil {
			t.Fatal(err)
		}
		thread = res.ThreadID
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || !strings.Contains(asked[1], "Earlier observations:\nobs") || strings.Contains(asked[1], "user: one") || !strings.Contains(asked[1], "user: two") {
		t.Fatalf("observer asked %q", asked)
	}
	if len(last) != 2 || !strings.Contains(last[0].(*agui.SystemMessage).Content, "obs obs") || last[1].(*agui.UserMessage).Content.String() != "three" {
		t.Fatalf("the model read %s", dump(last))
	}
}
