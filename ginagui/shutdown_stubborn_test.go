package ginagui_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/resume"
)

// At the shutdown deadline a run whose agent ignores its context still
// gets RUN_ERROR (CANCELLED) from the writer before its connection closes,
// and Shutdown reports success because every stream got its terminal.
func TestShutdownEndsRunsThatIgnoreTheirContext(t *testing.T) {
	t.Parallel()
	gate := new(core.Gate)
	running := make(chan struct{})
	release := make(chan struct{})
	stubborn := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(running)
		<-release // ignores ctx
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/agent", stubborn, core.WithGate(gate)); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: r}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer close(release) // the abandoned agent returns when the test ends

	resp := postRun(t, "http://"+ln.Addr().String()+"/agent")
	defer resp.Body.Close()
	events := make(chan []agui.Event, 1)
	go func() { events <- aguitest.ReadSSE(t, resp.Body) }()
	<-running

	// The deadline is what is under test: it must pass with the agent
	// still running.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
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
		t.Errorf("the client's last event = %v, want RUN_ERROR CANCELLED", evs[len(evs)-1])
	}
	http.DefaultClient.CloseIdleConnections()
}

// The same on a resumable route: at the deadline the run's log gets its
// RUN_ERROR (CANCELLED), its stream ends with it, Shutdown and Close
// report success with the agent still running.
func TestShutdownEndsResumableRunsThatIgnoreTheirContext(t *testing.T) {
	t.Parallel()
	gate := new(core.Gate)
	running := make(chan struct{})
	release := make(chan struct{})
	stubborn := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(running)
		<-release // ignores ctx
		return agui.Success(), nil
	})
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	r := gin.New()
	rh := newResumableWith(t, stubborn, lg, []core.HandlerOption{core.WithGate(gate)}, resume.WithDetach(time.Minute))
	if err := ginagui.RegisterResumable(r, "/agent", rh); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: r}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		close(release) // the abandoned agent returns when the test ends
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	}()

	resp := postRun(t, "http://"+ln.Addr().String()+"/agent")
	defer resp.Body.Close()
	events := make(chan []agui.Event, 1)
	go func() { events <- aguitest.ReadSSE(t, resp.Body) }()
	<-running

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := core.Shutdown(ctx, srv, gate); err != nil {
		t.Errorf("Shutdown = %v, want nil: every stream got its terminal", err)
		_ = srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve = %v", err)
	}
	var evs []agui.Event
	select {
	case evs = <-events:
	case <-time.After(10 * time.Second): // a bound on the failure, not a synchronisation
		t.Fatal("the stream never ended")
	}
	last, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || last.Code != string(agui.CodeCancelled) {
		t.Errorf("the client's last event = %v, want RUN_ERROR CANCELLED", evs[len(evs)-1])
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelClose()
	if err := rh.Close(closeCtx); err != nil {
		t.Errorf("Close = %v, want nil: the run's log got its terminal", err)
	}
	http.DefaultClient.CloseIdleConnections()
}
