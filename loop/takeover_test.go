package loop

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// crashedResume leaves thread as a run that died right after its claim
// recorded an approval: running, its lease ending at leaseUntil, the
// decision recorded. It returns the interrupt's id.
func crashedResume(t *testing.T, a *Agent, store Store, thread string, leaseUntil time.Time) string {
	t.Helper()
	res, err := a.Execute(t.Context(), Input{ThreadID: thread, Messages: []agui.Message{UserText("book")}})
	if err != nil || res.FinishReason != FinishAwaitingApproval {
		t.Fatalf("first run: %v %v", res.FinishReason, err)
	}
	cp, v, err := store.Load(t.Context(), thread)
	if err != nil {
		t.Fatal(err)
	}
	cp.Status, cp.LeaseUntil = StatusRunning, leaseUntil
	cp.Pending.Decision = &Decision{Approved: true}
	if _, err := store.Save(t.Context(), cp, v, 0); err != nil {
		t.Fatal(err)
	}
	return res.Interrupt.ID
}

func takeoverAgent(t *testing.T, store Store) (*Agent, *atomic.Int64) {
	t.Helper()
	var runs atomic.Int64
	tool, err := NewTool("book", "", func(ctx context.Context, in workArgs) (string, error) { runs.Add(1); return "booked", nil })
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "book", Args: `{"id":"x"}`}}}, Turn{Text: "ok"}),
		WithTools(tool), WithCheckpoints(store), WithNeedsApproval(func(Call) bool { return true }))
	return a, &runs
}

func takeoverResume(id string) []agui.ResumeEntry {
	return []agui.ResumeEntry{{InterruptID: id, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}}
}

func wantTakeoverCode(t *testing.T, err error, code agui.Code) {
	t.Helper()
	var ce *agui.Error
	if !errors.As(err, &ce) || ce.Code != code {
		t.Fatalf("%v, want %s", err, code)
	}
}

// A client whose resume was cut off by its server's death sends the same
// resume again; once the lease ran out, the run that takes the thread over
// acts on the recorded decision, once.
func TestTakeoverAcceptsTheRetriedResume(t *testing.T) {
	store := NewMemoryStore()
	a, runs := takeoverAgent(t, store)
	id := crashedResume(t, a, store, "t", time.Now().Add(-time.Second))

	_, err := a.Execute(t.Context(), Input{ThreadID: "t", Resume: takeoverResume("someone-else")})
	wantTakeoverCode(t, err, CodeBadResume)
	res, err := a.Execute(t.Context(), Input{ThreadID: "t", Resume: takeoverResume(id)})
	if err != nil || res.FinishReason != FinishStop || runs.Load() != 1 {
		t.Fatalf("retried resume: %v %v, tool ran %d times", res.FinishReason, err, runs.Load())
	}
	_, err = a.Execute(t.Context(), Input{ThreadID: "t", Resume: takeoverResume(id)})
	wantTakeoverCode(t, err, CodeBadResume)
	if runs.Load() != 1 {
		t.Fatalf("tool ran %d times", runs.Load())
	}
}

func TestTakeoverWaitsForTheLease(t *testing.T) {
	store := NewMemoryStore()
	a, runs := takeoverAgent(t, store)
	id := crashedResume(t, a, store, "t", time.Now().Add(time.Hour))
	_, err := a.Execute(t.Context(), Input{ThreadID: "t", Resume: takeoverResume(id)})
	wantTakeoverCode(t, err, CodeBusy)
	if runs.Load() != 0 {
		t.Fatalf("tool ran %d times within the lease", runs.Load())
	}
}
