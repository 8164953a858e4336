package storetest_test

import (
	"testing"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) loop.Store { return loop.NewMemoryStore() })
}
