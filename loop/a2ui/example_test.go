package a2ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// A tool with fixed data builds its surface in Go: a row repeating a card
// over the data model's list.
func ExampleSurface_Operations() {
	s := a2ui.Surface{
		ID:        "flights",
		CatalogID: "https://a2ui.org/demos/dojo/fixed_catalog.json",
		Components: []a2ui.Component{
			{ID: "root", Type: "Row", Props: map[string]any{"children": a2ui.Template("card", "/flights")}},
			{ID: "card", Type: "FlightCard", Props: map[string]any{"airline": a2ui.Path("airline"), "price": a2ui.Path("price")}},
		},
		Data: map[string]any{"flights": []any{map[string]any{"airline": "United", "price": "$289"}}},
	}
	b, _ := json.Marshal(a2ui.Envelope{Operations: s.Operations()})
	fmt.Println(string(b))
	// Output:
	// {"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"flights","catalogId":"https://a2ui.org/demos/dojo/fixed_catalog.json"}},{"version":"v0.9","updateComponents":{"surfaceId":"flights","components":[{"children":{"componentId":"card","path":"/flights"},"component":"Row","id":"root"},{"airline":{"path":"airline"},"component":"FlightCard","id":"card","price":{"path":"price"}}]}},{"version":"v0.9","updateDataModel":{"surfaceId":"flights","path":"/","value":{"flights":[{"airline":"United","price":"$289"}]}}}]}
}

func ExampleValidate() {
	var s a2ui.Surface
	_ = json.Unmarshal([]byte(`{"surfaceId":"hotels","components":[
		{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}},
		{"id":"root","component":"Marquee"}]}`), &s)
	catalog := &a2ui.Catalog{ID: "dojo", Components: map[string]a2ui.ComponentType{"Row": {Required: []string{"children"}}, "HotelCard": {}}}
	for _, p := range a2ui.Validate(s, catalog, a2ui.Limits{}) {
		fmt.Println(p)
	}
	// Output:
	// [A2UI_DUPLICATE_ID] components[1].id: id "root" is also components[0]'s
	// [A2UI_UNKNOWN_COMPONENT] components[1].component: "Marquee" is not in the catalog; use one of HotelCard, Row
	// [A2UI_UNRESOLVED_CHILD] components[0].children.componentId: "card" is not the id of a component
}

// The model calls render_a2ui; the result it and the client get is the
// envelope.
func ExampleRender() {
	render, err := a2ui.Render()
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "render_a2ui", Args: `{"surfaceId":"hi","catalogId":"basic","components":[{"id":"root","component":"Text","text":"Hello"}]}`}}},
		loop.Turn{Text: "Shown."})
	agent, err := loop.New(model, loop.WithTools(render))
	if err != nil {
		panic(err)
	}
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{loop.UserText("Greet me")}}
	for ev, err := range core.Run(context.Background(), core.Agent[core.NoState](agent), in) {
		if r, ok := ev.(*agui.ToolCallResult); ok && err == nil {
			fmt.Println(r.Content.String())
		}
	}
	// Output:
	// {"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"hi","catalogId":"basic"}},{"version":"v0.9","updateComponents":{"surfaceId":"hi","components":[{"component":"Text","id":"root","text":"Hello"}]}}]}
}

// The planner's model calls generate_a2ui; the tool asks a second model
// call, forced onto render_a2ui, for the surface, and retries once it
// told the model what was wrong.
func ExampleGenerate() {
	attempts := 0
	sub := loop.ProviderFunc(func(_ context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		attempts++
		args := `{"surfaceId":"s","components":[{"id":"top","component":"Text"}]}` // no root
		if attempts > 1 {
			args = `{"surfaceId":"s","components":[{"id":"root","component":"Text"}]}`
		}
		return func(yield func(loop.Delta, error) bool) {
			yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: req.Settings.ToolChoice.Name, Args: args}}, nil)
		}
	})
	generate, err := a2ui.Generate(sub, a2ui.WithCatalog(a2ui.Catalog{ID: "basic", Components: map[string]a2ui.ComponentType{"Text": {}}}))
	if err != nil {
		panic(err)
	}
	planner := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "generate_a2ui", Args: `{"prompt":"a greeting card"}`}}},
		loop.Turn{Text: "Done!"})
	agent, err := loop.New(planner, loop.WithTools(generate))
	if err != nil {
		panic(err)
	}
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{loop.UserText("Greet me")}}
	for ev, err := range core.Run(context.Background(), core.Agent[core.NoState](agent), in) {
		if r, ok := ev.(*agui.ToolCallResult); ok && err == nil {
			fmt.Println(attempts, "attempts:", r.Content.String())
		}
	}
	// Output:
	// 2 attempts: {"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"basic"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"root"}]}}]}
}

// A click on a surface's button arrives in the next run's forwardedProps.
func ExampleActionFrom() {
	in := &agui.RunAgentInput{ForwardedProps: json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_flight","surfaceId":"flights","sourceComponentId":"card","context":{"flight":"UA 123"}}}}`)}
	if a, ok := a2ui.ActionFrom(in); ok {
		fmt.Println(a.Message())
	}
	// Output:
	// User performed action "book_flight" on surface "flights" (component: card). Context: {"flight":"UA 123"}
}

// Operations decode only as A2UI v0.9 defines them.
func ExampleOperation() {
	var op a2ui.Operation
	err := json.Unmarshal([]byte(`{"version":"v0.9","deleteSurface":{"surfaceId":"flights"}}`), &op)
	fmt.Println(op.SurfaceID(), err)
	err = json.Unmarshal([]byte(`{"version":"v0.9","beginRendering":{"surfaceId":"flights"}}`), &op)
	fmt.Println(agui.CodeOf(err))
	// Output:
	// flights <nil>
	// A2UI_UNKNOWN_OPERATION
}

// The model hears of a click in the run it starts, after the messages the
// page sent.
func ExampleInsertAction() {
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r2",
		Messages:       []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Find flights")}},
		ForwardedProps: json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_flight","surfaceId":"flights"}}}`)}
	req := loop.ModelRequest{Messages: in.Messages}
	req, _ = a2ui.InsertAction(core.ContextWithInput(context.Background(), in), req)
	for _, m := range req.Messages {
		fmt.Println(m.Role(), m.(*agui.UserMessage).Content.String())
	}
	// Output:
	// user Find flights
	// user User performed action "book_flight" on surface "flights". Context: {}
}
