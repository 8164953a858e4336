package loop

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"

	"github.com/agui-go/agui"
)

// Turn is one scripted model turn; a plain value.
type Turn struct {
	Reasoning string
	Text      string
	Calls     []ScriptedCall
	Usage     Usage
	// Finish, when set, is reported as the provider's reason for ending
	// the turn early (see [Delta.Finish]).
	Finish FinishReason
	// Err, when set, is returned instead of the turn.
	Err error
}

// ScriptedCall is a tool call of a scripted turn. An empty ID lets the
// loop mint one.
type ScriptedCall struct {
	ID, Name string
	// Args is the call's JSON arguments.
	Args string
}

// ErrScriptExhausted is returned when a conversation needs more turns
// than the script has.
var ErrScriptExhausted = errors.New("loop: scripted provider has no turn left")

// Scripted is a deterministic [Provider] for tests and demos. The turn it
// plays is chosen by the conversation, not by call count: turn k is played
// when the request holds k assistant messages after its last user message.
// So each new user message restarts the script, and a resumed run gets
// the turn it would have got without the interruption.
//
// It streams text word by word and tool call arguments in two fragments.
// It is safe for concurrent use.
type Scripted struct {
	turns []Turn
	calls atomic.Int64
}

// Script returns a scripted provider playing turns.
func Script(turns ...Turn) *Scripted { return &Scripted{turns: turns} }

// Calls returns how many turns were asked for.
func (s *Scripted) Calls() int { return int(s.calls.Load()) }

// Stream implements [Provider].
func (s *Scripted) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) {
		s.calls.Add(1)
		k := 0
		for _, m := range req.Messages {
			switch m.(type) {
			case *agui.UserMessage:
				k = 0
			case *agui.AssistantMessage:
				k++
			}
		}
		if k >= len(s.turns) {
			yield(Delta{}, fmt.Errorf("%w (turn %d of %d)", ErrScriptExhausted, k+1, len(s.turns)))
			return
		}
		t := s.turns[k]
		if t.Err != nil {
			yield(Delta{}, t.Err)
			return
		}
		var ds []Delta
		for _, w := range words(t.Reasoning) {
			ds = append(ds, Delta{Reasoning: w})
		}
		for _, w := range words(t.Text) {
			ds = append(ds, Delta{Text: w})
		}
		for i, c := range t.Calls {
			half := len(c.Args) / 2
			ds = append(ds,
				Delta{ToolCall: &ToolCallDelta{Index: i, ID: c.ID, Name: c.Name, Args: c.Args[:half]}},
				Delta{ToolCall: &ToolCallDelta{Index: i, Args: c.Args[half:]}})
		}
		if t.Usage != (Usage{}) {
			u := t.Usage
			ds = append(ds, Delta{Usage: &u})
		}
		if t.Finish != "" {
			ds = append(ds, Delta{Finish: t.Finish})
		}
		for _, d := range ds {
			if err := ctx.Err(); err != nil {
				yield(Delta{}, err)
				return
			}
			if !yield(d, nil) {
				return
			}
		}
	}
}

// words splits s after each space, keeping the spaces.
func words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
