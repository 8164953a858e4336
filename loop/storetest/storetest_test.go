package storetest_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) loop.Store { return loop.NewMemoryStore() })
}

// countingStore counts the saves of the long thread's checkpoints.
type countingStore struct {
	*loop.MemoryStore
	long *atomic.Int64
}

func (s countingStore) Save(ctx context.Context, cp *loop.Checkpoint, expect int64, kept int) (int64, error) {
	if cp.ThreadID == "long" {
		s.long.Add(1)
	}
	return s.MemoryStore.Save(ctx, cp, expect, kept)
}

// WithLongThreadTurns sets the long thread's turns: its first save, one a
// turn, and the other store's append and rewrite.
func TestWithLongThreadTurns(t *testing.T) {
	var long atomic.Int64
	storetest.Run(t, func(t *testing.T) loop.Store {
		return countingStore{loop.NewMemoryStore(), &long}
	}, storetest.WithLongThreadTurns(5))
	if n := long.Load(); n != 1+5+2 {
		t.Errorf("%d saves of the long thread, want %d", n, 1+5+2)
	}
}

func BenchmarkThreadsMemory(b *testing.B) {
	storetest.BenchThreads(b, loop.NewMemoryStore(loop.WithMemoryMaxThreads(0), loop.WithMemoryMaxBytes(0)))
}

func BenchmarkTurnsMemory(b *testing.B) {
	storetest.BenchTurns(b, loop.NewMemoryStore(), nil)
}
