// Package remote serves an AG-UI agent that runs elsewhere (written in
// Python, TypeScript or anything else that speaks the protocol) as a
// [core.Agent], so a route of this module puts its authentication,
// limits, ownership, metrics, tracing, resumable runs and verifier in
// front of it; and it offers a remote agent to a [loop] agent as a tool.
// Both call the remote agent through a [client.Agent].
//
// Quick start: serve the agent at a URL on a route of your own.
//
//	c, err := client.New("http://travel-agent.internal/agent")
//	if err != nil { … }
//	proxy, err := remote.New(c)
//	if err != nil { … }
//	h, err := core.NewHandler(proxy) // or ginagui.Handler(proxy, …)
//
// Each run posts the run's input to the remote agent as it came (thread
// id, run id, messages, state, tools, context, resume), so a resume goes
// back to the same remote thread, and passes the remote's events through
// this run's emitter, which verifies them again. The remote's RUN_STARTED
// and its terminal event belong to the remote run: this run starts and
// ends with its own, carrying the remote's outcome (an interrupt pauses
// this run on the same interrupts), result and usage. Cancelling this run
// (the client went away, a Stop, a deadline) cancels the remote request.
// The remote's failures end the run with a RUN_ERROR of its own code:
// [CodeRefused], [CodeRunError], [CodeConnection] or [CodeBadStream].
//
// [Tool] delegates a loop's task to a remote agent instead: the remote
// run's events appear under SUBAGENT_STARTED and SUBAGENT_FINISHED,
// attributed to the calling tool call, and its final text is the tool's
// result.
package remote
