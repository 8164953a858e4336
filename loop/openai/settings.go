package openai

import (
	"github.com/agui-go/agui/loop"
	oai "github.com/openai/openai-go/v3"
)

// settings maps the loop's model settings onto a chat completion request:
// temperature, max_completion_tokens, stop, tool_choice (auto, none,
// required, a named function) and parallel_tool_calls. Every setting is
// supported; the tool settings are sent only with tools, since the API
// refuses them without.
func settings(params *oai.ChatCompletionNewParams, req loop.ModelRequest) {
	s := req.Settings
	if s.Temperature != nil {
		params.Temperature = oai.Float(*s.Temperature)
	}
	if s.MaxOutputTokens > 0 {
		params.MaxCompletionTokens = oai.Int(s.MaxOutputTokens)
	}
	if len(s.StopSequences) > 0 {
		params.Stop = oai.ChatCompletionNewParamsStopUnion{OfStringArray: s.StopSequences}
	}
	if len(req.Tools) == 0 {
		return
	}
	if s.ParallelToolCalls != nil {
		params.ParallelToolCalls = oai.Bool(*s.ParallelToolCalls)
	}
	switch c := s.ToolChoice; c.Mode {
	case loop.ToolChoiceAuto, loop.ToolChoiceNone, loop.ToolChoiceRequired:
		params.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: oai.String(string(c.Mode))}
	case loop.ToolChoiceTool:
		params.ToolChoice = oai.ChatCompletionToolChoiceOptionUnionParam{OfFunctionToolChoice: &oai.ChatCompletionNamedToolChoiceParam{
			Function: oai.ChatCompletionNamedToolChoiceFunctionParam{Name: c.Name},
		}}
	}
}

// finishOf maps a choice's finish_reason to the loop's finish reason of a
// turn ended early; a normal end maps to "".
func finishOf(r string) loop.FinishReason {
	switch r {
	case "length":
		return loop.FinishLength
	case "content_filter":
		return loop.FinishContentFilter
	}
	return ""
}
