package storetest_test

import (
	"testing"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) loop.Store { return loop.NewMemoryStore() })
}

func BenchmarkThreadsMemory(b *testing.B) {
	storetest.BenchThreads(b, loop.NewMemoryStore(loop.WithMemoryMaxThreads(0), loop.WithMemoryMaxBytes(0)))
}

func BenchmarkTurnsMemory(b *testing.B) {
	storetest.BenchTurns(b, loop.NewMemoryStore(), nil)
}
