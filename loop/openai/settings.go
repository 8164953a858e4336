package openai

import (
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui/loop"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
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

// responseFormat asks for JSON of the typed output's schema
// (response_format json_schema, not strict: the loop validates the answer
// itself, and strict mode would refuse schemas with optional fields).
func responseFormat(params *oai.ChatCompletionNewParams, o *loop.OutputSpec) error {
	if o == nil {
		return nil
	}
	var schema map[string]any
	if err := json.Unmarshal(o.Schema, &schema); err != nil {
		return fmt.Errorf("openai: output schema: %w", err)
	}
	params.ResponseFormat = oai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
		JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: o.Name, Schema: schema, Strict: oai.Bool(false)},
	}}
	return nil
}
