package anthropic

// event is what the provider reads of a streamed Messages API event:
// plain fields that encoding/json fills without reflection-driven
// metadata. The SDK's MessageStreamEventUnion records every field's raw
// JSON and presence as well, which cost several times the rest of a
// token's path (the token path of BENCHMARKS.md; issue 26). Members it
// does not read are skipped whatever their type; one it reads holding the
// wrong type fails the stream, as a malformed event does. No
// UnmarshalJSON of its own: encoding/json would then check each event's
// syntax twice.
type event struct {
	Type    string `json:"type"`
	Index   int64  `json:"index"`
	Message struct {
		Usage usage `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Thinking string `json:"thinking"`
		Data     string `json:"data"`
		ID       string `json:"id"`
		Name     string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage usage `json:"usage"`
}

// usage is the token counts of message_start's message and of
// message_delta.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	OutputTokensDetails      struct {
		ThinkingTokens int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}
