// Package client runs AG-UI agents over HTTP from Go, as @ag-ui/client's
// HttpAgent does in the browser: it POSTs a [agui.RunAgentInput] to the
// agent's URL, reads the event stream it answers with (SSE, or protobuf
// by content negotiation), checks it with the same [agui.Verifier] the
// servers of this module use, and reduces it into messages, state and
// activities.
//
// Quick start: run an agent to the end and read what it said and the
// state it left.
//
//	agent, err := client.New("https://example.com/agents/travel",
//		client.WithHeader("Authorization", "Bearer "+token))
//	if err != nil { … }
//	in := agui.NewInput("thread-1", "run-1")
//	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Book me a flight.")}}
//	view, err := agent.Run(ctx, in)   // err: the stream was rejected or ctx ended
//	if err != nil { … }
//	for _, m := range view.Messages { … }
//	plan, err := client.State[Plan](view)
//
// [Agent.Events] is the same run as an iterator: each event as it arrives,
// with the [View] already updated, so a caller can render deltas.
//
// What the reducer does, after the official client: chunk events expand
// into start, content and end events; MESSAGES_SNAPSHOT replaces the
// messages; STATE_SNAPSHOT replaces the state and STATE_DELTA patches it
// (a patch that does not apply is a [Warning] and the state is kept);
// ACTIVITY_SNAPSHOT and ACTIVITY_DELTA build activity messages;
// TOOL_CALL_RESULT adds a tool message; event metadata merges into its
// message or tool call, the last write winning; subagent attribution is
// kept on each message. An event type from a newer protocol is dropped,
// and an unknown value in an optional place (an outcome, a patch
// operation, a content part) stripped, each with a [Warning]; warnings
// reach [WithWarnings]' callback, or slog by default.
//
// A producer's RUN_ERROR is no error of the stream: the view's RunError
// holds it, and a RUN_STARTED after it begins a new run of the same
// response. The errors are [*agui.Error] values with a stable code:
// the agent's refusal (with its [*StatusError]), PROTOCOL_VIOLATION for
// a stream the verifier rejects, SERIALIZATION for an event that does
// not decode, DISCONNECTED for a stream that ends before its run's
// terminal event, CANCELLED when the context ends.
package client
