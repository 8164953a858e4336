package openai

import "encoding/json"

// chunk is what the provider reads of a streamed chat completion chunk:
// plain fields that encoding/json fills without reflection-driven
// metadata. openai-go's ChatCompletionChunk records every field's raw
// JSON and presence as well, which cost about ten times the rest of a
// token's path (the token path of BENCHMARKS.md; issue 26). Members it
// does not read are skipped whatever their type, as openai-go skips them;
// one it reads holding the wrong type fails the stream, as a malformed
// chunk does. No UnmarshalJSON of its own: encoding/json would then check
// each chunk's syntax twice.
type chunk struct {
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
			// The reasoning text compatible servers add under one of two
			// names (OpenAI's own API sends none); kept raw, as a
			// server may send something other than a string there.
			ReasoningContent json.RawMessage `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
			ToolCalls        []struct {
				Index    int64  `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		TotalTokens         int64 `json:"total_tokens"`
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// reasoning returns the delta's reasoning text, "" when there is none or
// it is not a string.
func reasoning(raws ...json.RawMessage) string {
	for _, raw := range raws {
		var s string
		if len(raw) > 0 && json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}
