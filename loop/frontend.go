package loop

import (
	"encoding/json"
	"slices"

	"github.com/agui-go/agui"
)

// Frontend tools are the tools of RunAgentInput.tools: the client runs
// them. The loop offers them to the model beside its own tools; a turn
// that calls one runs its server calls as usual, records which calls
// await the client (Checkpoint.ClientCalls) and ends the run with
// FinishAwaitingClient, a success, as AG-UI clients expect. The next run
// brings the results as tool messages; a result for any other call id is
// ignored, and a pending call the next run brings no result for gets a
// "not-run" error result, so the transcript stays valid for the provider.

// frontendTools checks the input's tools against the agent's and returns
// them by name with their specs for the model. A name used twice, or the
// name of an agent tool, fails with CodeToolNameClash. The tools of the
// agent's tool sets change while it lives: [run.checkFrontend] checks them
// before every model turn.
func (a *Agent) frontendTools(in []agui.Tool) (map[string]agui.Tool, []ToolSpec, error) {
	if len(in) == 0 {
		return nil, nil, nil
	}
	byName := make(map[string]agui.Tool, len(in))
	specs := make([]ToolSpec, 0, len(in))
	for _, t := range in {
		if _, dup := a.tools[t.Name]; dup {
			return nil, nil, agui.NewError(CodeToolNameClash, "frontend tool "+t.Name+" has the name of an agent tool")
		}
		if _, dup := byName[t.Name]; dup {
			return nil, nil, agui.NewError(CodeToolNameClash, "two frontend tools named "+t.Name)
		}
		if t.Name == "" {
			return nil, nil, agui.NewError(CodeToolNameClash, "frontend tool with an empty name")
		}
		byName[t.Name] = t
		specs = append(specs, ToolSpec{Name: t.Name, Description: t.Description, Schema: frontendSchema(t.Parameters)})
	}
	return byName, specs, nil
}

// checkFrontend takes the tools of this moment (the agent's own and those
// of its tool sets) and fails with CodeToolNameClash when a frontend tool
// has the name of one of them: a client must never replace a server tool,
// or a call the model meant for the server would become a call the client
// answers, with a result the client forges. It runs before the run claims
// its thread and before every model turn, since a tool set's list can
// grow between turns.
func (r *run) checkFrontend() (*toolView, error) {
	v := r.refreshTools()
	for _, s := range r.frontSpecs {
		if _, clash := v.byName[s.Name]; clash {
			return v, agui.NewError(CodeToolNameClash, "frontend tool "+s.Name+" has the name of a server tool")
		}
	}
	return v, nil
}

// frontendSchema is a frontend tool's parameters as JSON: an object
// schema without properties when the client gave none or an invalid one.
func frontendSchema(p any) json.RawMessage {
	const empty = `{"type":"object","properties":{}}`
	var raw []byte
	switch v := p.(type) {
	case nil:
		return json.RawMessage(empty)
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return json.RawMessage(empty)
		}
		raw = b
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return json.RawMessage(empty)
	}
	return append(json.RawMessage(nil), raw...)
}

// acceptClientResults turns the input's tool messages for the thread's
// pending frontend calls into parked results, and gives every pending
// call the input brings no result for a "not-run" result that the batch
// announces when it reaches the call. Tool messages for any other call
// are ignored: the client cannot inject results.
func (r *run) acceptClientResults(in []agui.Message) {
	if len(r.cp.ClientCalls) == 0 {
		return
	}
	known := map[string]bool{}
	for _, m := range r.cp.Messages {
		known[m.MessageID()] = true
	}
	given := map[string]*agui.ToolMessage{}
	for _, m := range in {
		if tm, ok := m.(*agui.ToolMessage); ok && given[tm.ToolCallID] == nil && slices.Contains(r.cp.ClientCalls, tm.ToolCallID) {
			given[tm.ToolCallID] = tm
		}
	}
	parked := slices.Clone(r.cp.Parked)
	for _, id := range r.cp.ClientCalls {
		tm := given[id]
		if tm == nil {
			parked = append(parked, r.errorResult(id, KindNotRun, "not run: the client sent no result for this call"))
			r.announce[id] = true
			continue
		}
		res := &agui.ToolMessage{ID: tm.ID, ToolCallID: id, Content: tm.Content, Error: tm.Error}
		if res.ID == "" || known[res.ID] {
			res.ID = newID("result")
		}
		parked = append(parked, res)
	}
	r.cp.Parked, r.cp.ClientCalls = parked, nil
}

// takeParked removes and returns the parked result of call id, or nil.
func (r *run) takeParked(id string) *agui.ToolMessage {
	i := slices.IndexFunc(r.cp.Parked, func(m *agui.ToolMessage) bool { return m.ToolCallID == id })
	if i < 0 {
		return nil
	}
	res := r.cp.Parked[i]
	r.cp.Parked = slices.Delete(slices.Clone(r.cp.Parked), i, i+1)
	return res
}

// park keeps the results past the answered prefix of a batch that stops
// for the client or an approval.
func (r *run) park(results []*agui.ToolMessage, prefix int) {
	for _, res := range results[prefix:] {
		if res != nil {
			r.cp.Parked = append(slices.Clip(r.cp.Parked), res)
		}
	}
}
