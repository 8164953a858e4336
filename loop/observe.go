package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agui-go/agui"
)

// Observer is observational memory: when the part of a thread the model
// reads in full grows past a token threshold ([WithObserveTokens]), a
// model call compresses its older messages into observations, a dense
// log of what the conversation established, and the model reads the
// observations in their place from then on ("activated"). The
// transcript keeps every message: the client's history and
// [HistoryHandler] still show the whole thread.
//
// A run observes before a model turn, at a point where every call of the
// transcript has its result; it never observes the newest user message
// or what follows it. Each observation cycle is an activity message (id
// the cycle's id, type [WithObservationActivityType]) the run sends as
// ACTIVITY_SNAPSHOT and ACTIVITY_DELTA events, with: cycleId,
// operationType ("observation"), phase ("observation", then
// "activation"), status ("running", then "completed" and "activated", or
// "failed"), threadId, triggeredBy ("threshold"), tokensToObserve,
// startedAt, and once done observations, tokensObserved,
// observationTokens, durationMs, completedAt and messagesActivated. The
// activity message stays in the transcript where the observations begin
// to stand for what precedes it. A failed cycle leaves the transcript as
// it was and the run goes on. Tokens are estimated (four bytes of text
// to a token).
//
// An Observer is a plain value, safe for concurrent use by the runs of
// the agents given it with [WithObserver].
type Observer struct {
	provider     Provider
	threshold    int
	instructions string
	activityType string
}

// ObserverOption configures an [Observer].
type ObserverOption func(*Observer) error

// WithObserveTokens sets the threshold: the estimated tokens of the
// messages not yet observed, the newest user message and what follows
// it aside, that start an observation cycle (default 30000).
func WithObserveTokens(n int) ObserverOption {
	return func(o *Observer) error {
		if n < 1 {
			return fmt.Errorf("loop: WithObserveTokens(%d): want at least 1", n)
		}
		o.threshold = n
		return nil
	}
}

// WithObserverInstructions replaces the observer model's system prompt
// (default [DefaultObserverInstructions]).
func WithObserverInstructions(s string) ObserverOption {
	return func(o *Observer) error {
		if s == "" {
			return errors.New("loop: WithObserverInstructions: empty instructions")
		}
		o.instructions = s
		return nil
	}
}

// WithObservationActivityType sets the activityType of the cycles'
// activity messages (default "observational-memory").
func WithObservationActivityType(s string) ObserverOption {
	return func(o *Observer) error {
		if s == "" {
			return errors.New("loop: WithObservationActivityType: empty type")
		}
		o.activityType = s
		return nil
	}
}

// DefaultObserverInstructions is the observer model's default system
// prompt.
const DefaultObserverInstructions = "You keep the memory of a conversation between a user and an assistant. " +
	"Rewrite the earlier observations (if any) and the new messages into one dense, complete list of observations: " +
	"facts about the user, their preferences and constraints, decisions made, open questions and the task at hand. " +
	"One short line each, newest last. Answer with the list only."

// NewObserver returns an Observer whose cycles ask provider for the
// observations.
func NewObserver(provider Provider, opts ...ObserverOption) (*Observer, error) {
	if provider == nil {
		return nil, errors.New("loop: NewObserver: nil provider")
	}
	o := &Observer{provider: provider, threshold: 30000, instructions: DefaultObserverInstructions, activityType: "observational-memory"}
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// WithObserver gives the agent observational memory (default none).
func WithObserver(o *Observer) Option {
	return func(c *config) error {
		if o == nil {
			return errors.New("loop: WithObserver: nil Observer")
		}
		c.observer = o
		return nil
	}
}

// record reports whether m is one of o's activated cycles, and its
// observations.
func (o *Observer) record(m agui.Message) (string, bool) {
	a, ok := m.(*agui.ActivityMessage)
	if !ok || a.ActivityType != o.activityType || a.Content["status"] != "activated" {
		return "", false
	}
	text, ok := a.Content["observations"].(string)
	return text, ok
}

// tokens estimates the tokens of msgs.
func tokens(msgs []agui.Message) int {
	n := 0
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.UserMessage:
			n += len(m.Content.String())
		case *agui.AssistantMessage:
			n += len(m.Content)
			for _, c := range m.ToolCalls {
				n += len(c.Function.Name) + len(c.Function.Arguments)
			}
		case *agui.ToolMessage:
			n += len(m.Content.String())
		case *agui.SystemMessage:
			n += len(m.Content)
		case *agui.DeveloperMessage:
			n += len(m.Content)
		}
	}
	return (n + 3) / 4
}

// answered reports whether every call of msgs has its result in msgs.
func answered(msgs []agui.Message) bool {
	open := map[string]bool{}
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.AssistantMessage:
			for _, c := range m.ToolCalls {
				open[c.ID] = true
			}
		case *agui.ToolMessage:
			delete(open, m.ToolCallID)
		}
	}
	return len(open) == 0
}

// observe runs an observation cycle when the run's transcript calls for
// one, and reports whether it changed the transcript.
func (r *run) observe(ctx context.Context) bool {
	o := r.a.cfg.observer
	msgs := r.cp.Messages
	start, prior := 0, ""
	for i, m := range msgs {
		if text, ok := o.record(m); ok {
			start, prior = i+1, text
		}
	}
	end := -1
	for i := len(msgs) - 1; i >= start; i-- {
		if _, ok := msgs[i].(*agui.UserMessage); ok {
			end = i
			break
		}
	}
	if end <= start {
		return false
	}
	observed := msgs[start:end]
	n := tokens(observed)
	if n < o.threshold || !answered(observed) {
		return false
	}
	id := newID("om")
	begun := time.Now()
	content := map[string]any{
		"cycleId": id, "operationType": "observation", "phase": "observation", "status": "running",
		"threadId": r.thread, "triggeredBy": "threshold", "tokensToObserve": n,
		"startedAt": begun.UTC().Format(time.RFC3339Nano),
	}
	r.emit(&agui.ActivitySnapshot{MessageID: id, ActivityType: o.activityType, Content: clone(content)})
	patch := func(ops ...agui.PatchOp) {
		for _, op := range ops {
			content[op.Path[1:]] = op.Value
		}
		r.emit(&agui.ActivityDelta{MessageID: id, ActivityType: o.activityType, Patch: ops})
	}
	text, err := o.summarize(ctx, prior, observed)
	now := time.Now()
	if err != nil {
		patch(agui.PatchOp{Op: "add", Path: "/status", Value: "failed"},
			agui.PatchOp{Op: "add", Path: "/error", Value: "the observer's model call failed"},
			agui.PatchOp{Op: "add", Path: "/completedAt", Value: now.UTC().Format(time.RFC3339Nano)})
		return false
	}
	patch(agui.PatchOp{Op: "add", Path: "/status", Value: "completed"},
		agui.PatchOp{Op: "add", Path: "/observations", Value: text},
		agui.PatchOp{Op: "add", Path: "/tokensObserved", Value: n},
		agui.PatchOp{Op: "add", Path: "/observationTokens", Value: (len(text) + 3) / 4},
		agui.PatchOp{Op: "add", Path: "/durationMs", Value: now.Sub(begun).Milliseconds()},
		agui.PatchOp{Op: "add", Path: "/completedAt", Value: now.UTC().Format(time.RFC3339Nano)})
	patch(agui.PatchOp{Op: "add", Path: "/phase", Value: "activation"},
		agui.PatchOp{Op: "add", Path: "/status", Value: "activated"},
		agui.PatchOp{Op: "add", Path: "/messagesActivated", Value: len(observed)})
	rec := &agui.ActivityMessage{ID: id, ActivityType: o.activityType, Content: content}
	r.cp.Messages = slices.Concat(msgs[:end:end], []agui.Message{rec}, msgs[end:])
	return true
}

// summarize asks the observer's model for the observations of msgs,
// given the earlier ones.
func (o *Observer) summarize(ctx context.Context, prior string, msgs []agui.Message) (string, error) {
	var b strings.Builder
	if prior != "" {
		b.WriteString("Earlier observations:\n")
		b.WriteString(prior)
		b.WriteString("\n\n")
	}
	b.WriteString("New messages:\n")
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.UserMessage:
			fmt.Fprintf(&b, "user: %s\n", m.Content.String())
		case *agui.AssistantMessage:
			if m.Content != "" {
				fmt.Fprintf(&b, "assistant: %s\n", m.Content)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "assistant called %s(%s)\n", c.Function.Name, c.Function.Arguments)
			}
		case *agui.ToolMessage:
			fmt.Fprintf(&b, "tool result: %s\n", m.Content.String())
		case *agui.SystemMessage:
			fmt.Fprintf(&b, "system: %s\n", m.Content)
		}
	}
	req := ModelRequest{Instructions: o.instructions, Messages: []agui.Message{UserText(b.String())}}
	var text strings.Builder
	for d, err := range o.provider.Stream(ctx, req) {
		if err != nil {
			return "", err
		}
		text.WriteString(d.Text)
	}
	if strings.TrimSpace(text.String()) == "" {
		return "", errors.New("loop: the observer's model answered nothing")
	}
	return strings.TrimSpace(text.String()), nil
}

// modelMessages is the transcript as the model reads it: without
// activity messages, and from the last activated observation cycle on,
// with its observations standing for what precedes it.
func (r *run) modelMessages() []agui.Message {
	msgs := r.cp.Messages
	if !slices.ContainsFunc(msgs, func(m agui.Message) bool { _, ok := m.(*agui.ActivityMessage); return ok }) {
		return slices.Clip(msgs)
	}
	var out []agui.Message
	if o := r.a.cfg.observer; o != nil {
		for i := len(msgs) - 1; i >= 0; i-- {
			if text, ok := o.record(msgs[i]); ok {
				out = append(out, &agui.SystemMessage{ID: msgs[i].MessageID() + "-observations",
					Content: "Observations of the conversation before this point, which you no longer see in full:\n" + text})
				msgs = msgs[i+1:]
				break
			}
		}
	}
	for _, m := range msgs {
		if _, ok := m.(*agui.ActivityMessage); !ok {
			out = append(out, m)
		}
	}
	return out
}
