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

	"go.uber.org/goleak"
)

func TestRunShape(t *testing.T) {
	in := NewInput("thread-1", "run-1")
	in.ParentRunID = "run-0"
	evs := collect(t, Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		return Success(), rc.Say("hi")
	}), in))
	equalTypes(t, evs, TypeRunStarted, TypeTextMessageStart, TypeTextMessageContent, TypeTextMessageEnd, TypeRunFinished)
	rs := evs[0].(*RunStarted)
	if rs.ThreadID != "thread-1" || rs.RunID != "run-1" || rs.ParentRunID != "run-0" || rs.ProtocolVersion != "1.0" {
		t.Errorf("RUN_STARTED = %+v", rs)
	}
	fin := last[*RunFinished](t, evs)
	if fin.ThreadID != "thread-1" || fin.RunID != "run-1" || fin.Outcome == nil || fin.Outcome.Type != OutcomeSuccess {
		t.Errorf("RUN_FINISHED = %+v", fin)
	}
}

func TestRunOutcomes(t *testing.T) {
	cases := []struct {
		name    string
		outcome Outcome
		check   func(t *testing.T, evs []Event)
	}{
		{"pending tool calls", Success("call-1"), func(t *testing.T, evs []Event) {
			o := last[*RunFinished](t, evs).Outcome
			if o.Type != OutcomeSuccess || len(o.PendingToolCallIDs) != 1 || o.PendingToolCallIDs[0] != "call-1" {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"cancelled", Cancelled(), func(t *testing.T, evs []Event) {
			if o := last[*RunFinished](t, evs).Outcome; o.Type != OutcomeCancelled {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"interrupt", Interrupted(NewInterrupt("i1", "approval")), func(t *testing.T, evs []Event) {
			o := last[*RunFinished](t, evs).Outcome
			if o.Type != OutcomeInterrupt || len(o.Interrupts) != 1 || o.Interrupts[0].ID != "i1" {
				t.Errorf("outcome = %+v", o)
			}
		}},
		{"interrupt without interrupts", Interrupted(), func(t *testing.T, evs []Event) {
			if e := last[*RunError](t, evs); e.Code != string(CodeProtocol) {
				t.Errorf("RUN_ERROR = %+v", e)
			}
		}},
		{"zero outcome", Outcome{}, func(t *testing.T, evs []Event) {
			if e := last[*RunError](t, evs); e.Code != string(CodeProtocol) {
				t.Errorf("RUN_ERROR = %+v", e)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return c.outcome, nil })
			equalTypes(t, evs, TypeRunStarted, evs[len(evs)-1].Type())
			c.check(t, evs)
		})
	}
}

func TestRunAgentErrors(t *testing.T) {
	cases := []struct {
		err     error
		code    Code
		message string
	}{
		{errors.New("boom"), CodeAgent, "agent error: boom"},
		{AgentError(errors.New("boom")), CodeAgent, "agent error: boom"},
		{NewError(CodeSerialization, "bad json"), CodeSerialization, "bad json"},
		{context.Canceled, CodeCancelled, "run cancelled: context canceled"},
	}
	for _, c := range cases {
		evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), c.err })
		e := last[*RunError](t, evs)
		if e.Code != string(c.code) || e.Message != c.message {
			t.Errorf("%v: RUN_ERROR = %+v, want code %s message %q", c.err, e, c.code, c.message)
		}
	}
}

func TestRunInvalidInput(t *testing.T) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), nil })
	for name, in := range map[string]*RunAgentInput{
		"nil":       nil,
		"no thread": NewInput("", "r"),
		"no run":    NewInput("t", ""),
	} {
		var n int
		for ev, err := range Run[NoState](context.Background(), agent, in) {
			n++
			if ev != nil || CodeOf(err) != CodeProtocol {
				t.Errorf("%s: got (%v, %v), want (nil, PROTOCOL error)", name, ev, err)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d yields, want 1", name, n)
		}
	}
	if _, err := NewRunner[NoState](nil, NewInput("t", "r")); CodeOf(err) != CodeProtocol {
		t.Errorf("nil agent: %v", err)
	}
	if _, err := NewRunner[NoState](AgentFunc[NoState](nil), NewInput("t", "r")); CodeOf(err) != CodeProtocol {
		t.Errorf("nil AgentFunc: %v", err)
	}
	if _, err := NewRunner[NoState](agent, NewInput("t", "r"), WithQueueSize(-1)); CodeOf(err) != CodeProtocol {
		t.Errorf("negative queue: %v", err)
	}
}

func TestRunnerEventsOnce(t *testing.T) {
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		return Success(), nil
	}), NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	collect(t, r.Events(context.Background()))
	for ev, err := range r.Events(context.Background()) {
		if ev != nil || CodeOf(err) != CodeProtocol {
			t.Errorf("second range: (%v, %v)", ev, err)
		}
	}
}

func TestRunPanic(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		if err := rc.Say("about to fail"); err != nil {
			return Outcome{}, err
		}
		var m map[string]int
		m["x"] = 1 // nil map write panics
		return Success(), nil
	}, WithLogger(logger))
	e := last[*RunError](t, evs)
	if e.Code != string(CodePanic) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
	if !strings.Contains(logs.String(), "agent panicked") || !strings.Contains(logs.String(), "run_test.go") {
		t.Errorf("log lacks the panic and its stack:\n%s", logs.String())
	}
	// The process lives on: another run works.
	evs = run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), nil })
	last[*RunFinished](t, evs)
}

func TestRunGoexit(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		runtime.Goexit()
		return Success(), nil
	})
	if e := last[*RunError](t, evs); e.Code != string(CodePanic) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunBreakJoinsAgent(t *testing.T) {
	var returned atomic.Bool
	var agentErr atomic.Value
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		defer returned.Store(true)
		for {
			if err := rc.Say("again"); err != nil {
				agentErr.Store(err)
				return Outcome{}, err
			}
		}
	}), NewInput("t", "r"))
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
	if !IsCancelled(err) || !IsDisconnected(errors.Unwrap(err)) {
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
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return Outcome{}, err
		}
		r.Cancel(cause)
		r.Cancel(errors.New("a later cause does not count"))
		_, stepErr := rc.Step("s")
		emitErrs = append(emitErrs, m.Delta("x"), m.End(), rc.Say("y"), stepErr, rc.Emit(&Custom{Name: "c"}))
		// Stopping on purpose does not help once things cannot be closed.
		return Cancelled(), nil
	}), NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, r.Events(context.Background()))
	for i, err := range emitErrs {
		if CodeOf(err) != CodeCancelled || !errors.Is(err, cause) {
			t.Errorf("emit %d after cancel: %v, want CANCELLED caused by %v", i, err, cause)
		}
	}
	equalTypes(t, evs, TypeRunStarted, TypeTextMessageStart, TypeRunError)
	if e := last[*RunError](t, evs); e.Code != string(CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

// An agent error after cancellation, such as a model client's own
// "context canceled", is reported as the cancellation it is.
func TestAgentErrorAfterCancelIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := collect(t, Run[NoState](ctx, AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		cancel()
		<-ctx.Done()
		return Outcome{}, errors.New("Post \"https://model.example\": context canceled")
	}), NewInput("t", "r")))
	if e := last[*RunError](t, evs); e.Code != string(CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunCancelBeforeEvents(t *testing.T) {
	var calls atomic.Int32
	r, err := NewRunner[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		calls.Add(1)
		return Success(), rc.Say("never seen")
	}), NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	r.Cancel(errors.New("connection closed"))
	r.Cancel(nil) // more than once is fine
	evs := collect(t, r.Events(context.Background()))
	equalTypes(t, evs, TypeRunStarted, TypeRunError)
	if e := last[*RunError](t, evs); e.Code != string(CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestRunContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	evs := collect(t, Run[NoState](ctx, AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		if err := rc.Say("one"); err != nil {
			return Outcome{}, err
		}
		cancel()
		<-ctx.Done()
		return Success(), rc.Say("two")
	}), NewInput("t", "r")))
	equalTypes(t, evs, TypeRunStarted, TypeTextMessageStart, TypeTextMessageContent, TypeTextMessageEnd, TypeRunError)
	if e := last[*RunError](t, evs); e.Code != string(CodeCancelled) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

func TestEmitAfterAgentReturned(t *testing.T) {
	var late *Emitter
	run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		late = rc.Emitter
		return Success(), nil
	})
	if err := late.Say("late"); err == nil {
		t.Error("an emit after the run ended succeeded")
	}
}

func TestEmitRefusesRunLifecycle(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		for _, ev := range []Event{&RunStarted{}, &RunFinished{}, &RunError{}, nil} {
			if err := rc.Emit(ev); CodeOf(err) != CodeProtocol {
				return Outcome{}, errors.New("Emit accepted a lifecycle event")
			}
		}
		return Success(), nil
	})
	last[*RunFinished](t, evs)
}
