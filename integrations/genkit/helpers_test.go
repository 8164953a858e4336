package genkit

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
)

// newGenkit starts a Genkit instance whose context ends with the test, so
// the signal watcher genkit.Init starts ends too.
func newGenkit(t *testing.T) *gk.Genkit {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return gk.Init(ctx)
}

// modelTurn is one scripted model call: chunks streamed through the
// callback, then the response's message parts.
type modelTurn struct {
	chunks []*ai.Part
	parts  []*ai.Part
	usage  *ai.GenerationUsage
	finish ai.FinishReason
	err    error
	panic  any
	block  bool
}

// scriptedModel defines a model (genkit.DefineModel, Genkit's seam for
// test models) that plays turns in order and records each request.
type scriptedModel struct {
	mu    sync.Mutex
	turns []modelTurn
	reqs  []*ai.ModelRequest
}

func (s *scriptedModel) define(g *gk.Genkit, name string) ai.Model {
	return gk.DefineModel(g, name, &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}},
		func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			s.mu.Lock()
			t := s.turns[len(s.reqs)]
			s.reqs = append(s.reqs, req)
			s.mu.Unlock()
			if cb != nil {
				for _, c := range t.chunks {
					if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{c}}); err != nil {
						return nil, err
					}
				}
			}
			if t.panic != nil {
				panic(t.panic)
			}
			if t.block {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			if t.err != nil {
				return nil, t.err
			}
			finish := t.finish
			if finish == "" {
				finish = ai.FinishReasonStop
			}
			return &ai.ModelResponse{Message: ai.NewModelMessage(t.parts...), FinishReason: finish, Usage: t.usage, Request: req}, nil
		})
}

func (s *scriptedModel) requests() []*ai.ModelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*ai.ModelRequest(nil), s.reqs...)
}

// runAgent runs a once with in, checking every event with the protocol's
// verifier.
func runAgent(t *testing.T, ctx context.Context, a core.Agent[core.NoState], in *agui.RunAgentInput, opts ...core.RunOption) []agui.Event {
	t.Helper()
	v := agui.NewVerifier()
	var evs []agui.Event
	for ev, err := range core.Run(ctx, a, in, opts...) {
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier: %v (after %v)", err, types(evs))
		}
		evs = append(evs, ev)
	}
	return evs
}

func userInput(runID, text string) *agui.RunAgentInput {
	in := agui.NewInput("thread-1", runID)
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent(text)}}
	return in
}

func types(evs []agui.Event) []agui.EventType {
	out := make([]agui.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type()
	}
	return out
}

func said(evs []agui.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			b.WriteString(c.Delta)
		}
	}
	return b.String()
}

func toolRequest(name string, input any) *ai.Part {
	return ai.NewToolRequestPart(&ai.ToolRequest{Name: name, Input: input})
}
