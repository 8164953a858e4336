// Package anthropic is a [github.com/agui-go/agui/loop.Provider] for
// Anthropic's Messages API (the Claude models), built on
// github.com/anthropics/anthropic-sdk-go/v2. It lives in its own package so
// that programs using the loop with another provider do not link the
// Anthropic client.
//
// Quick start:
//
//	p, err := anthropic.New("claude-sonnet-5",
//		anthropic.WithClientOptions(option.WithAPIKey(key)), // or ANTHROPIC_API_KEY
//		anthropic.WithThinking(4096))                        // optional extended thinking
//	if err != nil { … }
//	agent, err := loop.New(p, loop.WithTools(weather))
//
// The provider streams text, tool calls with their argument fragments
// (input_json_delta), extended thinking as REASONING_* events, and usage:
// loop.Usage.InputTokens counts cache reads and writes in, and
// CachedInputTokens and CacheWriteInputTokens give those parts;
// ReasoningTokens is the API's thinking_tokens. [WithPromptCaching] turns on the API's
// automatic prompt caching, which suits a loop: each turn repeats the
// transcript of the one before. A thinking
// block's signature (or a redacted block's data) travels as the reasoning
// message's encrypted value, labelled "anthropic.thinking_signature" (or
// "anthropic.redacted_thinking") in AG-UI 1.1's encryptedValueType, and
// goes back to the API with its turn, as the API requires when thinking is
// combined with tools. A value whose type a 1.0 client dropped still goes
// back as the right block; a value another provider typed does not.
//
// A typed output (loop.WithOutput) is asked for with output_config.format
// (json_schema), the API's structured outputs.
//
// A turn the API ends at max_tokens ends the run with loop.FinishLength,
// a refusal with loop.FinishContentFilter.
//
// Model settings (loop.WithModelSettings): MaxOutputTokens is max_tokens
// ([WithMaxTokens] sets the default, 4096); StopSequences are stop_sequences;
// ToolChoice maps to auto, none, any (required) and tool (a named tool),
// and ParallelToolCalls false to disable_parallel_tool_use. Temperature is
// ignored: the Messages API no longer takes it. A tool choice is sent only
// with tools; with extended thinking a forced tool choice fails the turn,
// since the API allows only auto and none then.
//
// User content parts map to content blocks: images (base64 JPEG, PNG, GIF
// or WebP, a URL, or an Anthropic file id) to image blocks, documents
// (base64 PDF or plain text, a PDF URL, or a file id) to document blocks.
// Audio, video and sources the API cannot read fail the run with
// loop.CodeUnsupportedContent rather than being dropped. System and
// developer messages join the system prompt.
//
// It does not retry: the client's own retries are off by default, so that
// loop.Retry, which never retries an abort, owns retrying. Its errors are
// [*APIError] values, which tell loop.Retry that overload (529), rate limits
// (429) and server errors are worth another try and a bad request is not.
package anthropic
