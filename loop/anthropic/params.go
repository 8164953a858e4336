package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
)

// params converts a loop request to a Messages API request.
func (p *Provider) params(req loop.ModelRequest) (sdk.MessageNewParams, error) {
	params := sdk.MessageNewParams{
		Model:     sdk.Model(p.model),
		MaxTokens: p.maxTokens,
		Thinking:  p.thinking,
	}
	if p.cache {
		params.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	if err := p.settings(&params, req); err != nil {
		return params, err
	}
	if o := req.Output; o != nil {
		var schema map[string]any
		if err := json.Unmarshal(o.Schema, &schema); err != nil {
			return params, fmt.Errorf("anthropic: output schema: %w", err)
		}
		params.OutputConfig.Format = sdk.JSONOutputFormatParam{Schema: schema}
	}
	if req.Instructions != "" {
		params.System = append(params.System, sdk.TextBlockParam{Text: req.Instructions})
	}
	msgs, system, err := messages(req.Messages)
	if err != nil {
		return params, err
	}
	params.Messages = msgs
	params.System = append(params.System, system...)
	for _, t := range req.Tools {
		tp, err := tool(t)
		if err != nil {
			return params, err
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: &tp})
	}
	return params, nil
}

// settings maps the loop's model settings. Temperature is ignored: the
// Messages API no longer takes it. A forced tool choice is refused with
// extended thinking, which the API allows with auto and none only.
func (p *Provider) settings(params *sdk.MessageNewParams, req loop.ModelRequest) error {
	s := req.Settings
	if s.MaxOutputTokens > 0 {
		if p.budget > 0 && s.MaxOutputTokens <= p.budget {
			return fmt.Errorf("anthropic: MaxOutputTokens %d must exceed the thinking budget %d", s.MaxOutputTokens, p.budget)
		}
		params.MaxTokens = s.MaxOutputTokens
	}
	params.StopSequences = s.StopSequences
	if len(req.Tools) == 0 {
		return nil // the API takes a tool choice only with tools
	}
	thinking := p.thinking.OfEnabled != nil || p.thinking.OfAdaptive != nil
	var noParallel param.Opt[bool]
	if s.ParallelToolCalls != nil && !*s.ParallelToolCalls {
		noParallel = sdk.Bool(true)
	}
	c := s.ToolChoice
	if thinking && (c.Mode == loop.ToolChoiceRequired || c.Mode == loop.ToolChoiceTool) {
		return fmt.Errorf("anthropic: tool choice %q is not supported with extended thinking (only auto and none are)", c.Mode)
	}
	switch c.Mode {
	case loop.ToolChoiceNone:
		n := sdk.NewToolChoiceNoneParam()
		params.ToolChoice = sdk.ToolChoiceUnionParam{OfNone: &n}
	case loop.ToolChoiceRequired:
		params.ToolChoice = sdk.ToolChoiceUnionParam{OfAny: &sdk.ToolChoiceAnyParam{DisableParallelToolUse: noParallel}}
	case loop.ToolChoiceTool:
		params.ToolChoice = sdk.ToolChoiceUnionParam{OfTool: &sdk.ToolChoiceToolParam{Name: c.Name, DisableParallelToolUse: noParallel}}
	case loop.ToolChoiceAuto:
		params.ToolChoice = sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{DisableParallelToolUse: noParallel}}
	default:
		if noParallel.Valid() {
			params.ToolChoice = sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{DisableParallelToolUse: noParallel}}
		}
	}
	return nil
}

// tool converts a tool spec; the schema's properties and required go in
// their fields, the rest of it as extra fields.
func tool(t loop.ToolSpec) (sdk.ToolParam, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.Schema, &schema); err != nil {
		return sdk.ToolParam{}, fmt.Errorf("anthropic: tool %s: schema: %w", t.Name, err)
	}
	in := sdk.ToolInputSchemaParam{Properties: schema["properties"]}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range schema {
		switch k {
		case "type", "properties", "required":
		default:
			if in.ExtraFields == nil {
				in.ExtraFields = map[string]any{}
			}
			in.ExtraFields[k] = v
		}
	}
	tp := sdk.ToolParam{Name: t.Name, InputSchema: in}
	if t.Description != "" {
		tp.Description = sdk.String(t.Description)
	}
	return tp, nil
}

// messages converts the transcript. System and developer messages join
// the system prompt, since the Messages API has no system turn; reasoning
// the model needs back (kept with its signature) opens the next assistant
// turn as thinking blocks ([thinkingBlock]); activity messages and
// reasoning without a signature are not sent. Consecutive messages of one role merge into one
// turn, so that a turn's tool results travel together.
func messages(in []agui.Message) (out []sdk.MessageParam, system []sdk.TextBlockParam, err error) {
	var thinking []sdk.ContentBlockParamUnion
	add := func(assistant bool, blocks []sdk.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && (out[n-1].OfAssistant != nil) == assistant {
			if assistant {
				out[n-1].OfAssistant.Content = append(out[n-1].OfAssistant.Content, blocks...)
			} else {
				out[n-1].OfUser.Content = append(out[n-1].OfUser.Content, blocks...)
			}
			return
		}
		if assistant {
			out = append(out, sdk.NewAssistantMessage(blocks...))
		} else {
			out = append(out, sdk.NewUserMessage(blocks...))
		}
	}
	for _, m := range in {
		switch m := m.(type) {
		case *agui.SystemMessage:
			if m.Content != "" {
				system = append(system, sdk.TextBlockParam{Text: m.Content})
			}
		case *agui.DeveloperMessage:
			if m.Content != "" {
				system = append(system, sdk.TextBlockParam{Text: m.Content})
			}
		case *agui.ReasoningMessage:
			if b, ok := thinkingBlock(m); ok {
				thinking = append(thinking, b)
			}
		case *agui.UserMessage:
			blocks, err := userBlocks("message "+m.ID, m.Content)
			if err != nil {
				return nil, nil, err
			}
			add(false, blocks)
		case *agui.ToolMessage:
			content, err := toolResultContent("result of call "+m.ToolCallID, m.Content)
			if err != nil {
				return nil, nil, err
			}
			r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID, Content: content}
			if m.Error != "" {
				r.IsError = sdk.Bool(true)
			}
			add(false, []sdk.ContentBlockParamUnion{{OfToolResult: &r}})
		case *agui.AssistantMessage:
			blocks := thinking
			thinking = nil
			if m.Content != "" {
				blocks = append(blocks, sdk.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				input := json.RawMessage(c.Function.Arguments)
				var obj map[string]json.RawMessage
				if json.Unmarshal(input, &obj) != nil || obj == nil {
					// The call got a validation error result; the API
					// needs an object.
					input = json.RawMessage(`{}`)
				}
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, input, c.Function.Name))
			}
			add(true, blocks)
		}
	}
	return out, system, nil
}

// thinkingBlock is the block a reasoning message goes back to the API as:
// by its encryptedValueType, or, when the type is absent (a 1.0 client
// dropped it, or the message predates 1.1), by the value's form. A value
// another provider typed is not sent: the API would reject bytes it never
// issued. ok is false for a message with nothing to send.
func thinkingBlock(m *agui.ReasoningMessage) (b sdk.ContentBlockParamUnion, ok bool) {
	v := m.EncryptedValue
	if v == "" {
		return b, false
	}
	switch m.EncryptedValueType {
	case typeRedacted:
		return sdk.NewRedactedThinkingBlock(strings.TrimPrefix(v, redactedPrefix)), true
	case typeSignature:
		return sdk.NewThinkingBlock(v, m.Content), true
	case "":
		if strings.HasPrefix(v, redactedPrefix) {
			return sdk.NewRedactedThinkingBlock(strings.TrimPrefix(v, redactedPrefix)), true
		}
		return sdk.NewThinkingBlock(v, m.Content), true
	}
	return b, false
}
