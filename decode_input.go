package agui

import (
	"strings"

	"github.com/agui-go/agui/internal/jsonx"
)

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
// The input shares no memory with data, which the caller may reuse. Its
// strings are slices of one copy of data (one allocation for all of
// them), so a string kept keeps that copy alive; its messages are
// allocated a few at a time.
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
	if in, ok := readInput(data, cfg.strict); ok {
		return in, nil
	}
	return decodeInput(data, cfg.strict)
}

// decodeInput is DecodeInput through the index of the whole body
// ([jsonx.Parse]): the way to every error, and to any input [readInput]
// does not read.
func decodeInput(data []byte, strict bool) (*RunAgentInput, error) {
	v, perr := jsonx.ParseObject(data)
	if perr != nil {
		return nil, inputError(perr)
	}
	d := &decoder{Decoder: jsonx.Decoder{Strict: strict}}
	in := d.input(d.Object(v), false)
	if d.Err() != nil {
		return nil, inputError(d.Err())
	}
	return in, nil
}

// input decodes a RunAgentInput: a request body, or the input echoed in
// RUN_STARTED (echo), where the consumer's version is not ours to judge.
func (d *decoder) input(o *jsonx.Object, echo bool) *RunAgentInput {
	in := &RunAgentInput{ThreadID: o.Str("threadId"), RunID: o.Str("runId")}
	if v, ok := o.Optional("protocolVersion"); ok {
		in.ProtocolVersion = d.Str(v)
		if major, _, _ := strings.Cut(in.ProtocolVersion, "."); !echo && d.Err() == nil && major != "1" {
			d.FailAt(v, "unsupported protocol version %q: this server speaks 1.x", in.ProtocolVersion)
		}
	}
	in.ParentRunID = o.OptStr("parentRunId")
	in.State = o.OptRaw("state")
	in.Messages = d.messages(o.Array("messages", true))
	in.Tools = d.tools(o.Array("tools", false))
	in.Context = d.contextItems(o.Array("context", false))
	in.ForwardedProps = o.OptRaw("forwardedProps")
	if elems := o.Array("resume", false); elems != nil {
		in.Resume = d.resume(elems)
	}
	o.Finish()
	return in
}

// tools decodes the tools array; absent reads as empty.
func (d *decoder) tools(elems []jsonx.Value) []Tool {
	out := make([]Tool, 0, len(elems))
	for _, e := range elems {
		o := d.Object(e)
		out = append(out, Tool{
			Name: o.Str("name"), Description: o.Str("description"),
			Parameters: o.OptRaw("parameters"), Metadata: o.OptMap("metadata"),
		})
		o.Finish()
	}
	return out
}

// contextItems decodes the context array; absent reads as empty.
func (d *decoder) contextItems(elems []jsonx.Value) []ContextItem {
	out := make([]ContextItem, 0, len(elems))
	for _, e := range elems {
		o := d.Object(e)
		out = append(out, ContextItem{Description: o.Str("description"), Value: o.Str("value")})
		o.Finish()
	}
	return out
}

// resume decodes the answers to an earlier run's interrupts.
func (d *decoder) resume(elems []jsonx.Value) []ResumeEntry {
	out := make([]ResumeEntry, 0, len(elems))
	for _, e := range elems {
		o := d.Object(e)
		out = append(out, ResumeEntry{
			InterruptID: o.Str("interruptId"),
			Status: ResumeStatus(o.Enum("status", true, "status",
				string(ResumeResolved), string(ResumeCancelled))),
			Payload:  o.OptRaw("payload"),
			Metadata: o.OptMap("metadata"),
		})
		o.Finish()
	}
	return out
}
