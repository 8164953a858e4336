package anthropic

import (
	"github.com/agui-go/agui/loop"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// redactedPrefix marks the encrypted value of a redacted thinking block;
// a thinking block's value is its signature. Signatures are base64, so no
// signature starts with it. The value keeps the mark although its type
// says the same: a 1.0 client drops the type, and the value alone must
// still tell the two apart when it comes back.
const redactedPrefix = "redacted_thinking:"

// The encryptedValueType (AG-UI 1.1) of each kind of value this provider
// sends: a thinking block's signature and a redacted thinking block's
// data.
const (
	typeSignature = "anthropic.thinking_signature"
	typeRedacted  = "anthropic.redacted_thinking"
)

// stream turns the events of one streamed message into loop deltas.
type stream struct {
	// tools maps a content block index to its tool call index.
	tools map[int64]int
	// usage counts reported so far: message_start reports input and cache
	// counts, message_delta cumulative ones.
	input, cacheRead, cacheWrite, output, thinking int64
	finish                                         loop.FinishReason
	stopped                                        bool
}

// forward yields the deltas of one event; false means the consumer
// stopped.
func (s *stream) forward(ev *event, yield func(loop.Delta, error) bool) bool {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		s.input, s.cacheRead, s.cacheWrite, s.output = u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.OutputTokens
		s.thinking = u.OutputTokensDetails.ThinkingTokens
	case "content_block_start":
		b := ev.ContentBlock
		switch b.Type {
		case "text":
			if b.Text != "" {
				return yield(loop.Delta{Text: b.Text}, nil)
			}
		case "thinking":
			if b.Thinking != "" {
				return yield(loop.Delta{Reasoning: b.Thinking}, nil)
			}
		case "redacted_thinking":
			return yield(loop.Delta{ReasoningEncrypted: redactedPrefix + b.Data, ReasoningEncryptedType: typeRedacted}, nil)
		case "tool_use":
			if s.tools == nil {
				s.tools = map[int64]int{}
			}
			i := len(s.tools)
			s.tools[ev.Index] = i
			return yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Index: i, ID: b.ID, Name: b.Name}}, nil)
		}
	case "content_block_delta":
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			if d.Text != "" {
				return yield(loop.Delta{Text: d.Text}, nil)
			}
		case "thinking_delta":
			if d.Thinking != "" {
				return yield(loop.Delta{Reasoning: d.Thinking}, nil)
			}
		case "signature_delta":
			if d.Signature != "" {
				return yield(loop.Delta{ReasoningEncrypted: d.Signature, ReasoningEncryptedType: typeSignature}, nil)
			}
		case "input_json_delta":
			i, ok := s.tools[ev.Index]
			if ok && d.PartialJSON != "" {
				return yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Index: i, Args: d.PartialJSON}}, nil)
			}
		}
	case "message_delta":
		s.finish = finishOf(sdk.StopReason(ev.Delta.StopReason))
		u := ev.Usage
		s.output = u.OutputTokens
		if t := u.OutputTokensDetails.ThinkingTokens; t > 0 {
			s.thinking = t
		}
		// Newer servers repeat the input counts here, cumulatively.
		if u.InputTokens > 0 || u.CacheReadInputTokens > 0 || u.CacheCreationInputTokens > 0 {
			s.input, s.cacheRead, s.cacheWrite = u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens
		}
	case "message_stop":
		s.stopped = true
		d := loop.Delta{Finish: s.finish}
		// Anthropic's input_tokens leaves out cached tokens; loop.Usage
		// counts them in.
		if u := (loop.Usage{
			InputTokens:           s.input + s.cacheRead + s.cacheWrite,
			OutputTokens:          s.output,
			ReasoningTokens:       s.thinking,
			CachedInputTokens:     s.cacheRead,
			CacheWriteInputTokens: s.cacheWrite,
		}); !u.IsZero() {
			d.Usage = &u
		}
		if d.Finish != "" || d.Usage != nil {
			return yield(d, nil)
		}
	}
	return true
}

// finishOf maps a stop reason to the loop's finish reason of a turn ended
// early; a normal end maps to "".
func finishOf(r sdk.StopReason) loop.FinishReason {
	switch r {
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return loop.FinishLength
	case sdk.StopReasonRefusal:
		return loop.FinishContentFilter
	}
	return ""
}
