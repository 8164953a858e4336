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
//	agent, err := loop.New(provider, // openai.New(…) or loop.Script(…)
//		loop.Instructions("You are a travel assistant."),
//		loop.Tools(weather),
//		loop.ToolConcurrency(4),
//		loop.NeedsApproval(func(c loop.Call) bool { return c.Name == "book_flight" }))
//
// The agent is a core.Agent[core.NoState]: serve it over AG-UI with
// ginagui.Register(r, "/agents/travel", agent). Or run it directly:
//
//	res, err := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("Weather in Oslo?")}})
//	if res.FinishReason == loop.FinishMaxSteps { … }
//
// A run asks the provider for a turn, runs the turn's tool calls and
// repeats until the model answers without calling a tool (FinishStop),
// MaxSteps turns ran (FinishMaxSteps, a success), a call needs approval
// (FinishAwaitingApproval: an AG-UI interrupt with reason "tool_approval"),
// or ctx is cancelled (FinishAborted, returned with a nil error). A failure
// returns FinishError and a *agui.Error whose Code is stable (THREAD_BUSY,
// BAD_RESUME, DELEGATION_DEPTH, PROVIDER_ERROR, CHECKPOINT_ERROR,
// TOOL_ERROR, THREAD_FORBIDDEN). Provider, tool and store failures reach
// clients with a fixed message per code; the cause stays in the error
// (errors.Is, errors.As) and in core's log line for the failed run.
//
// Tool calls of a turn start in call order, each right after its gate
// (its TOOL_CALL_START/ARGS/END events, OnToolCall, argument validation,
// PreToolCall, NeedsApproval) ran, one call at a time; at most
// ToolConcurrency run at once. TOOL_CALL_RESULT events come in completion
// order; the transcript keeps call order. Every call gets exactly one
// result, whatever happens: a failing tool gets an error result, calls an
// abort never reached get a "cancelled" result, and calls a propagating
// error (Propagate, a PreToolCall error, the delegation depth guard) kept
// from starting get a "not-run" result.
//
// Each thread has a checkpoint in a Store (a MemoryStore by default). A
// model turn is saved before any of its calls starts and again each time
// the in-order prefix of finished calls grows, so a run resumed after a
// crash never asks the model again for a saved turn and never runs a
// recorded call again. Runs claim their thread with a versioned write, and
// renew that lease while they wait on the model or tools: a second run on
// a busy thread fails with THREAD_BUSY before anything runs,
// and an approval's answer is recorded in the claiming write, so it is
// acted on once.
//
// A thread belongs to the principal whose run created it. Serve the agent
// behind OwnerGuard, which names each request's principal with your
// function (a user id, an API key's name; "anonymous" for callers without
// credentials) and answers another principal's run, resume or history
// read with a JSON 403 (THREAD_FORBIDDEN) before any stream:
//
//	principal := func(r *http.Request) (string, error) { return userFrom(r) }
//	http.Handle("/agents/travel", agent.OwnerGuard(principal, handler))
//
// Outside HTTP, WithPrincipal puts the principal on a run's context and
// CheckOwner is the check itself; a run with a principal records it in
// its thread's Checkpoint.Owner and refuses a thread owned by another.
package loop
