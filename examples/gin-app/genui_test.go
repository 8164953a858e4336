package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop/a2ui"
)

// TestA2UIRoute: a user message paints the trip card, as the tool result
// {"a2ui_operations":[…]} and as an a2ui-surface activity; a click on its
// button, sent in the next run's forwardedProps, reaches the model.
func TestA2UIRoute(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	agent, err := client.New(srv.URL + "/agents/a2ui")
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("genui-a2ui", "r1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Show me a weekend trip.")}}
	view, err := agent.Run(context.Background(), in)
	if err != nil || view.RunError != nil {
		t.Fatalf("first run: %v %+v", err, view.RunError)
	}
	var activity, result []a2ui.Operation
	for _, m := range view.Messages {
		switch m := m.(type) {
		case *agui.ActivityMessage:
			if m.ActivityType != a2ui.ActivityType {
				t.Errorf("activity type %q, want %q", m.ActivityType, a2ui.ActivityType)
			}
			activity = decodeOps(t, m.Content)
		case *agui.ToolMessage:
			result = decodeOps(t, m.Content.String())
		}
	}
	if len(activity) != 3 || len(result) != 3 || activity[0].SurfaceID() != "trip" || result[0].SurfaceID() != "trip" {
		t.Fatalf("surface operations: activity %+v, result %+v", activity, result)
	}

	in = agui.NewInput("genui-a2ui", "r2")
	in.Messages = view.Messages
	in.ForwardedProps = json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_trip","surfaceId":"trip","sourceComponentId":"book","context":{"city":"Oslo","nights":2}}}}`)
	view, err = agent.Run(context.Background(), in)
	if err != nil || view.RunError != nil {
		t.Fatalf("action run: %v %+v", err, view.RunError)
	}
	last, ok := view.Messages[len(view.Messages)-1].(*agui.AssistantMessage)
	want := `User performed action "book_trip" on surface "trip" (component: book). Context: {"city":"Oslo","nights":2}`
	if !ok || !strings.Contains(last.Content, want) {
		t.Fatalf("the answer to the click is %+v, want it to quote %q", view.Messages[len(view.Messages)-1], want)
	}
}

// decodeOps reads the operations of an {"a2ui_operations":[…]} envelope.
func decodeOps(t *testing.T, v any) []a2ui.Operation {
	t.Helper()
	b, ok := v.(string)
	if !ok {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b = string(raw)
	}
	var env a2ui.Envelope
	if err := json.Unmarshal([]byte(b), &env); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return env.Operations
}

// The scripted model's surface uses only what the chat page paints.
func TestTripSurfaceIsValid(t *testing.T) {
	t.Parallel()
	c := basicCatalog()
	s := tripSurface()
	s.CatalogID = c.ID
	if ps := a2ui.Validate(s, &c, a2ui.Limits{}); len(ps) > 0 {
		t.Fatalf("tripSurface: %+v", ps)
	}
}

// TestPlanRoute: the plan arrives as a STATE_SNAPSHOT with every step
// pending, then each step's completion as a STATE_DELTA, and the run
// ends with every step completed.
func TestPlanRoute(t *testing.T) {
	t.Parallel()
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	cfg.loop.stepDelay = 0
	srv := newTestServerWith(t, cfg)
	evs := stream(t, srv.URL+"/agents/plan", input("Plan a weekend in Oslo.", ""))
	finished(t, evs)
	var snapshots, deltas int
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *agui.StateSnapshot:
			snapshots++
			var st planState
			b, _ := json.Marshal(ev.Snapshot)
			if err := json.Unmarshal(b, &st); err != nil || len(st.Steps) != len(planSteps()) || st.Steps[0].Status != "pending" {
				t.Errorf("snapshot %s, want %d pending steps", b, len(planSteps()))
			}
		case *agui.StateDelta:
			deltas++
		}
	}
	if snapshots != 1 || deltas != len(planSteps()) {
		t.Errorf("%d snapshots and %d deltas, want 1 and %d", snapshots, deltas, len(planSteps()))
	}
	agent, err := client.New(srv.URL + "/agents/plan")
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("genui-plan", "r1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Help me organise a move.")}}
	view, err := agent.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	st, err := client.State[planState](view)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range st.Steps {
		if s.Status != "completed" || s.Description != planSteps()[i] {
			t.Errorf("step %d is %+v, want %q completed", i, s, planSteps()[i])
		}
	}
	if len(st.Steps) != len(planSteps()) {
		t.Errorf("%d steps, want %d", len(st.Steps), len(planSteps()))
	}
}
