package load

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// tickerPath is where the in-process server mounts its agent.
const tickerPath = "/agents/ticker"

// server is Run's in-process AG-UI server: the ticker agent behind
// ginagui on a loopback listener. It is used by Run's goroutine only.
type server struct {
	srv     *http.Server
	addr    string
	release chan struct{}
	served  chan error
}

// startServer serves the ticker agent on 127.0.0.1 with a free port.
func startServer(interval time.Duration, extra int) (*server, error) {
	gin.SetMode(gin.ReleaseMode)
	s := &server{release: make(chan struct{}), served: make(chan error, 1)}
	r := gin.New()
	quiet := slog.New(slog.DiscardHandler)
	if err := ginagui.Register(r, tickerPath, tickerAgent(interval, extra, s.release),
		core.WithHandlerLogger(quiet)); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.addr = ln.Addr().String()
	s.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// stop shuts the server down, waiting (within ctx) for the handlers still
// running, and then for Serve to return.
func (s *server) stop(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = errors.Join(err, s.srv.Close())
	}
	if serveErr := <-s.served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// tickerAgent streams a delta at once and then one every interval, and
// holds its stream open until release is closed; then it sends extra more
// deltas at the same pace and finishes. A client that goes away cancels it.
func tickerAgent(interval time.Duration, extra int, release <-chan struct{}) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := m.Delta("tick "); err != nil {
			return agui.Outcome{}, err
		}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		held, left := release, extra
		for {
			select {
			case <-ctx.Done():
				return agui.Outcome{}, ctx.Err()
			case <-held:
				held = nil
			case <-tick.C:
				if held == nil {
					if left == 0 {
						if err := m.End(); err != nil {
							return agui.Outcome{}, err
						}
						return agui.Success(), nil
					}
					left--
				}
				if err := m.Delta("tick "); err != nil {
					return agui.Outcome{}, err
				}
			}
		}
	})
}
