package main

import (
	"context"
	"encoding/json"
	"iter"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// basicCatalog is the part of A2UI v0.9's basic catalog the chat page
// paints (web/src/a2ui.js): the surface check refuses other types, so a
// real model gets told what it can use.
func basicCatalog() a2ui.Catalog {
	return a2ui.Catalog{ID: "https://a2ui.org/specification/v0_9/basic_catalog.json", Components: map[string]a2ui.ComponentType{
		"Text":   {Required: []string{"text"}},
		"Column": {Required: []string{"children"}},
		"Row":    {Required: []string{"children"}},
		"Card":   {Required: []string{"child"}},
		"Button": {Required: []string{"child", "action"}},
	}}
}

// actionPrefix starts the words a2ui.InsertAction gives the model for a
// click (a2ui.Action.Message).
const actionPrefix = "User performed action "

// newA2UIAgent is the loop with the render_a2ui tool (package loop/a2ui):
// on a user message its scripted model paints a trip card (tripSurface),
// which goes out as the tool result {"a2ui_operations":[…]} and as an
// ACTIVITY_SNAPSHOT of type a2ui-surface; a click on the card's buttons
// comes back in the next run's forwardedProps, which a2ui.InsertAction
// tells the model, and the model answers it. m may choose a real model.
func newA2UIAgent(m model.Flags) (*loop.Agent, error) {
	render, err := a2ui.Render(a2ui.WithCatalog(basicCatalog()), a2ui.WithActivity())
	if err != nil {
		return nil, err
	}
	provider, err := m.New(loop.ProviderFunc(a2uiModel))
	if err != nil {
		return nil, err
	}
	return loop.New(provider, loop.WithTools(render), loop.WithBeforeModelCall(a2ui.InsertAction),
		loop.WithInstructions("You are a travel assistant with a visual display. To show a trip, call render_a2ui "+
			"with a Card of Text, Column, Row and Button components; a button's action is "+
			`{"event":{"name":…,"context":{…}}}. When the user presses a button, answer what they chose.`))
}

// tripSurface is the card the scripted model paints: a title, the trip's
// details bound to the data model, its highlights repeated from a list,
// and two buttons whose actions carry the trip's city and nights.
func tripSurface() a2ui.Surface {
	text := func(id string, text any, variant string) a2ui.Component {
		return a2ui.Component{ID: id, Type: "Text", Props: map[string]any{"text": text, "variant": variant}}
	}
	button := func(id, label, action, variant string) []a2ui.Component {
		ctx := map[string]any{"city": a2ui.Path("/city"), "nights": a2ui.Path("/nights")}
		return []a2ui.Component{
			text(id+"-label", label, "body"),
			{ID: id, Type: "Button", Props: map[string]any{"child": id + "-label", "variant": variant,
				"action": map[string]any{"event": map[string]any{"name": action, "context": ctx}}}},
		}
	}
	cs := []a2ui.Component{
		{ID: "root", Type: "Card", Props: map[string]any{"child": "body"}},
		{ID: "body", Type: "Column", Props: map[string]any{"children": []string{"title", "details", "highlights", "actions"}}},
		text("title", a2ui.Path("/title"), "h3"),
		text("details", a2ui.Path("/details"), "caption"),
		{ID: "highlights", Type: "Column", Props: map[string]any{"children": a2ui.Template("highlight", "/highlights")}},
		text("highlight", a2ui.Path("text"), "body"),
		{ID: "actions", Type: "Row", Props: map[string]any{"children": []string{"book", "skip"}}},
	}
	cs = append(cs, button("book", "Book it", "book_trip", "primary")...)
	cs = append(cs, button("skip", "Not now", "dismiss_trip", "borderless")...)
	return a2ui.Surface{ID: "trip", Components: cs, Data: map[string]any{
		"title":   "A weekend in Oslo",
		"details": "2 nights · from €420 for two",
		"city":    "Oslo",
		"nights":  2,
		"highlights": []map[string]string{
			{"text": "Sauna on the fjord"}, {"text": "The Munch museum"}, {"text": "Dinner at Mathallen"},
		},
	}}
}

// a2uiModel is the scripted model of newA2UIAgent. It answers a click
// (the action's words a2ui.InsertAction adds) by quoting it, a painted
// surface with a sentence, and a user message by calling render_a2ui with
// tripSurface.
func a2uiModel(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(loop.Delta{}, err)
			return
		}
		// A click's words are in this run's requests only
		// (a2ui.InsertAction), never in the thread.
		for _, m := range req.Messages {
			if u, ok := m.(*agui.UserMessage); ok && strings.HasPrefix(u.Content.String(), actionPrefix) {
				yield(loop.Delta{Text: "You pressed a button on the card. " + u.Content.String()}, nil)
				return
			}
		}
		if n := len(req.Messages); n > 0 {
			if _, ok := req.Messages[n-1].(*agui.ToolMessage); ok {
				yield(loop.Delta{Text: "Here is a weekend in Oslo. Book it, or tell me what you would rather do."}, nil)
				return
			}
		}
		args, err := json.Marshal(tripSurface())
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		if !yield(loop.Delta{Text: "Let me show you a trip."}, nil) {
			return
		}
		yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: a2ui.RenderToolName, Args: string(args)}}, nil)
	}
}
