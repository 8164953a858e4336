// Package aguiprom is a ready Prometheus sink for agent runs: it counts
// runs, events and refused requests and measures run durations, each
// labelled with the route and agent that served them, so a service needs
// no hand-written collectors. It is its own package so that the runner
// (package core) and the transformers depend on no metrics library.
//
// One [Sink] feeds both ends of a request:
//
//	reg := prometheus.NewRegistry()
//	sink, err := aguiprom.New(reg)
//	// runs and events: the Metrics transformer, last in the chain
//	agents := r.Group("/agents", ginagui.Transform(transformers.Metrics(sink)))
//	// refused requests (4xx, 429, 503 before any event): the refusal hook
//	ginagui.Register(agents, "/travel", travel,
//		core.WithAgentName("travel"), core.WithRefusalHook(sink.Refused))
//	r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
//
// The route label is the route's pattern (core.WithRoute; ginagui sets the
// Gin route, http.ServeMux its pattern) and the agent label its name
// (core.WithAgentName). Thread and run ids, which clients choose, are
// never labels. The metrics, with the default namespace "agui":
//
//	agui_runs_started_total{route,agent}                 counter
//	agui_runs_in_flight{route,agent}                     gauge
//	agui_events_total{route,agent,type}                  counter
//	agui_runs_ended_total{route,agent,outcome,code}      counter
//	agui_run_duration_seconds{route,agent,outcome}       histogram
//	agui_requests_refused_total{route,agent,status,code} counter
package aguiprom
