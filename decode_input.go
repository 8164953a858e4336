package agui

import "strings"

// DecodeOption configures DecodeInput. Options hold no state of their own
// and may be shared between goroutines and reused.
type DecodeOption func(*decodeOptions)

type decodeOptions struct {
	strict bool
}

// Strict makes DecodeInput reject any key the protocol does not describe,
// at any depth, with the error "<path>: unknown field". Opaque values
// (state, forwardedProps, tool parameters, metadata, resume payloads) are
// not inspected. The default is lenient: unknown keys are ignored, as the
// protocol asks of a server so that newer clients keep working.
func Strict() DecodeOption {
	return func(o *decodeOptions) { o.strict = true }
}

// DecodeInput decodes and checks the body of a run request.
//
// It is lenient where the protocol is: unknown keys are ignored (see
// Strict), absent tools and context read as empty non-nil slices, and an
// optional field holding null, such as state or forwardedProps, reads as
// absent. Opaque values (state, forwardedProps, tool parameters, resume
// payloads) are kept as compact json.RawMessage.
//
// It rejects what a 1.0 server cannot serve: threadId, runId and messages
// missing or of the wrong type; a message with an unknown role or invalid
// content; a resume entry whose status is neither resolved nor cancelled;
// a protocolVersion whose major version is not 1 ("1" and "1.x" are
// served; an absent one means a client older than 1.0).
//
// Every error is an *InputError whose Field is the JSON path of the bad
// value, for example `messages[2].role: unknown role "robot"`. Its
// Malformed flag tells a body that is not a JSON object (HTTP 400) from one
// whose content is invalid (HTTP 422).
func DecodeInput(data []byte, opts ...DecodeOption) (*RunAgentInput, error) {
	var cfg decodeOptions
	for _, opt := range opts {
		opt(&cfg)
	}
	v, perr := parseDocument(data)
	if perr != nil {
		return nil, perr
	}
	d := &decoder{strict: cfg.strict}
	in := d.input(d.object(v), false)
	if d.err != nil {
		return nil, d.err
	}
	return in, nil
}

// input decodes a RunAgentInput: a request body, or the input echoed in
// RUN_STARTED (echo), where the consumer's version is not ours to judge.
func (d *decoder) input(o *object, echo bool) *RunAgentInput {
	in := &RunAgentInput{ThreadID: o.str("threadId"), RunID: o.str("runId")}
	if v, ok := o.optional("protocolVersion"); ok {
		in.ProtocolVersion = d.str(v)
		if major, _, _ := strings.Cut(in.ProtocolVersion, "."); !echo && d.err == nil && major != "1" {
			d.failAt(v, "unsupported protocol version %q: this server speaks 1.x", in.ProtocolVersion)
		}
	}
	in.ParentRunID = o.optStr("parentRunId")
	in.State = o.optRaw("state")
	in.Messages = d.messages(o.arr("messages", true))
	in.Tools = d.tools(o.arr("tools", false))
	in.Context = d.contextItems(o.arr("context", false))
	in.ForwardedProps = o.optRaw("forwardedProps")
	if elems := o.arr("resume", false); elems != nil {
		in.Resume = d.resume(elems)
	}
	o.finish()
	return in
}

// tools decodes the tools array; absent reads as empty.
func (d *decoder) tools(elems []value) []Tool {
	out := make([]Tool, 0, len(elems))
	for _, e := range elems {
		o := d.object(e)
		out = append(out, Tool{
			Name: o.str("name"), Description: o.str("description"),
			Parameters: o.optRaw("parameters"), Metadata: o.optMap("metadata"),
		})
		o.finish()
	}
	return out
}

// contextItems decodes the context array; absent reads as empty.
func (d *decoder) contextItems(elems []value) []ContextItem {
	out := make([]ContextItem, 0, len(elems))
	for _, e := range elems {
		o := d.object(e)
		out = append(out, ContextItem{Description: o.str("description"), Value: o.str("value")})
		o.finish()
	}
	return out
}

// resume decodes the answers to an earlier run's interrupts.
func (d *decoder) resume(elems []value) []ResumeEntry {
	out := make([]ResumeEntry, 0, len(elems))
	for _, e := range elems {
		o := d.object(e)
		out = append(out, ResumeEntry{
			InterruptID: o.str("interruptId"),
			Status: ResumeStatus(o.enum("status", true, "status",
				string(ResumeResolved), string(ResumeCancelled))),
			Payload:  o.optRaw("payload"),
			Metadata: o.optMap("metadata"),
		})
		o.finish()
	}
	return out
}
