package core

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

func TestGateShutdownCancelsAndWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Gate
		var mu sync.Mutex
		var causes []error
		cancel := func(err error) {
			mu.Lock()
			defer mu.Unlock()
			causes = append(causes, err)
		}
		rel1, _, ok1 := g.Admit(cancel)
		rel2, _, ok2 := g.Admit(cancel)
		if !ok1 || !ok2 || g.Active() != 2 {
			t.Fatal("an open gate refused a run")
		}
		done := make(chan error, 1)
		go func() { done <- g.Shutdown(context.Background()) }()
		synctest.Wait()
		mu.Lock()
		if len(causes) != 2 || !agui.IsCancelled(causes[0]) || !agui.IsCancelled(causes[1]) {
			t.Errorf("cancel causes = %v, want two CANCELLED", causes)
		}
		mu.Unlock()
		if _, _, ok := g.Admit(cancel); ok {
			t.Error("a shut gate admitted a run")
		}
		select {
		case <-done:
			t.Fatal("Shutdown returned with runs in flight")
		default:
		}
		rel1()
		rel2()
		if err := <-done; err != nil {
			t.Errorf("Shutdown = %v", err)
		}
	})
}

func TestGateShutdownDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Gate
		release, _, _ := g.Admit(func(error) {}) // a run that ignores cancellation
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := g.Shutdown(ctx); err != context.DeadlineExceeded {
			t.Errorf("Shutdown = %v, want DeadlineExceeded", err)
		}
		release()
		if err := g.Shutdown(context.Background()); err != nil {
			t.Errorf("second Shutdown = %v, want nil once idle", err)
		}
	})
}

func TestGateShutdownIdle(t *testing.T) {
	var g Gate
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := g.Admit(func(error) {}); ok {
		t.Error("a shut gate admitted a run")
	}
}
