package a2ui

import (
	"encoding/json"

	"github.com/agui-go/agui"
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
