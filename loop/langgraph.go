package loop

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agui-go/agui"
)

// EventOnInterrupt is the name of the CUSTOM event that announces a pause
// under [WithLangGraphInterrupts].
const EventOnInterrupt = "on_interrupt"

// MaxCommandResume bounds forwardedProps.command.resume, in bytes of
// JSON: an answer is a choice, not a document.
const MaxCommandResume = 64 << 10

// WithLangGraphInterrupts makes the agent pause in LangGraph's dialect
// (default off: a pause is an AG-UI interrupt, RUN_FINISHED with an
// interrupt outcome, resumed from RunAgentInput.resume). It is the
// compatibility mode for clients built on CopilotKit's
// useLangGraphInterrupt, which ignore interrupt outcomes and stop sending
// the resume when they see one.
//
// A pause (a question's call, see [NewQuestion], or an approval) then
// ends the run with a CUSTOM event named [EventOnInterrupt], whose value
// is a JSON string, and a plain successful RUN_FINISHED whose result's
// finishReason is "awaiting-approval". The value is the question's prompt
// ([Prompt]), or the AG-UI interrupt the other dialect would have sent.
// The pending call stays in the checkpoint as any pause does. The next
// run answers it with forwardedProps.command.resume: the value the page
// resolved (a string holding JSON is read as that JSON), the payload an
// AG-UI resume would carry, checked the same way; one that is not JSON,
// is over [MaxCommandResume], or comes when nothing is pending fails the
// run with [CodeBadResume] before anything runs. RunAgentInput.resume,
// when the input has one, wins; [Agent.Execute], which has no
// forwardedProps, is resumed by [Input].Resume as ever.
func WithLangGraphInterrupts() Option {
	return func(c *config) error { c.langGraph = true; return nil }
}

// Prompt returns question t (see [NewQuestion]) with prompt, which says
// what the user chooses from when a call pauses: say, the options a
// search found and the one it recommends. prompt gets the call's
// arguments and its value must marshal to JSON; it is computed when the
// run pauses. The value is the on_interrupt event's under
// [WithLangGraphInterrupts], and the AG-UI interrupt's metadata "prompt"
// otherwise. The error is for a t that is not a question.
func Prompt[In any](t Tool, prompt func(ctx context.Context, in In) any) (Tool, error) {
	if t.question == nil {
		return Tool{}, errors.New("loop: Prompt " + t.spec.Name + ": not a question")
	}
	if prompt == nil {
		return Tool{}, errors.New("loop: Prompt " + t.spec.Name + ": nil function")
	}
	q := *t.question
	q.prompt = func(ctx context.Context, args json.RawMessage) (any, bool) {
		var in In
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, false // validated before the pause; kept for safety
		}
		return prompt(ctx, in), true
	}
	t.question = &q
	return t, nil
}

// onInterrupt is the on_interrupt event of a paused run: the question's
// prompt, else the interrupt itself, as a JSON string.
func onInterrupt(in *agui.Interrupt) (*agui.Custom, error) {
	var v any = in
	if p, ok := in.Metadata["prompt"]; ok {
		v = p
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &agui.Custom{Name: EventOnInterrupt, Value: string(b)}, nil
}

// commandResume reads forwardedProps.command.resume (nil: none).
func commandResume(forwarded any) (json.RawMessage, error) {
	if forwarded == nil {
		return nil, nil
	}
	raw, err := payloadJSON(forwarded)
	if err != nil {
		return nil, nil // not ours to judge: forwardedProps is free-form
	}
	var props struct {
		Command *struct {
			Resume json.RawMessage `json:"resume"`
		} `json:"command"`
	}
	if json.Unmarshal(raw, &props) != nil || props.Command == nil || len(props.Command.Resume) == 0 || string(props.Command.Resume) == "null" {
		return nil, nil
	}
	r := props.Command.Resume
	if len(r) > MaxCommandResume {
		return nil, agui.NewError(CodeBadResume, "forwardedProps.command.resume is over 64 KiB")
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		// The page resolves with a string, usually JSON.stringify of the
		// choice; a string that is no JSON is the answer as it is.
		if json.Valid([]byte(s)) {
			return json.RawMessage(s), nil
		}
	}
	return r, nil
}

// resumeFromCommand turns a command resume into the resume entry that
// answers the checkpoint's pending call.
func resumeFromCommand(cp *Checkpoint, resume json.RawMessage) ([]agui.ResumeEntry, error) {
	if cp.Pending == nil {
		return nil, agui.NewError(CodeBadResume, "forwardedProps.command.resume given but nothing is pending on this thread")
	}
	return []agui.ResumeEntry{{InterruptID: cp.Pending.InterruptID, Status: agui.ResumeResolved, Payload: resume}}, nil
}
