package core

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
	"go.uber.org/goleak"
)

func TestRunShape(t *testing.T) {
	in := agui.NewInput("thread-1", "run-1")
	in.ParentRunID = "run-0"
	evs := collect(t, Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}), in))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunFinished)
	rs := evs[0].(*agui.RunStarted)
	if rs.ThreadID != "thread-1" || rs.RunID != "run-1" || rs.ParentRunID != "run-0" || rs.ProtocolVersion != "1.0" {
		t.Errorf("RUN_STARTED = %+v", rs)
	}
	fin := last[*agui.RunFinished](t, evs)
	if fin.ThreadID != "thread-1" || fin.RunID != "run-1" || fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Errorf("RUN_FINISHED = %+v", fin)
	}
}

func TestRunOutcomes(t *testing.T) {
	cases := []struct {
		name    string
		outcome agui.Outcome
		check   func(t *testing.T, evs []agui.Event)
	}{
		{"pending tool calls", agui.Success("call-1"), func(t *testing.T, evs []agui.Event) {
			o := last[*agui.RunFinished](t, evs).Outcome
			if o.Type != agui.OutcomeSuccess || len(o.PendingToolCallIDs) != 1 || o.PendingToolCallIDs[0] != "call-1" {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"cancelled", agui.Cancelled(), func(t *testing.T, evs []agui.Event) {
			if o := last[*agui.RunFinished](t, evs).Outcome; o.Type != agui.OutcomeCancelled {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"interrupt", agui.Interrupted(agui.NewInterrupt("i1", "approval")), func(t *testing.T, evs []agui.Event) {
			o := last[*agui.RunFinished](t, evs).Outcome
			if o.Type != agui.OutcomeInterrupt || len(o.Interrupts) != 1 || o.Interrupts[0].ID != "i1" {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"interrupt without interrupts", agui.Interrupted(), func(t *testing.T, evs []agui.Event) {
			if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeProtocol) {
				t.Errorf("RUN_ERROR = %+v", e)
			}
		}},
		{"zero outcome", agui.Outcome{}, func(t *testing.T, evs []agui.Event) {
			if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeProtocol) {
				t.Errorf("RUN_ERROR = %+v", e)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return c.outcome, nil })
			equalTypes(t, evs, agui.TypeRunStarted, evs[len(evs)-1].Type())
			c.check(t, evs)
		})
	}
}

func TestRunAgentErrors(t *testing.T) {
	cases := []struct {
		err     error
		code    agui.Code
		message string
	}{
		{errors.New("boom"), agui.CodeAgent, "agent error: boom"},
		{agui.AgentError(errors.New("boom")), agui.CodeAgent, "agent error: boom"},
		{agui.NewError(agui.CodeSerialization, "bad json"), agui.CodeSerialization, "bad json"},
		{context.Canceled, agui.CodeCancelled, "run cancelled: context canceled"},
	}
	for _, c := range cases {
		evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), c.err })
		e := last[*agui.RunError](t, evs)
		if e.Code != string(c.code) || e.Message != c.message {
			t.Errorf("%v: RUN_ERROR = %+v, want code %s message %q", c.err, e, c.code, c.message)
		}
	}
}

func TestRunInvalidInput(t *testing.T) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), nil })
	for name, in := range map[string]*agui.RunAgentInput{
		"nil":       nil,
		"no thread": agui.NewInput("", "r"),
		"no run":    agui.NewInput("t", ""),
	} {
		var n int
		for ev, err := range Run[NoState](context.Background(), agent, in) {
			n++
			if ev != nil || agui.CodeOf(err) != agui.CodeProtocol {
				t.Errorf("%s: got (%v, %v), want (nil, PROTOCOL error)", name, ev, err)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d yields, want 1", name, n)
		}
	}
	if _, err := NewRunner[NoState](nil, agui.NewInput("t", "r")); agui.CodeOf(err) != agui.CodeProtocol {
		t.Errorf("nil agent: %v", err)
	}
	if _, err := NewRunner[NoState](AgentFunc[NoState](nil), agui.NewInput("t", "r")); agui.CodeOf(err) != agui.CodeProtocol {
		t.Errorf("nil AgentFunc: %v", err)
	}
	if _, err := NewRunner[NoState](agent, agui.NewInput("t", "r"), WithQueueSize(-1)); agui.CodeOf(err) != agui.CodeProtocol {
		t.Errorf("negative queue: %v", err)
	}
}

func TestRunnerEventsOnce(t *testing.T) {
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	}), agui.NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	collect(t, r.Events(context.Background()))
	for ev, err := range r.Events(context.Background()) {
		if ev != nil || agui.CodeOf(err) != agui.CodeProtocol {
			t.Errorf("second range: (%v, %v)", ev, err)
		}
	}
}

func TestRunPanic(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if err := rc.Say("about to fail"); err != nil {
			return agui.Outcome{}, err
		}
		var m map[string]int
		//lint:ignore SA5000 the agent panics on purpose
		m["x"] = 1 // nil map write panics
		return agui.Success(), nil
	}, WithLogger(logger))
	e := last[*agui.RunError](t, evs)
	if e.Code != string(agui.CodePanic) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
	if !strings.Contains(logs.String(), "agent panicked") || !strings.Contains(logs.String(), "run_test.go") {
		t.Errorf("log lacks the panic and its stack:\n%s", logs.String())
	}
	// The process lives on: another run works.
	evs = run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), nil })
	last[*agui.RunFinished](t, evs)
}

func TestRunGoexit(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		runtime.Goexit()
		return agui.Success(), nil
	})
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodePanic) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunBreakJoinsAgent(t *testing.T) {
	var returned atomic.Bool
	var agentErr atomic.Value
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		defer returned.Store(true)
		for {
			if err := rc.Say("again"); err != nil {
				agentErr.Store(err)
				return agui.Outcome{}, err
			}
		}
	}), agui.NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range r.Events(context.Background()) {
		if n++; n == 5 {
			break
		}
	}
	if !returned.Load() {
		t.Fatal("the loop ended before the agent returned")
	}
	err, _ = agentErr.Load().(error)
	if !agui.IsCancelled(err) || !agui.IsDisconnected(errors.Unwrap(err)) {
		t.Errorf("agent's emit error = %v, want CANCELLED caused by DISCONNECTED", err)
	}
	goleak.VerifyNone(t)
}

// Every emit after cancellation fails with CANCELLED, keeping the cause
// the transport gave.
func TestEmitAfterCancelKeepsCause(t *testing.T) {
	cause := errors.New("server shutting down")
	var r *Runner[NoState]
	var emitErrs []error
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		r.Cancel(cause)
		r.Cancel(errors.New("a later cause does not count"))
		_, stepErr := rc.Step("s")
		emitErrs = append(emitErrs, m.Delta("x"), m.End(), rc.Say("y"), stepErr, rc.Emit(&agui.Custom{Name: "c"}))
		// Stopping on purpose does not help once things cannot be closed.
		return agui.Cancelled(), nil
	}), agui.NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, r.Events(context.Background()))
	for i, err := range emitErrs {
		if agui.CodeOf(err) != agui.CodeCancelled || !errors.Is(err, cause) {
			t.Errorf("emit %d after cancel: %v, want CANCELLED caused by %v", i, err, cause)
		}
	}
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

// An agent error after cancellation, such as a model client's own
// "context canceled", is reported as the cancellation it is.
func TestAgentErrorAfterCancelIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := collect(t, Run[NoState](ctx, AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		cancel()
		<-ctx.Done()
		return agui.Outcome{}, errors.New("Post \"https://model.example\": context canceled")
	}), agui.NewInput("t", "r")))
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunCancelBeforeEvents(t *testing.T) {
	var calls atomic.Int32
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		calls.Add(1)
		return agui.Success(), rc.Say("never seen")
	}), agui.NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	r.Cancel(errors.New("connection closed"))
	r.Cancel(nil) // more than once is fine
	evs := collect(t, r.Events(context.Background()))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	evs := collect(t, Run[NoState](ctx, AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if err := rc.Say("one"); err != nil {
			return agui.Outcome{}, err
		}
		cancel()
		<-ctx.Done()
		return agui.Success(), rc.Say("two")
	}), agui.NewInput("t", "r")))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestEmitAfterAgentReturned(t *testing.T) {
	var late *Emitter
	run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		late = rc.Emitter
		return agui.Success(), nil
	})
	if err := late.Say("late"); err == nil {
		t.Error("an emit after the run ended succeeded")
	}
}

func TestEmitRefusesRunLifecycle(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		for _, ev := range []agui.Event{&agui.RunStarted{}, &agui.RunFinished{}, &agui.RunError{}, nil} {
			if err := rc.Emit(ev); agui.CodeOf(err) != agui.CodeProtocol {
				return agui.Outcome{}, errors.New("Emit accepted a lifecycle event")
			}
		}
		return agui.Success(), nil
	})
	last[*agui.RunFinished](t, evs)
}
