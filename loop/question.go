package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agui-go/agui"
)

// ReasonUserInput is the reason of the interrupt a question tool's call
// raises (see [NewQuestion]).
const ReasonUserInput = "user_input"

// question is what makes a tool a question: the schema of the answer the
// user gives, as sent in the interrupt's responseSchema and as checked
// when the answer comes back.
type question struct {
	schema   json.RawMessage
	resolved *jsonschema.Resolved
	// prompt computes what the user chooses from (see [Prompt]); nil
	// for none.
	prompt func(ctx context.Context, args json.RawMessage) (any, bool)
}

// NewQuestion returns a tool that asks the user before it runs, such as a
// meeting booker that lets the user pick the time. A call pauses the run
// as an approval does ([FinishAwaitingApproval]): an AG-UI interrupt with
// reason "user_input" whose responseSchema is Answer's JSON Schema and
// whose metadata holds the tool's name and the model's arguments. The
// resume's payload is the answer: it is checked against Answer's schema
// (a payload that does not fit fails the resume with BAD_RESUME, the
// question still pending), then fn runs with the arguments and the
// answer. A cancelled resume gives the call a rejected result and fn does
// not run. Schemas are inferred as [NewTool] infers them.
//
// The answer is held by the run that got it: a call retried after its
// run lost the thread mid-call (see [CallFrom]) has no answer, and gets an
// error result asking the model to call again.
func NewQuestion[In, Answer, Out any](name, description string, fn func(ctx context.Context, in In, answer Answer) (Out, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, errors.New("loop: NewQuestion " + name + ": nil function")
	}
	s, err := jsonschema.For[Answer](nil)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: NewQuestion %s: answer: %w", name, err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: NewQuestion %s: answer: %w", name, err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: NewQuestion %s: answer: %w", name, err)
	}
	t, err := NewTool(name, description, func(ctx context.Context, in In) (Out, error) {
		var zero Out
		s, _ := scopeOf(ctx)
		if s.answer == nil {
			return zero, errors.New("the user's answer to this call was lost with the run that took it: call the tool again to ask again")
		}
		var answer Answer
		if err := json.Unmarshal(s.answer, &answer); err != nil {
			return zero, validationError{err}
		}
		return fn(ctx, in, answer)
	})
	if err != nil {
		return Tool{}, err
	}
	t.question = &question{schema: raw, resolved: resolved}
	return t, nil
}

// questionInterrupt is the AG-UI interrupt for a pending question.
func questionInterrupt(ctx context.Context, p *PendingApproval, call agui.ToolCall, q *question) agui.Interrupt {
	in := agui.NewInterrupt(p.InterruptID, ReasonUserInput)
	in.ToolCallID = p.ToolCallID
	in.Message = fmt.Sprintf("Answer the call to %s.", call.Function.Name)
	var schema map[string]any
	_ = json.Unmarshal(q.schema, &schema) // a schema we marshalled
	in.ResponseSchema = schema
	in.Metadata = map[string]any{"toolName": call.Function.Name, "arguments": call.Function.Arguments}
	if q.prompt != nil {
		if v, ok := q.prompt(ctx, json.RawMessage(call.Function.Arguments)); ok {
			in.Metadata["prompt"] = v
		}
	}
	if !p.ExpiresAt.IsZero() {
		in.ExpiresAt = p.ExpiresAt.UTC().Format(time.RFC3339Nano)
	}
	return in
}

// answerOf reads the resume entry's answer to a pending question: a
// resolved entry's payload is the answer (none is an empty object), a
// cancelled entry rejects the call.
func answerOf(e *agui.ResumeEntry) (*Decision, error) {
	if e.Status == agui.ResumeCancelled {
		return &Decision{Approved: false, Reason: "cancelled by user"}, nil
	}
	if e.Payload == nil {
		return &Decision{Approved: true, Answer: json.RawMessage("{}")}, nil
	}
	raw, err := payloadJSON(e.Payload)
	if err != nil {
		return nil, agui.NewError(CodeBadResume, "the resume payload is not JSON")
	}
	return &Decision{Approved: true, Answer: append(json.RawMessage(nil), raw...)}, nil
}

// checkAnswer checks an answer against the question's schema.
func (q *question) checkAnswer(callID string, answer json.RawMessage) error {
	var v any
	if err := json.Unmarshal(answer, &v); err != nil {
		return agui.NewError(CodeBadResume, "the answer to tool call "+callID+": "+err.Error())
	}
	if err := q.resolved.Validate(v); err != nil {
		return agui.NewError(CodeBadResume, "the answer to tool call "+callID+": "+err.Error())
	}
	return nil
}

// interrupt is the AG-UI interrupt of the thread's pending approval or
// question.
func (r *run) interrupt(ctx context.Context, p *PendingApproval) agui.Interrupt {
	call := r.callByID(p.ToolCallID)
	if p.Question {
		if t, ok := r.lookupTool(call.Function.Name); ok && t.question != nil {
			return questionInterrupt(ctx, p, call, t.question)
		}
	}
	return approvalInterrupt(p, call)
}

// checkAnswer checks the answer to the pending question against the
// tool's schema: an answer that does not fit fails the resume
// (BAD_RESUME) with the question still pending.
func (r *run) checkAnswer(p *PendingApproval) error {
	call := r.callByID(p.ToolCallID)
	t, ok := r.lookupTool(call.Function.Name)
	if !ok || t.question == nil {
		return nil // the call gets its not-found result
	}
	return t.question.checkAnswer(p.ToolCallID, p.Decision.Answer)
}

// keepAnswer holds the answer for the call's start.
func (r *run) keepAnswer(callID string, answer json.RawMessage) {
	if r.answers == nil {
		r.answers = map[string]json.RawMessage{}
	}
	r.answers[callID] = answer
}
