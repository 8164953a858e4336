// Package a2ui gives a loop agent generative UI surfaces in A2UI v0.9
// (https://a2ui.org): the model describes a surface (cards, rows, lists
// bound to a data model) as a flat list of components, the package checks
// it and hands the client the A2UI operations that paint it.
//
// Quick start, one model writing surfaces itself:
//
//	render, err := a2ui.Render(a2ui.WithCatalog(catalog))
//	agent, err := loop.New(provider, loop.WithTools(render))
//
// or the planner and sub-agent pattern, where the agent's model only
// decides that a surface helps and a second model call writes it:
//
//	generate, err := a2ui.Generate(provider, a2ui.WithCatalog(catalog))
//	agent, err := loop.New(provider, loop.WithTools(generate))
//
// # What the client gets
//
// A valid surface becomes the tool result {"a2ui_operations":[…]}
// ([Envelope]: createSurface, updateComponents, updateDataModel), which
// the A2UI middleware of the AG-UI runtime (CopilotKit, the AG-UI Dojo)
// paints; with [WithActivity] the same operations also go out as an
// ACTIVITY_SNAPSHOT of type "a2ui-surface", for clients that paint
// activities themselves. A tool whose data is fixed builds its surface in
// Go ([Surface], [Component], [Template], [Path]) and returns
// Envelope{Operations: s.Operations()}.
//
// # Checking and retrying
//
// [Validate] checks a surface's structure: a surface id, an id and a type
// on each component, unique ids, a component "root", child references
// that resolve, no cycles, and with a [Catalog] known types and their
// required properties; each [Problem] has a stable code. Work is bounded
// ([Limits]): a surface over 500 components is refused whole. An invalid
// surface is never painted. [Render] answers it with an error result that
// lists the problems, so the model's next turn fixes them; [Generate]
// retries its sub-model with the problems appended to its prompt. After
// [WithMaxAttempts] invalid surfaces (3 by default) both answer with the
// [Failure] {"error":"Failed to generate valid A2UI after 3 attempt(s)",
// "code":"a2ui_recovery_exhausted","attempts":[…]}, which the middleware
// shows as the surface's failed state.
//
// # User actions
//
// A button on a surface sends its action with the next run, in the
// input's forwardedProps ({"a2uiAction":{"userAction":{…}}});
// [ActionFrom] reads it and [Action.Message] says it in words.
// [InsertAction], given to the loop, tells the model:
//
//	agent, err := loop.New(provider, loop.WithTools(render), loop.WithBeforeModelCall(a2ui.InsertAction))
//
// # Concurrency
//
// The tools are safe for concurrent use by any number of runs. Every
// other type is a plain value.
package a2ui
