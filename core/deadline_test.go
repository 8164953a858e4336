package core_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// runToEnd runs a with opts and returns its last event.
func runToEnd(t *testing.T, a core.Agent[core.NoState], opts ...core.RunOption) agui.Event {
	t.Helper()
	var last agui.Event
	for ev, err := range core.Run(context.Background(), a, agui.NewInput("t", "r"), opts...) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	return last
}

// At its deadline a run's context ends and the run ends with RUN_ERROR
// DEADLINE_EXCEEDED, whatever the agent returned on the way out: its
// context's error, nothing, or a wrapped error of its own code.
func TestRunTimeoutEndsDeadlineExceeded(t *testing.T) {
	t.Parallel()
	returns := map[string]func(ctx context.Context) error{
		"ctx.Err": func(ctx context.Context) error { return ctx.Err() },
		"nil":     func(context.Context) error { return nil },
		"provider": func(ctx context.Context) error {
			return &agui.Error{Code: "PROVIDER_ERROR", Message: "failed", Err: ctx.Err()}
		},
	}
	for name, ret := range returns {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var deadline time.Time
				var ended time.Duration
				a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
					deadline, _ = ctx.Deadline()
					<-ctx.Done()
					ended = time.Since(start)
					return agui.Success(), ret(ctx)
				})
				re, ok := runToEnd(t, a, core.WithRunTimeout(time.Minute)).(*agui.RunError)
				if !ok || re.Code != string(core.CodeDeadline) || re.Message == "" {
					t.Fatalf("last event = %+v", re)
				}
				if !deadline.Equal(start.Add(time.Minute)) || ended != time.Minute {
					t.Fatalf("deadline %v, ended after %v", deadline.Sub(start), ended)
				}
			})
		})
	}
}

// A run that ends before its deadline is untouched by it, and a run
// cancelled before its deadline is CANCELLED, not DEADLINE_EXCEEDED.
func TestRunTimeoutOnlyWhenItFires(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		quick := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			time.Sleep(59 * time.Second) // virtual time: the bubble's clock
			return agui.Success(), nil
		})
		if ev := runToEnd(t, quick, core.WithRunTimeout(time.Minute)); ev.Type() != agui.TypeRunFinished {
			t.Fatalf("quick run ended with %+v", ev)
		}

		ctx, cancel := context.WithCancel(context.Background())
		var last agui.Event
		for ev, err := range core.Run(ctx, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			cancel()
			<-ctx.Done()
			return agui.Outcome{}, ctx.Err()
		}), agui.NewInput("t", "r"), core.WithRunTimeout(time.Minute)) {
			if err != nil {
				t.Fatal(err)
			}
			last = ev
		}
		if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
			t.Fatalf("cancelled run ended with %+v", last)
		}
	})
}

// WithRunTimeout passed to a handler bounds each of its runs; the run's
// log line says DEADLINE_EXCEEDED.
func TestHandlerRunTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var logs syncBuffer
		h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			<-ctx.Done()
			return agui.Outcome{}, ctx.Err()
		}), core.WithRunTimeout(30*time.Second), core.WithHeartbeat(0),
			core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, newPost(runBody("")))
		evs := aguitest.ReadSSE(t, rec.Body)
		if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(core.CodeDeadline) {
			t.Fatalf("stream = %v", aguitest.Types(evs))
		}
		found := false
		for _, l := range logLines(t, logs.String()) {
			found = found || (l["msg"] == "agui run" && l["code"] == string(core.CodeDeadline))
		}
		if !found {
			t.Fatalf("log: %s", logs.String())
		}
	})
}

func TestRunTimeoutRejectsNegative(t *testing.T) {
	t.Parallel()
	_, err := core.NewRunner(sayAgent("x"), agui.NewInput("t", "r"), core.WithRunTimeout(-time.Second))
	if !errors.Is(err, &agui.Error{Code: agui.CodeProtocol}) {
		t.Fatalf("err = %v", err)
	}
}

// A run's deadline, as the client sees it.
func ExampleWithRunTimeout() {
	slow := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		<-ctx.Done() // a model call that takes too long
		return agui.Outcome{}, ctx.Err()
	})
	for ev := range core.Run(context.Background(), slow, agui.NewInput("t", "r"), core.WithRunTimeout(10*time.Millisecond)) {
		if re, ok := ev.(*agui.RunError); ok {
			fmt.Println(re.Code)
		}
	}
	// Output: DEADLINE_EXCEEDED
}
