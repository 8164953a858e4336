// Package genkit serves Firebase Genkit to AG-UI front ends: a
// genkit.Generate call as a core agent ([Agent]), and a Genkit model as a
// model provider of the loop ([Provider]). It is a module of its own, so
// programs that do not use Genkit never have it in their go.sum.
//
// Quick start, a Generate call with its tools on a Gin route:
//
//	g := genkit.Init(ctx, genkit.WithPlugins(&googlegenai.GoogleAI{}))
//	weather := genkit.DefineTool(g, "weather", "Current weather", lookUp)
//	agent, err := aguigenkit.NewAgent(g,
//		ai.WithModelName("googleai/gemini-2.5-flash"),
//		ai.WithTools(weather),
//		ai.WithSystem("You are a travel assistant."))
//	if err != nil { … }
//	err = ginagui.Register(r.Group("/agents"), "/travel", agent)
//
// Or a Genkit model driving the loop, whose tools, approvals and
// checkpoints then apply:
//
//	p, err := aguigenkit.NewProvider(genkit.LookupModel(g, "googleai/gemini-2.5-flash"))
//	agent, err := loop.New(p, loop.WithTools(weather))
//
// # How an Agent run maps
//
// Each run is one genkit.Generate over the thread's messages (user content
// to text and media parts, assistant tool calls to tool requests whose ref
// is the call's id, tool messages to tool responses). Genkit runs the
// model and the tools, turn after turn; the agent streams:
//
//   - a model chunk's text as TEXT_MESSAGE_START/CONTENT/END, its
//     reasoning as REASONING_* (text or reasoning a model did not stream
//     is sent from its response at the end of the turn);
//   - each tool request of a turn, once the turn is complete, as
//     TOOL_CALL_START, one TOOL_CALL_ARGS with the whole JSON input, and
//     TOOL_CALL_END, its id the request's ref (the agent sets one when
//     the model gave none; Genkit keeps it); each tool's output as
//     TOOL_CALL_RESULT (a string as it is, anything else as JSON);
//   - a tool interrupt (ToolContext.Interrupt, ai.InterruptWith) as the
//     run's interrupt outcome: one AG-UI interrupt per interrupted call,
//     its id and toolCallId the call's, reason "tool_interrupt", metadata
//     the interrupt's; calls of the turn that did finish get their results.
//
// A run whose input resumes those interrupts goes on from the
// interrupted turn: the finished calls' results come back as
// responses, and each interrupt's answer becomes ai.WithToolResponses
// (resolved with a payload: the payload is the tool's output; cancelled:
// the payload, or "cancelled by the user") or ai.WithToolRestarts
// (resolved without a payload: the tool runs again and reads the entry's
// metadata, or true, as ToolContext.Resumed). A resume that leaves an
// interrupted call unanswered, or names another, fails with
// loop.CodeBadResume; a restarted tool that interrupts again fails the
// run with CodeGenerate (Genkit refuses it). The agent keeps no state
// between runs: the thread's
// messages, which the client sends back, carry everything.
//
// Usage adds up over the turns on RUN_FINISHED. A Generate error ends the
// run with [CodeGenerate] (GENKIT_ERROR), a fixed message on the wire and
// the full error in the run's log line; a model that panics ends it with
// core's AGENT_PANIC. Cancelling the run cancels Generate's context.
//
// Not mapped: Genkit streams tool requests whole, so arguments are never
// streamed piecewise; media a model outputs, custom parts and data parts
// are dropped; a tool that panics panics on a goroutine Genkit starts,
// which no adapter can recover (Genkit ends the process). The agent adds
// the messages, a streaming callback and a model middleware to each
// Generate call, so its options must not set ai.WithMessages,
// ai.WithStreaming or ai.WithMiddleware.
//
// # The Provider
//
// [Provider] asks the model for one turn at a time with the loop's tools
// as tool definitions (Genkit does not run them: the loop does). Text and
// reasoning stream from the chunks; the tool requests (their refs as call
// ids), text the model did not stream, the finish reason ("length" ends
// the run with loop.FinishLength, "blocked" with loop.FinishContentFilter)
// and usage come from the response. Settings go in an
// ai.GenerationCommonConfig (temperature, output token limit, stop
// sequences); a named tool choice is sent as "required" with only that
// tool; ParallelToolCalls is ignored; a typed output asks for JSON with
// its schema. A model's error or panic ([*PanicError]) fails the run with
// loop's PROVIDER_ERROR.
//
// # Building with the main module
//
// Genkit's prompt library builds only with github.com/invopop/jsonschema
// v0.13, while the main module's Anthropic SDK requires v0.14. A program
// that imports this package adds, as this module's go.mod does:
//
//	replace github.com/invopop/jsonschema => github.com/invopop/jsonschema v0.13.0
//
// genkit.Init starts a goroutine that waits for SIGINT or SIGTERM until
// the context given to Init ends; a Genkit development server starts only
// with GENKIT_ENV=dev.
package genkit
