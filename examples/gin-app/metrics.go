package main

import (
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agui-go/agui/aguiprom"
)

// newMetrics registers the SDK's ready Prometheus sink (package aguiprom)
// with reg and returns it with the GET /metrics handler serving reg:
//
//	sink, metrics, err := newMetrics(prometheus.NewRegistry())
//	r.GET("/metrics", metrics)
//	agents := r.Group("/agents", ginagui.Transform(transformers.Metrics(sink)))
//	// and on every agent route: core.WithRefusalHook(sink.Refused)
//
// It fails when reg already holds collectors of the same names.
func newMetrics(reg *prometheus.Registry) (*aguiprom.Sink, gin.HandlerFunc, error) {
	sink, err := aguiprom.New(reg)
	if err != nil {
		return nil, nil, err
	}
	return sink, gin.WrapH(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})), nil
}
