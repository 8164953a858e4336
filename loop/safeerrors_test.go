package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A BAD_RESUME error never names the pending interrupt or its tool call:
// whoever can name a thread must not learn the capability that approves
// its call.
func TestBadResumeNamesNoInterrupt(t *testing.T) {
	cases := map[string]func(in *agui.Interrupt) Input{
		"new input while pending": func(*agui.Interrupt) Input { return user("hello") },
		"missing":                 func(*agui.Interrupt) Input { return Input{} },
		"unknown id": func(*agui.Interrupt) Input {
			return Input{Resume: []agui.ResumeEntry{{InterruptID: "nope", Status: agui.ResumeResolved}}}
		},
		"twice": func(in *agui.Interrupt) Input {
			e := agui.ResumeEntry{InterruptID: in.ID, Status: agui.ResumeResolved}
			return Input{Resume: []agui.ResumeEntry{e, e}}
		},
		"bad status": func(in *agui.Interrupt) Input {
			return Input{Resume: []agui.ResumeEntry{{InterruptID: in.ID, Status: "maybe"}}}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBlocker()
			for _, id := range []string{"c1", "c2", "c3", "c4"} {
				b.release(id)
			}
			a, _ := approvalAgent(t, b)
			res, _ := a.Execute(t.Context(), user("go"))
			if res.Interrupt == nil {
				t.Fatal("no interrupt")
			}
			in := mk(res.Interrupt)
			in.ThreadID = res.ThreadID
			_, err := a.Execute(t.Context(), in)
			msg := agui.ErrorText(err)
			if agui.CodeOf(err) != CodeBadResume || strings.Contains(msg, res.Interrupt.ID) || strings.Contains(msg, res.Interrupt.ToolCallID) {
				t.Fatalf("error %q (code %s) names the pending approval %s / %s", msg, agui.CodeOf(err), res.Interrupt.ID, res.Interrupt.ToolCallID)
			}
		})
	}
}

// A provider or propagated tool error reaches the client as a stable code
// and a generic message: the internal address and the secret in the
// error text go to the log only. Callers of Execute still get the cause.
func TestClientErrorsAreGeneric(t *testing.T) {
	secret := errors.New("dial tcp 10.9.8.7:443: connection refused (api_key=sk-secret)")
	tool, err := NewTool("echo", "fails", func(ctx context.Context, in workArgs) (string, error) { return "", Propagate(secret) })
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]struct {
		a    *Agent
		code agui.Code
	}{
		"provider": {mustNew(t, failing{secret}), CodeProvider},
		"tool":     {mustNew(t, Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "ok"}), WithTools(tool)), CodeTool},
	}
	for name, c := range agents {
		t.Run(name, func(t *testing.T) {
			var logs bytes.Buffer
			in := agui.NewInput("t-"+name, "r")
			in.Messages = []agui.Message{UserText("go")}
			var evs []agui.Event
			for ev, err := range core.Run(t.Context(), core.Agent[core.NoState](c.a), in, core.WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))) {
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, ev)
			}
			re, ok := evs[len(evs)-1].(*agui.RunError)
			if !ok || re.Code != string(c.code) || re.Message == "" {
				t.Fatalf("last event %+v, want RUN_ERROR %s", evs[len(evs)-1], c.code)
			}
			if strings.Contains(re.Message, "10.9.8.7") || strings.Contains(re.Message, "sk-secret") {
				t.Fatalf("RUN_ERROR message leaks: %q", re.Message)
			}
			if !strings.Contains(logs.String(), "10.9.8.7") {
				t.Fatalf("the full error is not in the log:\n%s", logs.String())
			}
			_, err := c.a.Execute(t.Context(), user("again"))
			if !errors.Is(err, secret) {
				t.Fatalf("Execute error %v does not wrap the cause", err)
			}
		})
	}
}

// A tool's plain error reaches the model and the client as TOOL_FAILED
// with a fixed message, its text in the log only; an [*agui.Error] a tool
// returns shows its code and the message its author wrote, not its cause;
// what a tool returns as its result is shown as it is.
func TestToolErrorTextIsSafe(t *testing.T) {
	secret := errors.New("open /srv/secret/key.pem: permission denied (session 5f3c)")
	tools := []Tool{}
	for name, err := range map[string]error{
		"plain": secret,
		"coded": &agui.Error{Code: "QUOTA", Message: "the quota is used up", Err: secret},
	} {
		tool, terr := RawTool(name, "", []byte(`{"type":"object"}`), func(ctx context.Context, args json.RawMessage) (string, error) { return "", err })
		if terr != nil {
			t.Fatal(terr)
		}
		tools = append(tools, tool)
	}
	ok, _ := RawTool("ok", "", []byte(`{"type":"object"}`), func(ctx context.Context, args json.RawMessage) (string, error) { return "result /srv/x", nil })
	tools = append(tools, ok)
	var logs bytes.Buffer
	p := Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "plain", Args: `{}`}, {ID: "c2", Name: "coded", Args: `{}`}, {ID: "c3", Name: "ok", Args: `{}`}}}, Turn{Text: "ok"})
	a := mustNew(t, p, WithTools(tools...), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	rec := &recorder{}
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("go")}, OnEvent: rec.on})
	if err != nil {
		t.Fatal(err)
	}
	_, evRes := argsAndResults(rec.events())
	want := map[string]string{
		"c1": `{"error":"execution","code":"TOOL_FAILED","message":"the tool failed"}`,
		"c2": `{"error":"execution","code":"QUOTA","message":"the quota is used up"}`,
		"c3": "result /srv/x",
	}
	for id, w := range want {
		if evRes[id] != w {
			t.Fatalf("%s: client got %q, want %q", id, evRes[id], w)
		}
	}
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && (strings.Contains(tm.Content.String(), "secret") || strings.Contains(tm.Error, "secret")) {
			t.Fatalf("the model reads the error text: %+v", tm)
		}
	}
	if !strings.Contains(logs.String(), "key.pem") || !strings.Contains(logs.String(), "tool=plain") {
		t.Fatalf("log %s", logs.String())
	}
}
