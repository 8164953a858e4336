package loop

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/agui-go/agui"
)

// Provider is a model. Stream runs one model turn and yields its pieces as
// they arrive; the loop assembles them into the assistant message and turns
// them into AG-UI events.
//
// Stream must honour ctx: when ctx is cancelled it stops and yields
// ctx's error. It must stop yielding when the consumer's yield returns
// false, and yield nothing after it returns. Implementations are used by one
// run at a time per call but may be called concurrently by several runs.
type Provider interface {
	Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error]
}

// ProviderFunc adapts a function to a [Provider].
type ProviderFunc func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error]

// Stream calls f.
func (f ProviderFunc) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	return f(ctx, req)
}

// ModelRequest is what a provider is asked for one turn. Its slices are the
// loop's and must not be modified; it is valid during the Stream call.
type ModelRequest struct {
	// Instructions is the system prompt; "" for none.
	Instructions string
	// Messages is the transcript so far: user, assistant and tool messages,
	// every tool call answered in call order.
	Messages []agui.Message
	Tools    []ToolSpec
	// Settings are the agent's model settings (see [WithModelSettings]); a
	// provider maps what it supports and documents what it ignores.
	Settings ModelSettings
	// Output, when set, is the JSON the final answer must be (see Output):
	// providers with a JSON mode ask for it; the loop validates the answer
	// either way.
	Output *OutputSpec
}

// Delta is one piece of a streamed model turn, a plain value. Any
// combination of fields may be set.
type Delta struct {
	Text      string
	Reasoning string
	// ReasoningEncrypted is an opaque value the provider needs back with
	// the reasoning streamed so far (a signature, or reasoning the
	// provider redacted). It ends the current reasoning message: the loop
	// keeps that message, with this value, in the transcript just before
	// the turn's assistant message, and emits it as
	// REASONING_ENCRYPTED_VALUE.
	ReasoningEncrypted string
	// ReasoningEncryptedType labels ReasoningEncrypted when the provider
	// has several kinds of value, with a name prefixed by the provider,
	// such as "anthropic.redacted_thinking". It travels beside the value
	// as AG-UI 1.1's encryptedValueType, on the event and on the kept
	// message, and comes back with the message. Empty (the default) sends
	// no type. It is ignored without ReasoningEncrypted.
	ReasoningEncryptedType string
	// Finish, when set, is why the model ended the turn early: [FinishLength]
	// (the output token limit) or [FinishContentFilter] (a refusal or the
	// provider's content filter). A normal end is left empty; other values
	// are ignored.
	Finish FinishReason
	// ToolCall is a fragment of a tool call.
	ToolCall *ToolCallDelta
	// Usage is added to the run's usage.
	Usage *Usage
}

// ToolCallDelta is a fragment of one tool call. Fragments of a call share
// Index; its ID and Name arrive on some fragment (usually the first), its
// arguments as a sequence of Args pieces.
type ToolCallDelta struct {
	Index int
	ID    string
	Name  string
	Args  string
}

// ToolSpec describes a tool to the model; a plain value.
type ToolSpec struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the tool's arguments.
	Schema json.RawMessage
}
