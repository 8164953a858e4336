package ginagui_test

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// The documented 408 reaches a client whose body stalls, over a real
// connection, on a Gin route with and without ginagui.Input ahead of it,
// whether the body is framed by Content-Length or chunked.
func TestStalledBodyGets408(t *testing.T) {
	t.Parallel()
	a := core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		t.Error("the agent ran for a stalled request")
		return agui.Success(), nil
	})
	opt := core.WithReadTimeout(50 * time.Millisecond)
	r := gin.New()
	if err := ginagui.Register(r, "/plain", a, opt); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r.Group("", ginagui.Input(opt)), "/input", a, opt); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)
	for _, route := range []string{"/plain", "/input"} {
		for _, framing := range []string{"Content-Length: 1000\r\n\r\n{\"threadId\":", "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"thr\r\n"} {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Write([]byte("POST " + route + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing)); err != nil {
				t.Fatal(err)
			}
			// Only bounds a broken server; the 408 comes after 50 ms.
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			status, err := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if err != nil || !strings.HasPrefix(status, "HTTP/1.1 408") {
				t.Errorf("%s, %.20q: got %q, %v; want 408", route, framing, status, err)
			}
		}
	}
}
