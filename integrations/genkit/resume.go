package genkit

import (
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
)

// resumed is how a run answers the interrupts of an earlier one.
type resumed struct {
	// history ends with the model message whose tool calls were
	// interrupted: Genkit resumes from there.
	history []*ai.Message
	opts    []ai.GenerateOption
	// answered are the calls whose results the client has already.
	answered map[string]bool
}

// resume answers the interrupted tool calls of the history's last model
// message. The tool messages after it (results of the calls that finished
// before the interrupt) are handed back as responses; each interrupt's
// answer becomes a response or a restart:
//
//   - resolved with a payload: the payload is the tool's output
//     (ai.WithToolResponses);
//   - resolved without a payload: the tool runs again
//     (ai.WithToolRestarts), with the entry's metadata, or true, as its
//     "resumed" metadata, which the tool reads from its ai.ToolContext;
//   - cancelled: the payload, or the text "cancelled by the user", is the
//     tool's output.
func resume(history []*ai.Message, entries []agui.ResumeEntry) (*resumed, error) {
	last := len(history) - 1
	for last >= 0 && history[last].Role == ai.RoleTool {
		last--
	}
	if last < 0 || history[last].Role != ai.RoleModel {
		return nil, agui.NewError(loop.CodeBadResume, "genkit: a resume needs the assistant message whose tool calls it answers")
	}
	r := &resumed{history: history[:last+1], answered: map[string]bool{}}
	done := map[string]*ai.ToolResponse{}
	for _, m := range history[last+1:] {
		for _, p := range m.Content {
			if p.IsToolResponse() {
				done[p.ToolResponse.Ref] = p.ToolResponse
			}
		}
	}
	byID := make(map[string]agui.ResumeEntry, len(entries))
	for _, e := range entries {
		if raw, ok := e.Payload.(json.RawMessage); ok {
			// A decoded input keeps the payload as JSON; Genkit takes values.
			e.Payload = decode(string(raw))
		}
		byID[e.InterruptID] = e
	}
	var respond, restart []*ai.Part
	for _, p := range history[last].Content {
		if !p.IsToolRequest() {
			continue
		}
		ref := p.ToolRequest.Ref
		if tr, ok := done[ref]; ok {
			respond = append(respond, ai.NewToolResponsePart(tr))
			r.answered[ref] = true
			continue
		}
		e, ok := byID[ref]
		if !ok {
			return nil, agui.NewError(loop.CodeBadResume, fmt.Sprintf("genkit: the resume does not answer tool call %s", ref))
		}
		delete(byID, ref)
		switch {
		case e.Status == agui.ResumeResolved && e.Payload == nil:
			meta := any(true)
			if e.Metadata != nil {
				meta = e.Metadata
			}
			rp := ai.NewToolRequestPart(&ai.ToolRequest{Name: p.ToolRequest.Name, Ref: ref, Input: p.ToolRequest.Input})
			rp.Metadata = map[string]any{"resumed": meta}
			restart = append(restart, rp)
		case e.Status == agui.ResumeResolved:
			respond = append(respond, answer(p, e.Payload))
		default:
			out := e.Payload
			if out == nil {
				out = "cancelled by the user"
			}
			respond = append(respond, answer(p, out))
		}
	}
	for id := range byID {
		return nil, agui.NewError(loop.CodeBadResume, fmt.Sprintf("genkit: the resume answers %s, which is not an interrupted tool call", id))
	}
	if len(respond) > 0 {
		r.opts = append(r.opts, ai.WithToolResponses(respond...))
	}
	if len(restart) > 0 {
		r.opts = append(r.opts, ai.WithToolRestarts(restart...))
	}
	return r, nil
}

// answer is the response part giving output to the tool request p.
func answer(p *ai.Part, output any) *ai.Part {
	rp := ai.NewResponseForToolRequest(p, output)
	rp.Metadata = map[string]any{"interruptResponse": true}
	return rp
}
