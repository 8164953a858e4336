package ginagui_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TestIdleStreamStacksStaySmall holds idle Gin streams open over raw
// connections (so the client side has no goroutines) and measures the
// goroutine stacks the process gained per stream. Each stream has three
// goroutines: net/http's connection goroutine, which runs the handler and
// writes the headers at 8 KiB, its background reader and the agent's. When
// the frames under the writer's wait were larger, net/http's header write
// grew the connection goroutine to 16 KiB behind Gin: 20 KiB per stream
// (24 KiB when the runtime starts goroutines at 4 KiB) against 12 (16).
func TestIdleStreamStacksStaySmall(t *testing.T) {
	const n = 100
	idle := core.AgentFunc[core.NoState](func(ctx context.Context, _ *core.RunContext[core.NoState]) (agui.Outcome, error) {
		<-ctx.Done()
		return agui.Outcome{}, ctx.Err()
	})
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := ginagui.Register(r, "/idle", idle, core.WithHandlerLogger(discardLogger())); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	// Stacks freed by earlier tests stay reserved until a GC returns
	// their spans.
	runtime.GC()
	runtime.GC()
	before, start := stackBytes(), startingStack()
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := fmt.Fprintf(c, "POST /idle HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			addr, len(runBody), runBody); err != nil {
			t.Fatal(err)
		}
		var got []byte
		buf := make([]byte, 512)
		for !bytes.Contains(got, []byte("data: ")) {
			k, err := c.Read(buf)
			if err != nil {
				t.Fatalf("before the first event: %v (read %q)", err, got)
			}
			got = append(got, buf[:k]...)
		}
	}
	per := (stackBytes() - before) / n
	// The connection goroutine at 8 KiB, the other two at the size the
	// runtime starts goroutines with, and 2 KiB to spare.
	limit := 8<<10 + 2*start + 2<<10
	t.Logf("goroutine stacks per idle stream: %.1f KiB (limit %.1f KiB)", float64(per)/1024, float64(limit)/1024)
	if raceEnabled {
		return // the race detector's instrumentation makes every frame larger
	}
	if per >= limit {
		t.Errorf("goroutine stacks per idle stream: %.1f KiB, want under %.1f KiB", float64(per)/1024, float64(limit)/1024)
	}
}

// startingStack is the stack size the runtime starts goroutines with.
func startingStack() int64 {
	s := []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// stackBytes is the memory the runtime holds as goroutine stacks.
func stackBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}
