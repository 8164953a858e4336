package loop

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agui-go/agui"
)

// ReasonToolApproval is the reason of the interrupt a call paused for
// approval raises.
const ReasonToolApproval = "tool_approval"

// approvalSchema is the responseSchema of an approval interrupt: the answer
// the client sends back as the resume payload. The payload is optional: a
// resolved entry without one approves, a cancelled entry rejects.
func approvalSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"approved": map[string]any{"type": "boolean"},
			"reason":   map[string]any{"type": "string"},
			"arguments": map[string]any{
				"type":        "object",
				"description": "the call's arguments as edited by the user; omit to run the call as the model asked",
			},
		},
		"required": []any{"approved"},
	}
}

// approvalInterrupt is the AG-UI interrupt for a pending approval.
func approvalInterrupt(p *PendingApproval, call agui.ToolCall) agui.Interrupt {
	in := agui.NewInterrupt(p.InterruptID, ReasonToolApproval)
	in.ToolCallID = p.ToolCallID
	in.Message = fmt.Sprintf("Approve the call to %s?", call.Function.Name)
	in.ResponseSchema = approvalSchema()
	in.Metadata = map[string]any{"toolName": call.Function.Name, "arguments": call.Function.Arguments}
	if !p.ExpiresAt.IsZero() {
		in.ExpiresAt = p.ExpiresAt.UTC().Format(time.RFC3339Nano)
	}
	return in
}

// decide reads the resume entries' answer to p. Every entry must answer p:
// an entry for any other interrupt is stale or foreign, and acting on part
// of a resume would hide that.
func decide(p *PendingApproval, resume []agui.ResumeEntry) (*Decision, error) {
	if len(resume) == 0 {
		return nil, agui.NewError(CodeBadResume, "the thread awaits an approval: answer the interrupt of the run that paused it")
	}
	var found *agui.ResumeEntry
	for i := range resume {
		e := &resume[i]
		if e.InterruptID != p.InterruptID {
			return nil, agui.NewError(CodeBadResume, "the resume answers an interrupt that is not pending on this thread")
		}
		if found != nil {
			return nil, agui.NewError(CodeBadResume, "the resume answers the pending interrupt more than once")
		}
		found = e
	}
	if p.Question {
		return answerOf(found)
	}
	switch found.Status {
	case agui.ResumeCancelled:
		return &Decision{Approved: false, Reason: "cancelled by user"}, nil
	case agui.ResumeResolved:
	default:
		return nil, agui.NewError(CodeBadResume, `the resume status must be "resolved" or "cancelled"`)
	}
	if found.Payload == nil {
		// A generic client answers an interrupt with its status alone:
		// resolved approves, as cancelled rejects.
		return &Decision{Approved: true}, nil
	}
	raw, err := payloadJSON(found.Payload)
	if err != nil {
		return nil, agui.NewError(CodeBadResume, "the resume payload is not JSON")
	}
	var answer struct {
		Approved  *bool           `json:"approved"`
		Reason    string          `json:"reason"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Approved == nil {
		return nil, agui.NewError(CodeBadResume, `resume payload must be an object with a boolean "approved"`)
	}
	args, err := editedArgs(answer.Arguments)
	if err != nil {
		return nil, err
	}
	return &Decision{Approved: *answer.Approved, Reason: answer.Reason, Args: args}, nil
}

// payloadJSON returns a resume payload as JSON, whether it was decoded
// from the wire (json.RawMessage) or built in Go.
func payloadJSON(p any) (json.RawMessage, error) {
	switch v := p.(type) {
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	default:
		return json.Marshal(v)
	}
}
