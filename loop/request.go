package loop

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agui-go/agui"
)

// toolSpecs are the tools offered to the model: the agent's, then the
// input's frontend tools.
func (r *run) toolSpecs() ([]ToolSpec, error) {
	v, err := r.checkFrontend()
	if err != nil {
		return nil, err
	}
	if len(r.frontSpecs) == 0 {
		return v.specs, nil
	}
	return slices.Concat(v.specs, r.frontSpecs), nil
}

// instructions is the system prompt of a model turn: the agent's
// instructions, then the rendering of the shared state and the client's
// context (see [WithRenderContext]).
func (r *run) instructions() string {
	var state json.RawMessage
	if r.st != nil {
		state = r.st.snapshot()
	}
	if state == nil && len(r.context) == 0 {
		return r.a.cfg.instructions
	}
	render := r.a.cfg.renderState
	if render == nil {
		render = DefaultRender
	}
	extra := render(state, r.context)
	switch {
	case extra == "":
		return r.a.cfg.instructions
	case r.a.cfg.instructions == "":
		return extra
	}
	return r.a.cfg.instructions + "\n\n" + extra
}

// DefaultRender is how the model sees the shared state and the client's
// context unless [WithRenderContext] says otherwise: the state as JSON, then
// each context item as "description: value".
func DefaultRender(state json.RawMessage, items []agui.ContextItem) string {
	var b strings.Builder
	if state != nil {
		b.WriteString("The shared state of this conversation (JSON, seen by the user's application):\n")
		b.Write(state)
	}
	if len(items) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Context from the user's application:")
		for _, it := range items {
			b.WriteString("\n- ")
			b.WriteString(it.Description)
			b.WriteString(": ")
			b.WriteString(it.Value)
		}
	}
	return b.String()
}

// WithRenderContext sets how the shared state (its JSON, nil for an agent
// without state) and the input's context items are rendered into the
// system prompt of each model turn, after [WithInstructions] (default
// [DefaultRender]). f's text is appended after a blank line; "" adds
// nothing. f is called on the run's goroutine, once per model turn.
func WithRenderContext(f func(state json.RawMessage, items []agui.ContextItem) string) Option {
	return func(c *config) error { c.renderState = f; return nil }
}

// WithAdoptHistory sets whether a run on a thread the store has no checkpoint
// for (a restart with the in-memory store, another replica without a
// shared store) takes the client's messages as the thread's transcript
// (default true). The adopted history is never executed: a tool call in it
// without a result gets a "not-run" error result, results for unknown
// calls are dropped, and results are put in call order. With false, only
// the input's user, system and developer messages are kept, as for a
// known thread.
func WithAdoptHistory(on bool) Option {
	return func(c *config) error { c.noAdopt = !on; return nil }
}
