package aguiprom

import (
	"context"
	"errors"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/transformers"
)

// Sink feeds Prometheus collectors with what [transformers.Metrics] measures
// of each run and with the requests a [core.Handler] refuses. Create it with
// [New].
//
// A Sink is safe for concurrent use, as every Prometheus collector is:
// one Sink serves every route of a server.
type Sink struct {
	started  *prometheus.CounterVec
	inFlight *prometheus.GaugeVec
	events   *prometheus.CounterVec
	ended    *prometheus.CounterVec
	duration *prometheus.HistogramVec
	refused  *prometheus.CounterVec
}

var _ transformers.MetricsSink = (*Sink)(nil)

// New registers the sink's collectors with reg and returns the sink. It
// fails, registering nothing, when reg is nil, an option is invalid, or reg
// already holds collectors of the same names (a second [Sink] on one
// registry needs its own [WithNamespace]).
func New(reg prometheus.Registerer, opts ...Option) (*Sink, error) {
	if reg == nil {
		return nil, errors.New("aguiprom: New needs a registerer")
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	route := []string{"route", "agent"}
	with := func(extra ...string) []string { return append(append([]string(nil), route...), extra...) }
	s := &Sink{
		started: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: c.namespace, Name: "runs_started_total", Help: "AG-UI runs started.",
		}, route),
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: c.namespace, Name: "runs_in_flight", Help: "AG-UI runs started and not yet ended.",
		}, route),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: c.namespace, Name: "events_total", Help: "AG-UI events sent, by type.",
		}, with("type")),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: c.namespace, Name: "runs_ended_total", Help: "AG-UI runs ended, by outcome and RUN_ERROR code.",
		}, with("outcome", "code")),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: c.namespace, Name: "run_duration_seconds",
			Help:    "AG-UI run duration from the first event to the terminal one, by outcome.",
			Buckets: c.buckets,
		}, with("outcome")),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: c.namespace, Name: "requests_refused_total",
			Help: "AG-UI run requests answered with an error before any event, by HTTP status and code.",
		}, with("status", "code")),
	}
	collectors := []prometheus.Collector{s.started, s.inFlight, s.events, s.ended, s.duration, s.refused}
	for i, col := range collectors {
		if err := reg.Register(col); err != nil {
			for _, done := range collectors[:i] {
				reg.Unregister(done)
			}
			return nil, err
		}
	}
	return s, nil
}

// RunStarted counts a run and adds it to the runs in flight.
func (s *Sink) RunStarted(run transformers.RunInfo) {
	s.started.WithLabelValues(run.Route, run.Agent).Inc()
	s.inFlight.WithLabelValues(run.Route, run.Agent).Inc()
}

// Event counts an event by type.
func (s *Sink) Event(run transformers.RunInfo, t agui.EventType) {
	s.events.WithLabelValues(run.Route, run.Agent, string(t)).Inc()
}

// RunEnded counts a run's end by outcome and code, observes its duration
// and takes it off the runs in flight.
func (s *Sink) RunEnded(end transformers.RunEnd) {
	s.inFlight.WithLabelValues(end.Route, end.Agent).Dec()
	s.ended.WithLabelValues(end.Route, end.Agent, end.Outcome, end.Code).Inc()
	s.duration.WithLabelValues(end.Route, end.Agent, end.Outcome).Observe(end.Duration.Seconds())
}

// Refused counts a refused request by status and code. Its signature is
// that of [core.WithRefusalHook]: pass core.WithRefusalHook(sink.Refused)
// to every handler the sink watches.
func (s *Sink) Refused(_ context.Context, r core.Refusal) {
	s.refused.WithLabelValues(r.Route, r.Agent, strconv.Itoa(r.Status), string(r.Code)).Inc()
}
