package loop

import (
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/google/uuid"
)

// sink is where a run's events go: a core Emitter when the loop is hosted by
// core, or a plain function when it is run directly. Implementations are
// safe for concurrent use, since delegated runs emit from tool goroutines.
type sink interface {
	emit(ev agui.Event) error
	newID(prefix string) string
	// subagent opens a subagent invocation and returns its sink.
	subagent(name, parentToolCallID, parentMessageID string) (subSink, error)
}

// subSink is an open subagent invocation.
type subSink interface {
	sink
	finish(result any) error
	fail(err error) error
}

// funcSink delivers events to a function; it emits SUBAGENT_* events
// itself. The function is called with one event at a time.
type funcSink struct {
	mu *sync.Mutex
	fn func(agui.Event) error // nil discards
	// attr is the subagent run id events are attributed to ("" for the
	// top-level run).
	attr string
}

func newFuncSink(fn func(agui.Event) error) *funcSink {
	return &funcSink{mu: new(sync.Mutex), fn: fn}
}

func (s *funcSink) emit(ev agui.Event) error {
	if a, ok := ev.(agui.Attributed); ok && s.attr != "" {
		a.SetSubagent(s.attr)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fn == nil {
		return nil
	}
	return s.fn(ev)
}

func (s *funcSink) newID(prefix string) string { return prefix + "-" + uuid.NewString() }

func (s *funcSink) subagent(name, toolCallID, messageID string) (subSink, error) {
	id := s.newID("sub")
	err := s.emit(&agui.SubagentStarted{
		SubagentRunID: id, Name: name, ParentSubagentRunID: s.attr,
		ParentToolCallID: toolCallID, ParentMessageID: messageID,
	})
	if err != nil {
		return nil, err
	}
	return &funcSubSink{funcSink: funcSink{mu: s.mu, fn: s.fn, attr: id}}, nil
}

type funcSubSink struct{ funcSink }

func (s *funcSubSink) finish(result any) error {
	return s.emitRaw(&agui.SubagentFinished{SubagentRunID: s.attr, Result: result})
}

func (s *funcSubSink) fail(err error) error {
	return s.emitRaw(&agui.SubagentError{SubagentRunID: s.attr, Message: agui.ErrorText(err), Code: string(agui.CodeOf(err))})
}

// emitRaw emits without attribution: SUBAGENT_FINISHED names its invocation
// itself.
func (s *funcSubSink) emitRaw(ev agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fn == nil {
		return nil
	}
	return s.fn(ev)
}

// emitterSink sends events through a core Emitter, which attributes,
// verifies and orders them.
type emitterSink struct{ e *core.Emitter }

func (s emitterSink) emit(ev agui.Event) error   { return s.e.Emit(ev) }
func (s emitterSink) newID(prefix string) string { return s.e.NewID(prefix) }

func (s emitterSink) subagent(name, toolCallID, messageID string) (subSink, error) {
	sub, err := s.e.Subagent(name, core.WithParentToolCall(toolCallID), core.WithParentMessage(messageID))
	if err != nil {
		return nil, err
	}
	return emitterSubSink{emitterSink{sub.Emitter}, sub}, nil
}

type emitterSubSink struct {
	emitterSink
	sub *core.Subagent
}

func (s emitterSubSink) finish(result any) error { return s.sub.Finish(result) }
func (s emitterSubSink) fail(err error) error    { return s.sub.Fail(err) }
