package loop

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// recordingTool is a tool with a side effect: it records that it ran.
func recordingTool(t *testing.T, ran *atomic.Bool) Tool {
	t.Helper()
	tool, err := NewTool("record", "records that it ran", func(ctx context.Context, in workArgs) (string, error) {
		ran.Store(true)
		return "recorded", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// Ids too long for the events that carry them fail the run with
// ID_TOO_LONG before any tool runs, hosted by core or run directly;
// before the check, the tool ran and the run then failed SERIALIZATION
// on the event carrying the ids.
func TestIDsOverTheEventLimitFailFirst(t *testing.T) {
	huge := strings.Repeat("x", 6<<20)
	hugeName := strings.Repeat("n", 11<<20)
	turns := func() *Scripted {
		return Script(
			Turn{Calls: []ScriptedCall{{ID: "c1", Name: "record", Args: `{"id":"1"}`}, {ID: "c2", Name: hugeName, Args: `{}`}}},
			Turn{Text: "done"},
		)
	}
	t.Run("thread and run ids, core", func(t *testing.T) {
		var ran atomic.Bool
		a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "record", Args: `{"id":"1"}`}}}, Turn{Text: "done"}), WithTools(recordingTool(t, &ran)))
		in := agui.NewInput("t"+huge, "r"+huge)
		in.Messages = []agui.Message{UserText("go")}
		evs := runCore(t, a, in)
		e, ok := evs[len(evs)-1].(*agui.RunError)
		if !ok || e.Code != string(CodeIDTooLong) {
			t.Fatalf("ended %v: %v", types(evs), evs[len(evs)-1])
		}
		if ran.Load() {
			t.Fatal("the tool ran")
		}
	})
	t.Run("frontend tool name, core", func(t *testing.T) {
		var ran atomic.Bool
		a := mustNew(t, turns(), WithTools(recordingTool(t, &ran)))
		in := agui.NewInput("t1", "r1")
		in.Messages = []agui.Message{UserText("go")}
		in.Tools = []agui.Tool{{Name: hugeName}}
		evs := runCore(t, a, in)
		e, ok := evs[len(evs)-1].(*agui.RunError)
		if !ok || e.Code != string(CodeIDTooLong) {
			t.Fatalf("ended %v: %v", types(evs), evs[len(evs)-1])
		}
		if ran.Load() {
			t.Fatal("the tool ran")
		}
	})
	t.Run("frontend tool name, Execute", func(t *testing.T) {
		var ran atomic.Bool
		a := mustNew(t, turns(), WithTools(recordingTool(t, &ran)))
		onEvent := func(ev agui.Event) error {
			_, err := agui.AppendSSE(nil, ev) // a caller writing SSE itself
			return err
		}
		_, err := a.Execute(t.Context(), Input{ThreadID: "t1", Messages: []agui.Message{UserText("go")}, Tools: []agui.Tool{{Name: hugeName}}, OnEvent: onEvent})
		var ae *agui.Error
		if !errors.As(err, &ae) || ae.Code != CodeIDTooLong {
			t.Fatalf("err %v", err)
		}
		if ran.Load() {
			t.Fatal("the tool ran")
		}
	})
	t.Run("a tool result too large for one event", func(t *testing.T) {
		res := &agui.ToolMessage{ID: "m1", ToolCallID: "c1", Content: agui.TextContent(strings.Repeat("r", 11<<20))}
		err := checkInputIDs(Input{ThreadID: "t1", Messages: []agui.Message{res}})
		if agui.CodeOf(err) != CodeIDTooLong {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ids that fit", func(t *testing.T) {
		in := Input{ThreadID: huge[:maxIDJSON-2], RunID: "r", Messages: []agui.Message{UserText("go")}, Tools: []agui.Tool{{Name: "f"}}}
		if err := checkInputIDs(in); err != nil {
			t.Fatal(err)
		}
		if err := checkInputIDs(Input{ThreadID: huge[:maxIDJSON-1]}); agui.CodeOf(err) != CodeIDTooLong {
			t.Fatalf("one byte over: %v", err)
		}
	})
}
