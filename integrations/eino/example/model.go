package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// scripted is an eino chat model that needs no server: it asks for the
// weather tool when the user mentions the weather in a city, for the
// booking tool when the user asks to book, answers a tool's result, and
// echoes anything else, streaming its answer word by word with a line of
// reasoning first. It is safe for concurrent use.
type scripted struct{ tools []*schema.ToolInfo }

var _ model.ToolCallingChatModel = scripted{}

// city finds "in <City>" or "to <City>" in the user's words.
var city = regexp.MustCompile(`\b(?:in|to) ([A-Z][a-z]+)`)

func (m scripted) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return scripted{tools: tools}, nil
}

func (m scripted) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	sr, err := m.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.ConcatMessageStream(sr)
}

func (m scripted) Stream(ctx context.Context, in []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	if len(in) == 0 {
		return nil, errors.New("scripted: no messages")
	}
	chunks := m.answer(in)
	sr, sw := schema.Pipe[*schema.Message](0)
	go func() {
		defer sw.Close()
		for _, c := range chunks {
			select {
			case <-ctx.Done():
				sw.Send(nil, ctx.Err())
				return
			default:
			}
			if sw.Send(c, nil) {
				return
			}
		}
	}()
	return sr, nil
}

// answer is the turn's chunks.
func (m scripted) answer(in []*schema.Message) []*schema.Message {
	last := in[len(in)-1]
	if last.Role == schema.Tool {
		return words("The tool answered.", "Done: "+last.Content+".")
	}
	text := last.Content
	where := "Oslo"
	if c := city.FindStringSubmatch(text); c != nil {
		where = c[1]
	}
	lower := strings.ToLower(text)
	switch {
	case strings.Contains(lower, "weather") && m.has("get_weather"):
		return call("get_weather", where)
	case strings.Contains(lower, "book") && m.has("book_flight"):
		return call("book_flight", where)
	}
	return words("Nothing to look up.", "You said: "+text)
}

func (m scripted) has(tool string) bool {
	for _, t := range m.tools {
		if t.Name == tool {
			return true
		}
	}
	return false
}

// call is a turn that calls tool for city, its arguments in two pieces.
func call(tool, city string) []*schema.Message {
	id := "call_" + tool + "_" + strings.ToLower(city)
	return []*schema.Message{
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), ID: id, Type: "function", Function: schema.FunctionCall{Name: tool, Arguments: `{"city":`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), Function: schema.FunctionCall{Arguments: fmt.Sprintf("%q}", city)}}}},
	}
}

// words is a turn of reasoning, then text streamed word by word.
func words(reasoning, text string) []*schema.Message {
	out := []*schema.Message{{Role: schema.Assistant, ReasoningContent: reasoning}}
	for i, w := range strings.SplitAfter(text, " ") {
		if i == 0 {
			w = strings.TrimLeft(w, " ")
		}
		out = append(out, &schema.Message{Role: schema.Assistant, Content: w})
	}
	return out
}
