package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// seen records the requests a provider got.
type seen struct {
	mu   sync.Mutex
	reqs []ModelRequest
}

func (s *seen) wrap(p Provider) Provider {
	return ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		s.mu.Lock()
		s.reqs = append(s.reqs, req)
		s.mu.Unlock()
		return p.Stream(ctx, req)
	})
}

// argsEvents maps call ids to the concatenated TOOL_CALL_ARGS deltas, and
// results maps them to TOOL_CALL_RESULT contents.
func argsAndResults(evs []agui.Event) (map[string]string, map[string]string) {
	args, res := map[string]string{}, map[string]string{}
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.ToolCallArgs:
			args[e.ToolCallID] += e.Delta
		case *agui.ToolCallResult:
			res[e.ToolCallID] = e.Content.String()
		}
	}
	return args, res
}

// transcriptArgs maps call ids to the arguments the transcript keeps.
func transcriptArgs(msgs []agui.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if am, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range am.ToolCalls {
				out[c.ID] = c.Function.Arguments
			}
		}
	}
	return out
}

func TestBeforeToolCallDenies(t *testing.T) {
	var ran journal
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		ran.add("%s", in.ID)
		return "done " + in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &seen{}
	a := mustNew(t, s.wrap(Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})), WithTools(tool), WithToolConcurrency(1),
		WithBeforeToolCall(func(_ context.Context, c Call) (CallVerdict, error) {
			if c.ID == "c2" {
				return CallVerdict{Deny: "c2 is not allowed on weekends"}, nil
			}
			return CallVerdict{}, nil
		}))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if got := ran.list(); !slices.Equal(got, []string{"c1", "c3"}) {
		t.Fatalf("ran %v", got)
	}
	if k := errorKinds(res.Messages); k["c2"] != KindDenied || k["c1"] != "" || k["c3"] != "" {
		t.Fatalf("kinds %v", k)
	}
	want := `{"error":"denied","message":"c2 is not allowed on weekends"}`
	if _, evRes := argsAndResults(rec.events()); evRes["c2"] != want {
		t.Fatalf("client got %q", evRes["c2"])
	}
	if got := rec.trace(); !slices.Equal(got, []string{"call:c1", "result:c1", "call:c2", "result:c2", "call:c3", "result:c3"}) {
		t.Fatalf("events %v", got)
	}
	// The model reads the denial on its next turn.
	if got := results(s.reqs[1].Messages)["c2"]; got != want {
		t.Fatalf("the model read %q", got)
	}
}

func TestBeforeToolCallRewritesArgs(t *testing.T) {
	var ran journal
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		ran.add("%s", in.ID)
		return "done " + in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &seen{}
	a := mustNew(t, s.wrap(Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})), WithTools(tool), WithToolConcurrency(1),
		WithBeforeToolCall(func(_ context.Context, c Call) (CallVerdict, error) {
			switch c.ID {
			case "c1":
				return CallVerdict{Args: json.RawMessage(`{"id":"safe"}`)}, nil
			case "c2":
				return CallVerdict{Args: json.RawMessage(`{"id":7}`)}, nil // fails the schema
			}
			return CallVerdict{}, nil
		}),
		WithNeedsApproval(func(c Call) bool {
			if c.ID == "c1" && string(c.Args) != `{"id":"safe"}` {
				t.Errorf("NeedsApproval saw %s", c.Args)
			}
			return false
		}))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if got := ran.list(); !slices.Equal(got, []string{"safe", "c3"}) {
		t.Fatalf("ran %v", got)
	}
	if k := errorKinds(res.Messages); k["c2"] != KindValidation {
		t.Fatalf("rewritten to invalid arguments: kinds %v", k)
	}
	evArgs, _ := argsAndResults(rec.events())
	tr := transcriptArgs(res.Messages)
	for id, want := range map[string]string{"c1": `{"id":"safe"}`, "c2": `{"id":7}`, "c3": `{"id":"c3"}`} {
		if evArgs[id] != want || tr[id] != want {
			t.Errorf("%s: client got %s, transcript keeps %s, want %s", id, evArgs[id], tr[id], want)
		}
	}
	// The model's next turn sees the call as it ran.
	if got := transcriptArgs(s.reqs[1].Messages)["c1"]; got != `{"id":"safe"}` {
		t.Fatalf("the model read %s", got)
	}
}

func TestBeforeToolCallErrorStopsRun(t *testing.T) {
	b := newBlocker()
	b.release("c1")
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2")}, Turn{Text: "ok"}), WithTools(b.tool(t)), WithToolConcurrency(1),
		WithBeforeToolCall(func(_ context.Context, c Call) (CallVerdict, error) {
			if c.ID == "c2" {
				panic("policy engine down")
			}
			return CallVerdict{}, nil
		}))
	res, err := a.Execute(t.Context(), user("go"))
	// The client sees a generic message; the cause keeps the panic.
	if agui.CodeOf(err) != CodeTool || !strings.Contains(fmt.Sprint(errors.Unwrap(err)), "policy engine down") {
		t.Fatalf("err %v", err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages)["c2"]; k != KindNotRun {
		t.Fatalf("c2: %s", k)
	}
}

func TestAfterToolCallRedacts(t *testing.T) {
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		if in.ID == "c2" {
			return "", errors.New("db password hunter2 rejected")
		}
		return "token=hunter2 for " + in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var kinds journal
	s := &seen{}
	a := mustNew(t, s.wrap(Script(Turn{Calls: append(workCalls("c1", "c2"), ScriptedCall{ID: "c3", Name: "nope", Args: `{}`})}, Turn{Text: "ok"})), WithTools(tool),
		WithAfterToolCall(func(_ context.Context, c Call, r CallResult) (CallResult, error) {
			kinds.add("%s:%s", c.ID, r.Kind)
			r.Content = strings.ReplaceAll(r.Content, "hunter2", "[redacted]")
			r.Error = strings.ReplaceAll(r.Error, "hunter2", "[redacted]")
			return r, nil
		}))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	got := kinds.list()
	slices.Sort(got)
	if !slices.Equal(got, []string{"c1:", "c2:execution", "c3:not-found"}) {
		t.Fatalf("the hook saw %v", got)
	}
	_, evRes := argsAndResults(rec.events())
	for _, where := range []map[string]string{evRes, results(res.Messages), results(s.reqs[1].Messages)} {
		for id, text := range where {
			if strings.Contains(text, "hunter2") {
				t.Fatalf("%s leaked: %s", id, text)
			}
		}
		if where["c1"] != "token=[redacted] for c1" {
			t.Fatalf("c1: %q", where["c1"])
		}
	}
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && strings.Contains(tm.Error, "hunter2") {
			t.Fatalf("error text leaked: %s", tm.Error)
		}
	}
}

// A failing WithAfterToolCall withholds the result: the client and the
// transcript never see it, and the run fails.
func TestAfterToolCallErrorWithholds(t *testing.T) {
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) { return "secret", nil })
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2")}, Turn{Text: "ok"}), WithTools(tool), WithToolConcurrency(1),
		WithAfterToolCall(func(context.Context, Call, CallResult) (CallResult, error) {
			return CallResult{}, errors.New("redactor unavailable")
		}))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if agui.CodeOf(err) != CodeTool {
		t.Fatalf("err %v", err)
	}
	assertResult(t, res)
	_, evRes := argsAndResults(rec.events())
	for id, text := range results(res.Messages) {
		if strings.Contains(text, "secret") || strings.Contains(evRes[id], "secret") {
			t.Fatalf("%s leaked", id)
		}
	}
	if k := errorKinds(res.Messages); k["c1"] != KindExecution || k["c2"] != KindNotRun {
		t.Fatalf("kinds %v", k)
	}
}

func TestBeforeModelCallAddsContext(t *testing.T) {
	s := &seen{}
	a := mustNew(t, s.wrap(Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "ok"})), WithTools(echoTool(t)),
		WithBeforeModelCall(func(_ context.Context, req ModelRequest) (ModelRequest, error) {
			req.Messages = append(slices.Clip(req.Messages), &agui.SystemMessage{ID: "ctx", Content: "The user is in Oslo."})
			req.Instructions += " Be brief."
			return req, nil
		}))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	for i, req := range s.reqs {
		last := req.Messages[len(req.Messages)-1]
		if sm, ok := last.(*agui.SystemMessage); !ok || sm.Content != "The user is in Oslo." || req.Instructions != " Be brief." {
			t.Fatalf("request %d: last message %#v, instructions %q", i, last, req.Instructions)
		}
	}
	for _, m := range res.Messages {
		if m.MessageID() == "ctx" {
			t.Fatal("the added context reached the transcript")
		}
	}
	if len(s.reqs) != 2 || res.FinishReason != FinishStop {
		t.Fatalf("%d requests, finish %s", len(s.reqs), res.FinishReason)
	}
}

func TestBeforeModelCallError(t *testing.T) {
	p := Script(Turn{Text: "ok"})
	a := mustNew(t, p, WithBeforeModelCall(func(context.Context, ModelRequest) (ModelRequest, error) {
		return ModelRequest{}, errors.New("no context today")
	}))
	_, err := a.Execute(t.Context(), user("go"))
	if agui.CodeOf(err) != CodeTool || p.Calls() != 0 {
		t.Fatalf("err %v, %d model calls", err, p.Calls())
	}
}
