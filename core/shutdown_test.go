package core_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// Shutdown ends in-flight runs with RUN_ERROR (CANCELLED): a run whose
// agent returns on cancellation, and, at the shutdown deadline, one whose
// agent ignores its context, which gets its terminal from the writer
// before its connection closes. Shutdown reports success either way,
// because every stream got its terminal.
func TestShutdownEndsInFlightRuns(t *testing.T) {
	for _, c := range []struct {
		name     string
		deadline time.Duration
		ignores  bool
	}{
		{"returns on cancellation", 10 * time.Second, false},
		// The deadline is what is under test: it must pass with the
		// agent still running.
		{"ignores its context", 100 * time.Millisecond, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			gate := new(core.Gate)
			running := make(chan struct{})
			release := make(chan struct{})
			defer close(release) // an abandoned agent returns when the test ends
			agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
				if err := rc.Say("working"); err != nil {
					return agui.Outcome{}, err
				}
				close(running)
				if c.ignores {
					<-release
					return agui.Success(), nil
				}
				<-ctx.Done() // runs until the server shuts down
				return agui.Outcome{}, context.Cause(ctx)
			})
			mux := http.NewServeMux()
			mux.Handle("POST /agent", mustHandler(t, agent, core.WithGate(gate)))
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: mux}
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ln) }()

			resp := post(context.Background(), t, "http://"+ln.Addr().String()+"/agent", runBody(""))
			defer resp.Body.Close()
			events := make(chan []agui.Event, 1)
			go func() { events <- aguitest.ReadSSE(t, resp.Body) }()
			<-running

			ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
			defer cancel()
			if err := core.Shutdown(ctx, srv, gate); err != nil {
				t.Errorf("Shutdown = %v, want nil: every stream got its terminal", err)
				_ = srv.Close() // so the reader below ends
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("Serve = %v", err)
			}
			evs := <-events
			last, ok := evs[len(evs)-1].(*agui.RunError)
			if !ok || last.Code != string(agui.CodeCancelled) {
				t.Errorf("the in-flight client's last event = %v, want RUN_ERROR CANCELLED", evs[len(evs)-1])
			}
			http.DefaultClient.CloseIdleConnections()
		})
	}
}

// Without a gate Shutdown is srv.Shutdown, not a crash.
func TestShutdownNilGate(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NewServeMux()}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if err := core.Shutdown(context.Background(), srv, nil); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve = %v", err)
	}
}
