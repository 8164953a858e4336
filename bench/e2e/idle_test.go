package e2e_test

import (
	"testing"

	"github.com/agui-go/agui/bench/e2e"
)

func TestIdleHoldsStreamsOpen(t *testing.T) {
	for _, name := range []string{e2e.ServerGin, e2e.ServerNetHTTP, e2e.ServerCommunity, e2e.ServerNode} {
		t.Run(name, func(t *testing.T) {
			if name == e2e.ServerNode {
				needNode(t)
			}
			p := start(t, name, 1)
			res, err := e2e.Idle(t.Context(), p, 20)
			if err != nil {
				t.Fatal(err)
			}
			if res.Streams != 20 || res.Failures != 0 || res.Before <= 0 || res.Open <= 0 {
				t.Fatalf("%+v", res)
			}
			// The server is still serving once the streams are gone.
			if res, err := e2e.Idle(t.Context(), p, 1); err != nil || res.Failures != 0 {
				t.Fatalf("after: %+v, %v", res, err)
			}
		})
	}
}

func TestIdleResultPerStream(t *testing.T) {
	r := e2e.IdleResult{Streams: 4, Before: 1000, Open: 5096}
	if got := r.PerStream(); got != 1024 {
		t.Errorf("%d", got)
	}
	if got := (e2e.IdleResult{}).PerStream(); got != 0 {
		t.Errorf("no streams: %d", got)
	}
}
