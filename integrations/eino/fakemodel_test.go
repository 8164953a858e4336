package eino

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Turn is one scripted answer of a [FakeModel]: the chunks it streams,
// then Err if set. Hang makes it wait, after its chunks, until the call's
// context ends (a model mid-answer when the client leaves); Panic makes
// Stream panic with it.
type Turn struct {
	Chunks []*schema.Message
	Err    error
	Hang   bool
	Panic  any
	// Sent, when set, is closed once the chunks are sent; Cancelled, when
	// set, once a Hang turn saw its context end.
	Sent, Cancelled chan struct{}
}

// FakeModel is a model.ToolCallingChatModel written for these tests (eino
// ships none outside its internal packages): it answers each call with
// the next Turn and records what it was asked. It is safe for concurrent
// use; models bound with WithTools share its script.
type FakeModel struct {
	s     *script
	tools []*schema.ToolInfo
}

type script struct {
	mu     sync.Mutex
	turns  []Turn
	inputs [][]*schema.Message
	tools  [][]*schema.ToolInfo
	opts   []*model.Options
}

var _ model.ToolCallingChatModel = (*FakeModel)(nil)

// NewFakeModel returns a model that answers with turns, in order.
func NewFakeModel(turns ...Turn) *FakeModel { return &FakeModel{s: &script{turns: turns}} }

// TextTurn is a turn that streams text in the given pieces.
func TextTurn(pieces ...string) Turn {
	var t Turn
	for _, p := range pieces {
		t.Chunks = append(t.Chunks, &schema.Message{Role: schema.Assistant, Content: p})
	}
	return t
}

// CallTurn is a turn that calls tool name with args, as call id.
func CallTurn(id, name, args string) Turn {
	return Turn{Chunks: []*schema.Message{{Role: schema.Assistant, ToolCalls: []schema.ToolCall{
		{Index: new(0), ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}},
	}}}}
}

// Inputs returns the messages each call was given.
func (m *FakeModel) Inputs() [][]*schema.Message {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return append([][]*schema.Message(nil), m.s.inputs...)
}

// Options returns the common options of each call.
func (m *FakeModel) Options() []*model.Options {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return append([]*model.Options(nil), m.s.opts...)
}

// Tools returns the tools bound for each call.
func (m *FakeModel) Tools() [][]*schema.ToolInfo {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return append([][]*schema.ToolInfo(nil), m.s.tools...)
}

func (m *FakeModel) next(in []*schema.Message, opts []model.Option) (Turn, error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	m.s.inputs = append(m.s.inputs, in)
	m.s.tools = append(m.s.tools, m.tools)
	m.s.opts = append(m.s.opts, model.GetCommonOptions(nil, opts...))
	if len(m.s.turns) == 0 {
		return Turn{}, errors.New("fake model: no turn left")
	}
	t := m.s.turns[0]
	m.s.turns = m.s.turns[1:]
	return t, nil
}

// WithTools returns a model bound to tools, sharing m's script.
func (m *FakeModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &FakeModel{s: m.s, tools: tools}, nil
}

// Generate answers with the next turn's chunks concatenated.
func (m *FakeModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	sr, err := m.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.ConcatMessageStream(sr)
}

// Stream streams the next turn from a goroutine that honours ctx.
func (m *FakeModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	t, err := m.next(in, opts)
	if err != nil {
		return nil, err
	}
	if t.Panic != nil {
		panic(t.Panic)
	}
	if len(t.Chunks) == 0 && t.Err != nil && !t.Hang {
		return nil, t.Err
	}
	sr, sw := schema.Pipe[*schema.Message](0)
	go func() {
		defer sw.Close()
		for _, c := range t.Chunks {
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
		if t.Sent != nil {
			close(t.Sent)
		}
		switch {
		case t.Hang:
			<-ctx.Done()
			if t.Cancelled != nil {
				close(t.Cancelled)
			}
			sw.Send(nil, fmt.Errorf("fake model: %w", ctx.Err()))
		case t.Err != nil:
			sw.Send(nil, t.Err)
		}
	}()
	return sr, nil
}
