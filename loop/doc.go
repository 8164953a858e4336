// Package loop is a tool-calling agent loop on core: a model provider,
// typed tools, parallel tool calls with a concurrency limit, approvals as
// AG-UI interrupts, cancellation, durable checkpoints and delegation.
//
// Quick start:
//
//	weather, err := loop.NewTool("get_weather", "Current weather for a city",
//		func(ctx context.Context, in struct {
//			City string `json:"city"`
//		}) (Weather, error) {
//			return lookUp(ctx, in.City)
//		})
//	agent, err := loop.New(provider, // openai.New(…), anthropic.New(…) or loop.Script(…)
//		loop.WithInstructions("You are a travel assistant."),
//		loop.WithTools(weather),
//		loop.WithToolConcurrency(4),
//		loop.WithNeedsApproval(func(c loop.Call) bool { return c.Name == "book_flight" }))
//
// The agent is a core.Agent[core.NoState]: serve it over AG-UI with
// ginagui.Register(r, "/agents/travel", agent). Or run it directly, on a
// core run of its own whose events (on Input.OnEvent) pass the same
// verifier:
//
//	res, err := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("Weather in Oslo?")}})
//	if res.FinishReason == loop.FinishMaxSteps { … }
//
// A run asks the provider for a turn, runs the turn's tool calls and
// repeats until the model answers without calling a tool ([FinishStop]),
// [WithMaxSteps] turns ran ([FinishMaxSteps], a success), a call needs approval
// ([FinishAwaitingApproval]: an AG-UI interrupt with reason "tool_approval"),
// or ctx is cancelled ([FinishAborted], returned with a nil error). When the
// provider ends a turn early the run ends with its reason: [FinishLength]
// (the output token limit) or [FinishContentFilter] (a refusal). A failure
// returns [FinishError] and a *agui.Error whose Code is stable (THREAD_BUSY,
// THREAD_INTERRUPTED, BAD_RESUME, DELEGATION_DEPTH, PROVIDER_ERROR, CHECKPOINT_ERROR,
// TOOL_ERROR, APPROVAL_EXPIRED, UNSUPPORTED_CONTENT, TOOL_NAME_CLASH,
// FORBIDDEN). Provider, tool and store failures reach clients with
// a fixed message per code; the cause stays in the error (errors.Is,
// errors.As) and in core's log line for the failed run.
//
// A turn's text, reasoning and tool call arguments stream as the model
// sends them, an event per delta. Deltas that arrive close together leave
// in one write and one flush to the client ([core.Emitter.Coalesce]):
// while more deltas wait, or when one came within 1 ms of the one before,
// the client's writer is held, for at most 1 ms and 64 deltas. A delta
// after a pause of the model (a real model's tokens mostly come several
// milliseconds apart) goes out at once; no event waits more than 1 ms.
//
// [WithModelSettings] sets temperature, the output token limit, stop
// sequences, the tool choice and parallel tool calls in provider-neutral
// terms; each provider maps what it supports and documents what it
// ignores. WithOutput[T] asks for a typed final answer: providers use their
// JSON mode, the loop validates the answer against T's schema, tries one
// repair turn, and puts the T on [Result.Output] and RUN_FINISHED's result,
// or ends with [FinishOutputInvalid].
//
// Tool calls of a turn start in call order, each right after its gate
// ([WithBeforeToolCall], its TOOL_CALL_START/ARGS/END events, [WithOnToolCall],
// argument validation, [WithPreToolCall], [WithNeedsApproval]) ran, one call at a time; at most
// [WithToolConcurrency] run at once. TOOL_CALL_RESULT events come in completion
// order; the transcript keeps call order. Every call gets exactly one
// result, whatever happens: a failing tool gets an error result, calls an
// abort never reached get a "cancelled" result, and calls a propagating
// error ([Propagate], a [WithPreToolCall] error, the delegation depth guard) kept
// from starting get a "not-run" result. [WithToolTimeout] bounds each call: one
// still running at its deadline is cancelled and gets a "timeout" result.
//
// Each thread has a checkpoint in a [Store] (a [MemoryStore] by default). A
// model turn is saved before any of its calls starts and again each time
// the in-order prefix of finished calls grows, so a run resumed after a
// crash never asks the model again for a saved turn and never runs a
// recorded call again. Runs claim their thread with a versioned write, and
// renew that lease while they wait on the model or tools: a second run on
// a busy thread fails with THREAD_BUSY before anything runs (through HTTP,
// a 409 before the stream) unless [WithBusy] has it wait, interrupt the
// holder or steer it ([BusyEnqueue], [BusyInterrupt], [BusySteer]),
// and an approval's answer is recorded in the claiming write, so it is
// acted on once. Leases and approval deadlines are times of the store's
// clock (Store.Now), never a replica's, so replicas whose clocks disagree
// still exclude each other.
//
// # Shaping calls
//
// [WithBeforeToolCall] denies a call (with a result the model reads) or
// rewrites its arguments; [WithAfterToolCall] replaces or redacts a result
// before the client and the model see it; [WithBeforeModelCall] adjusts each
// model request. An approval's answer may carry edited arguments, and
// [WithApprovalTimeout] gives approvals a deadline (APPROVAL_EXPIRED).
// [NewQuestion] makes a tool that asks the user first: its call pauses
// the run as an approval does, and the resume's payload is the answer the
// tool runs with; [Prompt] adds what the user chooses from.
// [WithLangGraphInterrupts] pauses in the dialect of clients built on
// CopilotKit's useLangGraphInterrupt instead (CUSTOM on_interrupt,
// resumed from forwardedProps.command.resume). [WithToolSets]
// adds tools that change while the agent lives, such as an MCP server's
// (package loop/mcptool); loop/httptool is a built-in HTTP tool.
//
// Tools run at least once per call: a call that was running when its
// process died runs again after the lease. A tool reads its call id and
// attempt with [CallFrom] and uses the id as an idempotency key.
//
// # What AG-UI front ends use
//
// Frontend tools: the input's tools (RunAgentInput.tools) are offered to
// the model beside the agent's; a turn calling one runs its server calls,
// then ends the run with [FinishAwaitingClient] (RUN_FINISHED, success). The
// client runs the tool and sends its result as a tool message with the
// next run; results for calls that are not pending are ignored, and a
// pending call left without a result gets a "not-run" result.
//
// Shared state: NewTyped[S] makes a core.Agent[S]; tools read and change
// the state with [State] and [UpdateState], the model sees it with the input's
// context ([WithRenderContext]), the checkpoint keeps it, and [WithPredictState]
// mirrors streamed arguments into it.
//
// Tool context: CallFrom gives a tool its call (id, name, thread, run,
// attempt); [Progress] and [ProgressPatch] report progress as ACTIVITY_*
// events.
//
// Background work: [NewBackgroundTool] makes a tool whose call answers at
// once while its work goes on, detached from the turn, on a [Background]
// that bounds, times out and shuts down its tasks; the task is an
// activity while the run lasts, and its result reaches the thread's next
// run through the store. Observational memory: [WithObserver] compresses
// a thread's older messages into observations ([Observer]) the model
// reads in their place, each cycle an activity.
//
// History: a run whose input lacks messages of the thread (a reloaded
// page) starts with MESSAGES_SNAPSHOT; [ThreadsHandler] serves the thread
// API: a principal's threads by pages (a [ThreadStore], which MemoryStore
// and loop/redisstore are), rename, archive, delete, a thread's messages
// and state as JSON; [WithTitles] names a thread after its first
// exchange. Reads are bounded by the event limit
// ([agui.MaxEventSize]): a longer thread gets its newest messages that
// fit, and still runs. A thread the store has never seen adopts the
// client's history ([WithAdoptHistory]), never running its calls.
//
// # Memory and durability
//
// The default MemoryStore is bounded ([NewMemoryStore]'s options: threads,
// bytes, TTLs). A thread's transcript grows with every run, by its input,
// each model turn and each tool result; [WithMaxSteps] bounds one run's growth,
// [WithMaxTranscript] drops a thread's oldest exchanges (by default nothing is
// dropped), and the store's caps bound the whole. For
// threads that outlive a process or are shared by replicas, use
// loop/redisstore; loop/storetest checks any other Store.
//
// # Who owns a thread
//
// A thread belongs to the principal whose run created it. Give the route
// its principal hook ([core.WithPrincipal]: a user id, an API key's name;
// "anonymous" for callers without credentials; an error for unknown
// credentials, answered 401 on every method), and serve the agent behind
// OwnerGuard and its threads with ThreadsHandler, both given the same hook,
// which answer another principal's run, resume or thread request with a
// JSON 403 (FORBIDDEN) before any stream:
//
//	principal := core.PrincipalFunc(userFrom)
//	http.Handle("/agents/travel", agent.OwnerGuard(principal, handler))
//	threads := loop.ThreadsHandler(agent, principal)
//	http.Handle("/agents/travel/threads", threads)
//	http.Handle("/agents/travel/threads/", threads)
//
// Ownership fails closed: an owned thread is never served to a request
// without a principal. Outside HTTP, [core.ContextWithPrincipal] puts the
// principal on a run's context and CheckOwner is the check itself; a run
// with a principal records it in its thread's [Checkpoint.Owner] and
// refuses a thread owned by another.
package loop
