// Package transformers holds the built-in stream transformers: ordinary
// implementations of [github.com/agui-go/agui/core.Transformer], the one
// extension point through which everything that observes or rewrites a
// run's events on their way to the client passes. There is no callback API
// beside it.
//
// Each constructor returns a core.TransformerFactory, which builds one
// transformer per run: register it once and serve any number of
// concurrent runs. Pass them to a run, in order:
//
//	toState, err := transformers.ToolResultToState(transformers.StateMapping{
//		Tool: "search", Path: "/search/results",
//	})
//	if err != nil {
//		return err
//	}
//	events := core.Run(ctx, agent, input, core.WithTransformers(
//		transformers.DenyToolCalls("internal_lookup"),   // hide a tool from the client
//		toState,                                         // mirror search results into state
//		transformers.SubagentVisibility(transformers.VisibilityInline),
//		transformers.Log(logger, slog.LevelDebug),       // last: log what the client gets
//		transformers.Metrics(sink),
//	))
//
// The Gin plugin's route groups take the same values, so a group's
// transformers serve every run on its routes. What the chain emits is
// verified like anything the agent emits, and an error from a transformer
// ends the run with a RUN_ERROR (code TRANSFORM_ERROR).
//
// The built-ins:
//
//   - [FilterToolCalls], [AllowToolCalls], [DenyToolCalls] hide tool calls (every
//     event of them, and their ids) from the client. They do not stop the
//     calls running.
//   - [ToolResultToState] writes a tool's results into the shared state and
//     sends the client the smaller of a STATE_DELTA and a STATE_SNAPSHOT.
//   - [SubagentVisibility] shows subagents as emitted, inline (no lifecycle
//     events, for clients older than 1.0) or hidden (the parent's own
//     events only).
//   - [Log] logs each event through log/slog; [Metrics] reports run and event
//     counts and run durations, labelled with the run's route and agent, to
//     a [MetricsSink] (package aguiprom ships one for Prometheus).
//
// Order matters: each transformer sees what the ones before it emit. A
// filter before ToolResultToState keeps hidden tools' results out of the
// state too; after it, the state still gets them while the calls stay
// hidden. Put Log and Metrics last to observe what the client receives.
package transformers
