package main

import (
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/transformers"
)

// This file is the app's only contact with Prometheus: a
// transformers.MetricsSink that feeds its collectors, and the GET /metrics
// handler. The SDK itself depends on no metrics library.

// promSink feeds transformers.Metrics' measurements to Prometheus. It is
// safe for concurrent use, as every Prometheus collector is.
type promSink struct {
	started  prometheus.Counter
	inFlight prometheus.Gauge
	events   *prometheus.CounterVec
	ended    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

var _ transformers.MetricsSink = (*promSink)(nil)

// newMetrics registers the AG-UI collectors with reg and returns the sink
// to pass to transformers.Metrics and the handler serving reg's metrics:
//
//	sink, metrics, err := newMetrics(prometheus.NewRegistry())
//	r.GET("/metrics", metrics)
//	agents := r.Group("/agents", ginagui.Transform(transformers.Metrics(sink)))
//
// It fails when reg already holds collectors of the same names.
func newMetrics(reg *prometheus.Registry) (*promSink, gin.HandlerFunc, error) {
	s := &promSink{
		started: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "agui_runs_started_total", Help: "AG-UI runs started.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "agui_runs_in_flight", Help: "AG-UI runs started and not yet ended.",
		}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agui_events_total", Help: "AG-UI events sent, by type.",
		}, []string{"type"}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agui_runs_ended_total", Help: "AG-UI runs ended, by outcome and RUN_ERROR code.",
		}, []string{"outcome", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "agui_run_duration_seconds",
			Help:    "AG-UI run duration from the first event to the terminal one, by outcome.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 12), // 50ms to about 100s
		}, []string{"outcome"}),
	}
	for _, c := range []prometheus.Collector{s.started, s.inFlight, s.events, s.ended, s.duration} {
		if err := reg.Register(c); err != nil {
			return nil, nil, err
		}
	}
	return s, gin.WrapH(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})), nil
}

// RunStarted counts a run. Thread and run ids are not labels: their
// cardinality is unbounded.
func (s *promSink) RunStarted(threadID, runID string) {
	s.started.Inc()
	s.inFlight.Inc()
}

// Event counts an event by type.
func (s *promSink) Event(t agui.EventType) { s.events.WithLabelValues(string(t)).Inc() }

// RunEnded counts a run's end and observes its duration.
func (s *promSink) RunEnded(end transformers.RunEnd) {
	s.inFlight.Dec()
	s.ended.WithLabelValues(end.Outcome, end.Code).Inc()
	s.duration.WithLabelValues(end.Outcome).Observe(end.Duration.Seconds())
}
