// Package eino serves agents built on CloudWeGo eino
// (github.com/cloudwego/eino) behind the AG-UI protocol, without
// rewriting them: an ADK agent becomes a core.Agent that ginagui mounts on
// a Gin route, and an eino chat model becomes a loop model provider. It is
// a module of its own, github.com/agui-go/agui/integrations/eino, so
// programs that do not use eino never have it in their go.sum.
//
// # Quick start
//
//	chat, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Name: "travel", Description: "Books trips", Instruction: "Be brief.",
//		Model: model, // any model.ToolCallingChatModel: eino-ext's OpenAI, Ark, Claude, Ollama…
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
//	})
//	store, err := eino.NewCheckPointStore(kv) // kv: your Redis in a few lines, or new(eino.MemoryKV)
//	agent, err := eino.NewAgent(chat, eino.WithCheckPointStore(store))
//	err = ginagui.Register(r, "/agents/travel", agent)
//
// and, to drive our own loop with an eino model instead:
//
//	p, err := eino.NewProvider(model)
//	agent, err := loop.New(p, loop.WithTools(weather))
//
// # The agent
//
// Each AG-UI run is one adk.Runner run of the agent, with the input's
// messages (reasoning and activity messages left out) and streaming on;
// the request's context is the runner's, so a client that leaves cancels
// the model and tool calls in flight. The events map as follows:
//
//   - an assistant message (streamed or whole) becomes REASONING_* for its
//     ReasoningContent, TEXT_MESSAGE_* for its Content and TOOL_CALL_START,
//     TOOL_CALL_ARGS, TOOL_CALL_END for each of its tool calls, the calls
//     attributed to the text message when there is one;
//   - a tool message becomes the TOOL_CALL_RESULT of its call, so every
//     call the agent runs has its start, end and result;
//   - an agent transfer (a path below the root agent in the event's
//     RunPath) becomes a subagent: SUBAGENT_STARTED named after the agent,
//     its parent tool call the transfer_to_agent call, and
//     SUBAGENT_FINISHED when the events leave it; so do the internal
//     events of an agent used as a tool (adk.NewAgentTool with
//     EmitInternalEvents), under the tool call that runs it;
//   - an interrupt (Action.Interrupted: adk.Interrupt, tool.Interrupt,
//     compose.Interrupt) ends the run with an interrupt outcome, one AG-UI
//     interrupt per root cause, with eino's interrupt id, reason
//     [ReasonInterrupt], the interrupt's info as message (a string) and
//     metadata "info", and the tool call it paused; its subagents end
//     suspended. The thread's next run, whose resume answers those ids,
//     is Runner.ResumeWithParams from the thread's checkpoint, every entry
//     a target whose data is the [agui.ResumeEntry]
//     (tool.GetResumeContext[agui.ResumeEntry]);
//   - the session values (adk.AddSessionValue, a ChatModelAgent's
//     OutputKey) are the shared state: the input's state is given as
//     session values, and when they change the client gets STATE_SNAPSHOT
//     or STATE_DELTA ([State]); values that do not encode as JSON are left
//     out.
//
// Checkpoints are saved under the thread id in the store of
// [WithCheckPointStore], scoped by the request's principal when the route
// names one (core.WithPrincipal), so that nobody resumes or clears another
// principal's paused thread by its id: [NewCheckPointStore] adapts any [KV] (Redis, SQL,
// [MemoryKV] for one process) with a key prefix and an expiry. Without a
// store an interrupt, or a resume, ends the run with [CodeCheckPointFailed],
// as does an interrupt an agent built by hand instead of with
// adk.Interrupt (eino saves no checkpoint for it).
// A run that completes empties its thread's checkpoint, so a stale resume
// (an answer sent twice) fails with that code instead of running the
// paused tools again.
//
// # Errors
//
// An error eino reports ends the run with RUN_ERROR [CodeRunnerFailed], a panic
// eino recovered (in a model, tool, callback or middleware) with
// [CodeRunnerPanic], a checkpoint that cannot be saved or loaded with
// [CodeCheckPointFailed]. The client gets the code and a fixed message; the
// whole error is the run's log line (core.WithHandlerLogger), since it may
// hold addresses and keys. A panic in the adapter itself is core's
// AGENT_PANIC. Every path reads the runner's events to the end, so no
// goroutine of eino's outlives the run.
//
// # The provider
//
// [Provider] streams a model's turn: Content as text, ReasoningContent as
// reasoning, tool call fragments by their Index (calls without one are
// numbered as they arrive), the finish reasons "length" and
// "content_filter", and the last usage the stream reports. The request's
// tools are bound with WithTools; temperature, max tokens, stop sequences
// and the tool choice map to eino's common model options, parallel tool
// calls and a typed output (which the loop checks anyway) have none. A
// failure is returned wrapped, and the loop reports it as PROVIDER_ERROR;
// a failure because the run's context ended is the context's error.
//
// # What does not map
//
// CustomizedOutput and CustomizedAction, Exit and BreakLoop have no AG-UI
// event and are not sent. eino's multimodal model output
// (AssistantGenMultiContent) is not sent; multimodal user input is, except
// parts with a file-handle source, which fail with
// loop.CodeUnsupportedContent.
//
// # Concurrency
//
// [Agent], [Provider], [MemoryKV] and the store of [NewCheckPointStore] are
// safe for concurrent use (the store if its KV is); each run builds its
// own adk.Runner.
package eino
