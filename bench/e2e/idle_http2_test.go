package e2e_test

import (
	"testing"

	"github.com/agui-go/agui/bench/e2e"
)

func TestIdleHTTP2HoldsStreamsOpen(t *testing.T) {
	for _, name := range []string{e2e.ServerNetHTTP, e2e.ServerGin, e2e.ServerCommunity, e2e.ServerNode} {
		t.Run(name, func(t *testing.T) {
			if name == e2e.ServerNode {
				needNode(t)
			}
			res, err := e2e.IdleServerHTTP2(t.Context(), launcher(1), name, 20, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Streams != 20 || res.Failures != 0 || res.Before <= 0 || res.Open <= 0 {
				t.Fatalf("%+v", res)
			}
		})
	}
}
