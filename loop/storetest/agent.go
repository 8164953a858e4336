package storetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// bookingAgents returns two agents on one store (two replicas of one
// app) whose "book" tool needs approval, and the count of its runs.
func bookingAgents(t *testing.T, s loop.Store) (a, b *loop.Agent, runs *atomic.Int64) {
	t.Helper()
	return bookingAgentsOn(t, s, s)
}

// bookingAgentsOn is bookingAgents with an agent on each store.
func bookingAgentsOn(t *testing.T, stores ...loop.Store) (a, b *loop.Agent, runs *atomic.Int64) {
	t.Helper()
	runs = &atomic.Int64{}
	type args struct {
		City string `json:"city"`
	}
	book, err := loop.NewTool("book", "books a flight", func(ctx context.Context, in args) (string, error) {
		runs.Add(1)
		return "booked " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "book", Args: `{"city":"Oslo"}`}}},
		loop.Turn{Text: "Booked."},
	)
	agents := make([]*loop.Agent, 2)
	for i := range agents {
		agents[i], err = loop.New(model, loop.WithTools(book), loop.WithCheckpoints(stores[i]),
			loop.WithNeedsApproval(func(c loop.Call) bool { return c.Name == "book" }))
		if err != nil {
			t.Fatal(err)
		}
	}
	return agents[0], agents[1], runs
}

// pause runs the first turn on a: it stops awaiting approval.
func pause(t *testing.T, a *loop.Agent, thread string) agui.ResumeEntry {
	t.Helper()
	res, err := a.Execute(t.Context(), loop.Input{ThreadID: thread, Messages: []agui.Message{userText("u1", "Book Oslo")}})
	if err != nil || res.FinishReason != loop.FinishAwaitingApproval || res.Interrupt == nil {
		t.Fatalf("first run: %v %v", res.FinishReason, err)
	}
	return agui.ResumeEntry{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}
}

func agentApprovalAcrossAgents(t *testing.T, s loop.Store) {
	a, b, runs := bookingAgents(t, s)
	answer := pause(t, a, "trip")
	if cp, _ := mustLoad(t, s, "trip"); cp.Status != loop.StatusAwaitingApproval || cp.Pending == nil {
		t.Fatalf("stored after the pause: %s %+v", cp.Status, cp.Pending)
	}
	res, err := b.Execute(t.Context(), loop.Input{ThreadID: "trip", Resume: []agui.ResumeEntry{answer}})
	if err != nil || res.FinishReason != loop.FinishStop {
		t.Fatalf("resume on the other agent: %v %v", res.FinishReason, err)
	}
	if runs.Load() != 1 {
		t.Fatalf("tool ran %d times, want 1", runs.Load())
	}
	cp, _ := mustLoad(t, s, "trip")
	var results int
	for _, m := range cp.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "call-1" {
			results++
		}
	}
	if cp.Status != loop.StatusIdle || results != 1 {
		t.Fatalf("stored after the resume: %s, %d results of call-1", cp.Status, results)
	}
	// The same answer again is refused: the approval was acted on.
	_, err = a.Execute(t.Context(), loop.Input{ThreadID: "trip", Resume: []agui.ResumeEntry{answer}})
	if ce := (*agui.Error)(nil); !errors.As(err, &ce) || ce.Code != loop.CodeBadResume {
		t.Fatalf("second resume: %v, want BAD_RESUME", err)
	}
}

func agentConcurrentResumes(t *testing.T, s loop.Store) {
	a, b, runs := bookingAgents(t, s)
	answer := pause(t, a, "race")
	const n = 20
	var (
		wg       sync.WaitGroup
		start    = make(chan struct{})
		finished atomic.Int64
	)
	for i := range n {
		agent := []*loop.Agent{a, b}[i%2]
		wg.Go(func() {
			<-start
			res, err := agent.Execute(t.Context(), loop.Input{ThreadID: "race", Resume: []agui.ResumeEntry{answer}})
			if err == nil && res.FinishReason == loop.FinishStop {
				finished.Add(1)
				return
			}
			var ce *agui.Error
			if !errors.As(err, &ce) || (ce.Code != loop.CodeBusy && ce.Code != loop.CodeBadResume) {
				t.Errorf("a losing resume: %v %v, want THREAD_BUSY or BAD_RESUME", res.FinishReason, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if runs.Load() != 1 || finished.Load() != 1 {
		t.Fatalf("%d concurrent resumes: tool ran %d times, %d finished; want 1 and 1", n, runs.Load(), finished.Load())
	}
}
