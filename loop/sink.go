package loop

import (
	"context"
	"log/slog"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/google/uuid"
)

// sink is where a run's events go: the Emitter of the core run hosting
// the loop, which attributes, verifies and orders them. A loop run
// outside core ([Agent.Execute], a delegation tool called directly) is
// hosted by a core run too (see host), so every event of every run takes
// this one path past the verifier. A sink is safe for concurrent use,
// since delegated runs emit from tool goroutines.
type sink struct{ e *core.Emitter }

func (s sink) emit(ev agui.Event) error { return s.e.Emit(ev) }

// message opens an assistant message (see [core.Emitter.Message]): its
// deltas go out as the run's reusable events.
func (s sink) message() (*core.MessageHandle, error) { return s.e.Message() }

// coalesce holds the run's writer back until release (see
// [core.Emitter.Coalesce]).
func (s sink) coalesce() (release func()) { return s.e.Coalesce() }

// subagent opens a subagent invocation and returns its sink.
func (s sink) subagent(name, toolCallID, messageID string) (subSink, error) {
	sub, err := s.e.Subagent(name, core.WithParentToolCall(toolCallID), core.WithParentMessage(messageID))
	if err != nil {
		return subSink{}, err
	}
	return subSink{sink{sub.Emitter}, sub}, nil
}

// subSink is an open subagent invocation.
type subSink struct {
	sink
	sub *core.Subagent
}

func (s subSink) finish(result any) error { return s.sub.Finish(result) }
func (s subSink) fail(err error) error    { return s.sub.Fail(err) }

// newID mints an id: prefix, a dash and a UUID, as [core.Emitter.NewID]
// does.
func newID(prefix string) string { return prefix + "-" + uuid.NewString() }

// host runs fn as the agent of a core run on thread and runID, for a loop
// run outside core. onEvent receives the run's stream, RUN_STARTED to
// its terminal event, one event at a time on the caller's goroutine (nil
// discards it); its first error cancels the run with that error as the
// cause, and the rest of the stream is discarded. host returns once the
// run is over; its error is core's refusal to start the run.
func host(ctx context.Context, thread, runID string, logger *slog.Logger, onEvent func(agui.Event) error, fn core.AgentFunc[core.NoState]) error {
	if logger == nil {
		logger = slog.Default() // core's default too
	}
	// The caller is Go code of this module's version: it is served the
	// newest protocol, encryptedValueType included.
	in := agui.NewInput(thread, runID)
	in.ProtocolVersion = agui.LatestProtocolVersion
	r, err := core.NewRunner(fn, in, core.WithLogger(logger))
	if err != nil {
		return err
	}
	var refused error
	for ev, err := range r.Events(ctx) {
		switch {
		case err != nil:
			return err
		case refused != nil || onEvent == nil:
		default:
			if refused = onEvent(ev); refused != nil {
				r.Cancel(refused)
			}
		}
	}
	return nil
}
