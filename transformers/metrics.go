package transformers

import (
	"context"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// MetricsSink receives the run and event counts and run durations that
// [Metrics] measures, each labelled with its run's [RunInfo]. Package aguiprom
// implements it for Prometheus; an application implements it to feed
// anything else. This package depends on no metrics library.
//
// One sink serves every run: its methods are called from many goroutines
// at once and must be safe for concurrent use. They are called on the
// event path, so they should be quick.
type MetricsSink interface {
	// RunStarted is called once per run, at its first event.
	RunStarted(run RunInfo)
	// Event is called for every event, the first and the terminal one
	// included.
	Event(run RunInfo, t agui.EventType)
	// RunEnded is called once per run, at its terminal event.
	RunEnded(end RunEnd)
}

// RunInfo names a run for a [MetricsSink]. Route and Agent are the
// application's names for what served the run ([core.RouteFrom] on the
// run's context; "" outside a [core.Handler]), bounded in number and safe as
// metric labels; ThreadID and RunID come from the client and are not.
type RunInfo struct {
	ThreadID, RunID string
	Route, Agent    string
}

// RunEnd describes how a run ended.
type RunEnd struct {
	RunInfo
	// Outcome is "success", "interrupt" or "cancelled" for a RUN_FINISHED,
	// and "error" for a RUN_ERROR.
	Outcome string
	// Code is RUN_ERROR's code, such as "AGENT_ERROR"; "" for RUN_FINISHED.
	Code string
	// Duration runs from the run's first event to its terminal event.
	Duration time.Duration
	// Events counts the run's events, both ends included.
	Events int
}

// OutcomeError is [RunEnd.Outcome] for a run that ended with RUN_ERROR.
const OutcomeError = "error"

// Metrics returns a transformer that reports every run to sink and passes
// events on unchanged. A nil sink records nothing. Put Metrics last in a
// chain to count what the client receives. Each run gets its own counter
// and clock reading ([time.Now], which testing/synctest controls in tests).
//
// Metrics sees only what flows through the chain. When a transformer
// before it fails, the runner still passes the final RUN_ERROR through
// Metrics, so the sink gets RunEnded with that error's code, and when the
// consumer stops reading early it gets RunEnded with DISCONNECTED. The
// sink gets no RunEnded only when the chain's own output breaks a protocol
// rule: the RUN_ERROR then bypasses the whole chain.
//
// Each run's [RunInfo] carries the route and agent that [core.RouteFrom] finds
// on the run's context (see [core.RunStarter]): the names a [core.Handler]
// (and ginagui's routes) give it with [core.WithRoute] and
// [core.WithAgentName].
func Metrics(sink MetricsSink) core.TransformerFactory {
	return func(in *agui.RunAgentInput) core.Transformer {
		m := &runMetrics{sink: sink}
		if in != nil {
			m.run.ThreadID, m.run.RunID = in.ThreadID, in.RunID
		}
		return m
	}
}

// runMetrics is Metrics' per-run state. Like every Transformer it is used
// by one goroutine at a time.
type runMetrics struct {
	sink             MetricsSink
	run              RunInfo
	start            time.Time
	events           int
	started, stopped bool
}

func (m *runMetrics) Transform(ev agui.Event, emit func(agui.Event) error) error {
	if m.sink != nil && !m.stopped {
		m.observe(ev)
	}
	return emit(ev)
}

func (*runMetrics) Finish(func(agui.Event) error) error { return nil }

// StartRun takes the run's route and agent from its context.
func (m *runMetrics) StartRun(ctx context.Context) {
	if ri, ok := core.RouteFrom(ctx); ok {
		m.run.Route, m.run.Agent = ri.Route, ri.Agent
	}
}

func (m *runMetrics) observe(ev agui.Event) {
	if !m.started {
		m.started, m.start = true, time.Now()
		if rs, ok := ev.(*agui.RunStarted); ok {
			m.run.ThreadID, m.run.RunID = rs.ThreadID, rs.RunID
		}
		m.sink.RunStarted(m.run)
	}
	m.events++
	m.sink.Event(m.run, ev.Type())
	end := RunEnd{RunInfo: m.run}
	switch e := ev.(type) {
	case *agui.RunFinished:
		end.Outcome = string(agui.OutcomeSuccess)
		if e.Outcome != nil {
			end.Outcome = string(e.Outcome.Type)
		}
	case *agui.RunError:
		end.Outcome, end.Code = OutcomeError, e.Code
	default:
		return
	}
	// Only the first terminal event ends the run: the protocol allows a
	// RUN_ERROR after RUN_FINISHED, which must not count twice.
	m.stopped = true
	end.Duration = time.Since(m.start)
	end.Events = m.events
	m.sink.RunEnded(end)
}
