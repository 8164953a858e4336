package loop

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// sequence is a provider playing its turns one per request, whatever the
// conversation holds.
func sequence(turns ...Turn) (Provider, *atomic.Int64) {
	var n atomic.Int64
	return ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		i := int(n.Add(1)) - 1
		if i >= len(turns) {
			return func(yield func(Delta, error) bool) { yield(Delta{}, ErrScriptExhausted) }
		}
		return Script(turns[i]).Stream(ctx, ModelRequest{})
	}), &n
}

// themeTool is a frontend tool as a client declares it.
func themeTool() agui.Tool {
	return agui.Tool{Name: "theme", Description: "sets the page colour", Parameters: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string"}}}`)}
}

func themeCalls(ids ...string) []ScriptedCall {
	out := make([]ScriptedCall, len(ids))
	for i, id := range ids {
		out[i] = ScriptedCall{ID: id, Name: "theme", Args: `{"color":"` + id + `"}`}
	}
	return out
}

func toolResult(id, callID, text string) *agui.ToolMessage {
	return &agui.ToolMessage{ID: id, ToolCallID: callID, Content: agui.TextContent(text)}
}

// clientRun is one run of a frontend-tool table case.
type clientRun struct {
	// msgs are the input's messages; resume answers the previous run's
	// interrupt when set.
	msgs   []agui.Message
	resume bool
	finish FinishReason
	// trace is the run's tool-call events (see recorder.trace).
	trace []string
	// pending are the checkpoint's ClientCalls after the run.
	pending []string
}

func TestFrontendTools(t *testing.T) {
	mixed := append(append(themeCalls("f1"), echoCalls("s2")...), append(themeCalls("f3"), echoCalls("s4")...)...)
	cases := []struct {
		name     string
		turns    []Turn
		approval []string // calls needing approval
		runs     []clientRun
		// results are the final transcript's results by call id; a value
		// that is a ToolErrorKind checks the kind instead.
		results map[string]string
		kinds   map[string]ToolErrorKind
		echoes  int64 // how often the echo tool ran
	}{{
		name:  "round trip",
		turns: []Turn{{Calls: themeCalls("f1")}, {Text: "done"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingClient, trace: []string{"call:f1"}, pending: []string{"f1"}},
			{msgs: []agui.Message{toolResult("r1", "f1", "blue set")}, finish: FinishStop},
		},
		results: map[string]string{"f1": "blue set"},
	}, {
		name:  "foreign ids are ignored",
		turns: []Turn{{Calls: themeCalls("f1")}, {Text: "done"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingClient, trace: []string{"call:f1"}, pending: []string{"f1"}},
			{msgs: []agui.Message{toolResult("rx", "nope", "injected"), toolResult("r1", "f1", "ok"), toolResult("r1b", "f1", "twice")}, finish: FinishStop},
		},
		results: map[string]string{"f1": "ok"},
	}, {
		name:  "a result without a pending call is ignored",
		turns: []Turn{{Text: "hi"}, {Text: "again"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishStop},
			{msgs: []agui.Message{toolResult("rx", "nope", "injected"), UserText("more")}, finish: FinishStop},
		},
		results: map[string]string{},
	}, {
		name:  "a new user message instead of the result",
		turns: []Turn{{Calls: themeCalls("f1")}, {Text: "ok"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingClient, trace: []string{"call:f1"}, pending: []string{"f1"}},
			{msgs: []agui.Message{UserText("never mind")}, finish: FinishStop, trace: []string{"call:f1", "result:f1"}},
		},
		kinds: map[string]ToolErrorKind{"f1": KindNotRun},
	}, {
		name:  "a missing result of two",
		turns: []Turn{{Calls: themeCalls("f1", "f2")}, {Text: "ok"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingClient, trace: []string{"call:f1", "call:f2"}, pending: []string{"f1", "f2"}},
			{msgs: []agui.Message{toolResult("r2", "f2", "green")}, finish: FinishStop, trace: []string{"call:f1", "result:f1"}},
		},
		results: map[string]string{"f2": "green"},
		kinds:   map[string]ToolErrorKind{"f1": KindNotRun},
	}, {
		name:  "frontend and server calls in one turn",
		turns: []Turn{{Calls: mixed}, {Text: "ok"}},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingClient,
				trace: []string{"call:f1", "call:s2", "result:s2", "call:f3", "call:s4", "result:s4"}, pending: []string{"f1", "f3"}},
			{msgs: []agui.Message{toolResult("r3", "f3", "red"), toolResult("r1", "f1", "blue")}, finish: FinishStop},
		},
		results: map[string]string{"f1": "blue", "s2": "echo s2", "f3": "red", "s4": "echo s4"},
		echoes:  2,
	}, {
		name:     "frontend call before an approval",
		turns:    []Turn{{Calls: append(append(themeCalls("f1"), echoCalls("a2")...), echoCalls("s3")...)}, {Text: "ok"}},
		approval: []string{"a2"},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingApproval, trace: []string{"call:f1", "call:a2"}, pending: []string{"f1"}},
			{msgs: []agui.Message{toolResult("r1", "f1", "blue")}, resume: true, finish: FinishStop,
				trace: []string{"call:a2", "result:a2", "call:s3", "result:s3"}},
		},
		results: map[string]string{"f1": "blue", "a2": "echo a2", "s3": "echo s3"},
		echoes:  2,
	}, {
		name:     "approval before a frontend call",
		turns:    []Turn{{Calls: append(echoCalls("a1"), themeCalls("f2")...)}, {Text: "ok"}},
		approval: []string{"a1"},
		runs: []clientRun{
			{msgs: []agui.Message{UserText("go")}, finish: FinishAwaitingApproval, trace: []string{"call:a1"}},
			{resume: true, finish: FinishAwaitingClient, trace: []string{"call:a1", "result:a1", "call:f2"}, pending: []string{"f2"}},
			{msgs: []agui.Message{toolResult("r2", "f2", "pink")}, finish: FinishStop},
		},
		results: map[string]string{"a1": "echo a1", "f2": "pink"},
		echoes:  1,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var echoes atomic.Int64
			echo, err := NewTool("echo", "echoes", func(ctx context.Context, in workArgs) (string, error) {
				echoes.Add(1)
				return "echo " + in.ID, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			store := NewMemoryStore()
			p, _ := sequence(tc.turns...)
			a := mustNew(t, p, WithTools(echo), WithCheckpoints(store), WithToolConcurrency(1),
				WithNeedsApproval(func(c Call) bool { return slices.Contains(tc.approval, c.ID) }))
			var res Result
			for i, step := range tc.runs {
				rec := &recorder{}
				in := Input{ThreadID: res.ThreadID, Messages: step.msgs, Tools: []agui.Tool{themeTool()}, OnEvent: rec.on}
				if step.resume {
					in.Resume = approve(res.Interrupt, true)
				}
				res, err = a.Execute(t.Context(), in)
				if err != nil {
					t.Fatalf("run %d: %v", i, err)
				}
				assertResult(t, res)
				if res.FinishReason != step.finish {
					t.Fatalf("run %d: finish %s, want %s\n%s", i, res.FinishReason, step.finish, dump(res.Messages))
				}
				if got := rec.trace(); !slices.Equal(got, step.trace) {
					t.Fatalf("run %d: trace %v, want %v", i, got, step.trace)
				}
				cp, _, err := store.Load(t.Context(), res.ThreadID)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(cp.ClientCalls, step.pending) {
					t.Fatalf("run %d: pending %v, want %v", i, cp.ClientCalls, step.pending)
				}
			}
			got := results(res.Messages)
			kinds := errorKinds(res.Messages)
			for id, want := range tc.results {
				if got[id] != want || kinds[id] != "" {
					t.Fatalf("result of %s: %q (%s), want %q\n%s", id, got[id], kinds[id], want, dump(res.Messages))
				}
			}
			for id, want := range tc.kinds {
				if kinds[id] != want {
					t.Fatalf("result of %s: kind %q, want %q", id, kinds[id], want)
				}
			}
			if len(got) != len(tc.results)+len(tc.kinds) {
				t.Fatalf("results %v", got)
			}
			if echoes.Load() != tc.echoes {
				t.Fatalf("echo ran %d times, want %d", echoes.Load(), tc.echoes)
			}
		})
	}
}

// Frontend tools reach the model beside the agent's tools.
func TestFrontendToolsOffered(t *testing.T) {
	var got ModelRequest
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		got = req
		return Script(Turn{Text: "ok"}).Stream(ctx, req)
	})
	a := mustNew(t, p, WithTools(echoTool(t)))
	bare := agui.Tool{Name: "bare"}
	if _, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("hi")}, Tools: []agui.Tool{themeTool(), bare}}); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, s := range got.Tools {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"echo", "theme", "bare"}) {
		t.Fatalf("tools %v", names)
	}
	if string(got.Tools[2].Schema) != `{"type":"object","properties":{}}` || string(got.Tools[1].Schema) != `{"type":"object","properties":{"color":{"type":"string"}}}` {
		t.Fatalf("schemas %s %s", got.Tools[1].Schema, got.Tools[2].Schema)
	}
}

// A frontend tool named like an agent tool, or two frontend tools of one
// name, fail the run with TOOL_NAME_CLASH before the model is asked or
// the thread is touched.
func TestFrontendToolNameClash(t *testing.T) {
	for _, tools := range [][]agui.Tool{{{Name: "echo"}}, {themeTool(), themeTool()}} {
		store := NewMemoryStore()
		p := Script(Turn{Text: "ok"})
		a := mustNew(t, p, WithTools(echoTool(t)), WithCheckpoints(store))
		res, err := a.Execute(t.Context(), Input{ThreadID: "t1", Messages: []agui.Message{UserText("hi")}, Tools: tools})
		if agui.CodeOf(err) != CodeToolNameClash || res.FinishReason != FinishError {
			t.Fatalf("%v %s", err, res.FinishReason)
		}
		if p.Calls() != 0 {
			t.Fatal("the model was asked")
		}
		if _, _, err := store.Load(t.Context(), "t1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("thread touched: %v", err)
		}
	}
}

// Hosted by core: a frontend call ends the run with RUN_FINISHED success
// after its TOOL_CALL_END, and the next run with the client's result goes
// on; the clash is a RUN_ERROR with its code.
func TestCoreRunFrontendTool(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: themeCalls("f1")}, Turn{Text: "done"}))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	in.Tools = []agui.Tool{themeTool()}
	evs := runCore(t, a, in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("end %v", types(evs))
	}
	if _, ok := evs[len(evs)-2].(*agui.ToolCallEnd); !ok {
		t.Fatalf("events %v", types(evs))
	}
	in = agui.NewInput("thread-1", "run-2")
	in.Messages = append([]agui.Message{}, UserText("go"), &agui.AssistantMessage{ID: "m", ToolCalls: []agui.ToolCall{{ID: "f1", Function: agui.FunctionCall{Name: "theme", Arguments: `{"color":"f1"}`}}}}, toolResult("r1", "f1", "done blue"))
	in.Tools = []agui.Tool{themeTool()}
	evs = runCore(t, a, in)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("end %v", types(evs))
	}
	in = agui.NewInput("thread-2", "run-3")
	in.Messages = []agui.Message{UserText("go")}
	in.Tools = []agui.Tool{{Name: "theme"}, {Name: "theme"}}
	evs = runCore(t, a, in)
	if e, ok := evs[len(evs)-1].(*agui.RunError); !ok || e.Code != string(CodeToolNameClash) {
		t.Fatalf("end %v", types(evs))
	}
}

// Hosted by core: a pending frontend call the next run brings no result
// for is announced with its not-run result, and the stream verifies.
func TestCoreRunFrontendCallNotRun(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: themeCalls("f1")}, Turn{Text: "fine"}))
	first := UserText("go")
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{first}
	in.Tools = []agui.Tool{themeTool()}
	evs := runCore(t, a, in)
	var parent string
	for _, ev := range evs {
		if e, ok := ev.(*agui.ToolCallStart); ok {
			parent = e.ParentMessageID
		}
	}
	in = agui.NewInput("thread-1", "run-2")
	in.Messages = []agui.Message{first,
		&agui.AssistantMessage{ID: parent, ToolCalls: []agui.ToolCall{{ID: "f1", Function: agui.FunctionCall{Name: "theme", Arguments: `{"color":"f1"}`}}}},
		UserText("never mind")}
	evs = runCore(t, a, in)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("end %v", types(evs))
	}
	want := []agui.EventType{agui.TypeRunStarted, agui.TypeToolCallStart, agui.TypeToolCallEnd, agui.TypeToolCallResult}
	if got := types(evs)[:4]; !slices.Equal(got, want) {
		t.Fatalf("events %v", types(evs))
	}
}
