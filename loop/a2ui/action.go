package a2ui

import (
	"context"
	"encoding/json"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// Action is what a user did on a surface: the action of a component (a
// button's) with its context, as an A2UI client sends it in the run
// input's forwardedProps: {"a2uiAction":{"userAction":{"name":…,
// "surfaceId":…,"sourceComponentId":…,"context":{…}}}}. A plain value.
type Action struct {
	Name              string         `json:"name"`
	SurfaceID         string         `json:"surfaceId,omitempty"`
	SourceComponentID string         `json:"sourceComponentId,omitempty"`
	Context           map[string]any `json:"context,omitempty"`
}

// ActionFrom returns the user action in's forwardedProps carry; ok is
// false when they carry none, or one without a name.
func ActionFrom(in *agui.RunAgentInput) (a Action, ok bool) {
	if in == nil || in.ForwardedProps == nil {
		return Action{}, false
	}
	raw, isRaw := in.ForwardedProps.(json.RawMessage)
	if !isRaw {
		b, err := json.Marshal(in.ForwardedProps)
		if err != nil {
			return Action{}, false
		}
		raw = b
	}
	var fp struct {
		A2UIAction *struct {
			UserAction *Action `json:"userAction"`
		} `json:"a2uiAction"`
	}
	if json.Unmarshal(raw, &fp) != nil || fp.A2UIAction == nil || fp.A2UIAction.UserAction == nil || fp.A2UIAction.UserAction.Name == "" {
		return Action{}, false
	}
	return *fp.A2UIAction.UserAction, true
}

// Message says the action in words, for the model: `User performed
// action "book_flight" on surface "flights" (component: book). Context:
// {"id":"1"}`.
func (a Action) Message() string {
	s := `User performed action "` + a.Name + `" on surface "` + a.SurfaceID + `"`
	if a.SourceComponentID != "" {
		s += " (component: " + a.SourceComponentID + ")"
	}
	ctx := []byte("{}")
	if a.Context != nil {
		if b, err := json.Marshal(a.Context); err == nil {
			ctx = b
		}
	}
	return s + ". Context: " + string(ctx)
}

// InsertAction is a [loop.WithBeforeModelCall] hook that tells the model
// what the user did on a surface. When the run's input ([core.InputFrom])
// carries an action ([ActionFrom]), each model request of the run gets a
// user message saying it ([Action.Message]) right after the last message
// the input holds, before what the run itself added; otherwise the
// request is unchanged. The message reaches the model only: the
// transcript and the events are unchanged, so the action is told to each
// turn of its run and to no later run.
//
// The loop keeps its own transcript and takes from the input only new
// user messages and the results of its pending calls; the call and
// result the A2UI middleware adds for an action (log_a2ui_event) are not
// among them, so behind that middleware too this hook is how the model
// learns of the click.
func InsertAction(ctx context.Context, req loop.ModelRequest) (loop.ModelRequest, error) {
	in, ok := core.InputFrom(ctx)
	if !ok {
		return req, nil
	}
	a, ok := ActionFrom(in)
	if !ok {
		return req, nil
	}
	ids := make(map[string]bool, len(in.Messages))
	for _, m := range in.Messages {
		ids[m.MessageID()] = true
	}
	at := 0
	for i, m := range req.Messages {
		if ids[m.MessageID()] {
			at = i + 1
		}
	}
	msgs := make([]agui.Message, 0, len(req.Messages)+1)
	msgs = append(msgs, req.Messages[:at]...)
	msgs = append(msgs, &agui.UserMessage{ID: "a2ui-action-" + in.RunID, Content: agui.TextContent(a.Message())})
	req.Messages = append(msgs, req.Messages[at:]...)
	return req, nil
}
