package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/remote"
)

// delegating returns a loop agent whose model calls the remote agent at
// url through a Tool named research, then answers "Done.".
func delegating(t *testing.T, url string) *loop.Agent {
	t.Helper()
	c, err := client.New(url)
	if err != nil {
		t.Fatal(err)
	}
	research, err := remote.Tool("research", "Asks the research agent", c)
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "research", Args: `{"task":"weather in Paris"}`}}},
		loop.Turn{Text: "Done."},
	)
	a, err := loop.New(model, loop.WithTools(research))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The remote run's events appear under SUBAGENT_STARTED and
// SUBAGENT_FINISHED, attributed to the calling tool call; its state is
// not the caller's and is left out; its final text is the tool's result.
func TestToolAttribution(t *testing.T) {
	type seen struct {
		thread, task string
	}
	runs := make(chan seen, 1)
	url := serve(t, core.AgentFunc[json.RawMessage](func(ctx context.Context, rc *core.RunContext[json.RawMessage]) (agui.Outcome, error) {
		in := rc.Input()
		runs <- seen{in.ThreadID, in.Messages[0].(*agui.UserMessage).Content.String()}
		if err := rc.Emit(&agui.StateSnapshot{Snapshot: map[string]any{"remote": true}}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("Paris is sunny.")
	}))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{loop.UserText("What is the weather in Paris?")}
	var (
		sub, text, finished, result string
		types                       []agui.EventType
	)
	for ev, err := range core.Run(t.Context(), delegating(t, url), in) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.Type())
		switch e := ev.(type) {
		case *agui.SubagentStarted:
			if e.Name != "research" || e.ParentToolCallID != "call-1" {
				t.Errorf("SUBAGENT_STARTED %+v, want research under call-1", e)
			}
			sub = e.SubagentRunID
		case *agui.TextMessageContent:
			if agui.SubagentOf(e) == sub && sub != "" {
				text += e.Delta
			}
		case *agui.SubagentFinished:
			if e.SubagentRunID == sub {
				finished = fmt.Sprint(e.Result)
			}
		case *agui.ToolCallResult:
			if e.ToolCallID == "call-1" {
				result = e.Content.String()
			}
		case *agui.StateSnapshot:
			t.Errorf("the remote's state reached the caller: %+v", e)
		case *agui.RunError:
			t.Fatalf("RUN_ERROR %s: %s", e.Code, e.Message)
		}
	}
	if sub == "" {
		t.Fatalf("no SUBAGENT_STARTED in %v", types)
	}
	if text != "Paris is sunny." || finished != "Paris is sunny." || result != "Paris is sunny." {
		t.Errorf("attributed text %q, SUBAGENT_FINISHED result %q, tool result %q; want the remote's text in all three", text, finished, result)
	}
	if got := <-runs; got.thread != "thread-1/call-1" || got.task != "weather in Paris" {
		t.Errorf("the remote ran %+v, want the task on thread-1/call-1", got)
	}
}

// A remote failure fails the invocation (SUBAGENT_ERROR) and the call,
// whose error result carries the remote code; the run goes on.
func TestToolFailure(t *testing.T) {
	url := serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Outcome{}, agui.NewError("QUOTA", "out of tokens")
	}))
	var failed, result string
	var last agui.Event
	for ev, err := range core.Run(t.Context(), delegating(t, url), agui.NewInput("t", "r")) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
		switch e := ev.(type) {
		case *agui.SubagentError:
			failed = e.Code
		case *agui.ToolCallResult:
			result = e.Content.String()
		}
	}
	if failed != string(remote.CodeRunError) {
		t.Errorf("SUBAGENT_ERROR code %q, want %s", failed, remote.CodeRunError)
	}
	var body struct{ Code agui.Code }
	if err := json.Unmarshal([]byte(result), &body); err != nil || body.Code != remote.CodeRunError {
		t.Errorf("tool result %q, want an error result with code %s", result, remote.CodeRunError)
	}
	if last.Type() != agui.TypeRunFinished {
		t.Errorf("the run ended with %s, want RUN_FINISHED", last.Type())
	}
}

// Cancelling the delegating run cancels the remote request.
func TestToolCancelReachesRemote(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	url := serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(started)
		<-ctx.Done()
		close(cancelled)
		return agui.Outcome{}, ctx.Err()
	}))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var last agui.Event
	for ev, err := range core.Run(ctx, delegating(t, url), agui.NewInput("t", "r")) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
		if ev.Type() == agui.TypeTextMessageEnd && agui.SubagentOf(ev) != "" {
			<-started
			cancel()
		}
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the remote agent's context was not cancelled")
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Errorf("the run ended with %#v, want RUN_ERROR CANCELLED", last)
	}
}
