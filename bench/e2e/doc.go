// Package e2e compares AG-UI servers end to end, over real loopback
// sockets: ours on Gin (ginagui.Register) and on plain net/http
// (core.NewHandler), the Go community SDK on net/http, and Node.js with the
// official @ag-ui/encoder and @ag-ui/core 1.0.0 on node:http (the Python
// SDK is not among them: its package registry is out of this project's
// reach). Every server streams the standard fixture (1,018 events, package
// aguitest) per POST, building the events per request, and runs in a
// process of its own, so that its CPU time (utime+stime from /proc) and
// peak resident memory are its own alone.
//
// Quick start: the command ./cmd/e2e runs everything and prints markdown:
//
//	cd bench && go run ./cmd/e2e -c 1,16,256 -rounds 3 -duration 5s
//
// In a program, a Compare needs a Launcher, which starts each server's
// process: NewLauncher runs the Go servers as a binary whose main hands
// "-serve NAME" arguments to ServeMain, and the Node server with
// NodeCommand (which runs npm ci when node_modules is missing or older
// than package-lock.json):
//
//	self := func(args ...string) *exec.Cmd { return exec.Command(exe, args...) }
//	rows, err := e2e.Compare{
//		Concurrency: []int{1, 16},
//		Rounds:      3,
//		Duration:    5 * time.Second,
//		Launch:      e2e.NewLauncher(self, e2e.NodeDir(), 1_000_000),
//	}.Run(ctx)
//	e2e.WriteComparison(os.Stdout, rows)
//
// A Load is the client: Concurrency streams at a time for a Duration, each
// checked to be complete (the expected number of events, the last
// RUN_FINISHED). Idle measures the resident memory per idle open stream
// over HTTP/1.1, IdleHTTP2 the same over cleartext HTTP/2 with many
// streams per connection (Node on node:http2), Deltas one stream of
// one-byte deltas through Gin, and Disconnect the time from a client's
// hang-up to its agent's context being done.
//
// The thread-length sweep is a Compare of PathThread with Messages set:
// every request carries a thread of that many messages (threadfixture.Messages:
// user, assistant with a tool call, tool result, answer), which each
// server decodes and checks as it does for a real agent (ours with
// agui.DecodeInput, the community SDK into its types.RunAgentInput, Node
// with @ag-ui/core's RunAgentInputSchema) before a 7-event answer;
// WriteThreads reports server CPU per request, by thread length and
// number of concurrent clients. ServerFloor, named in the servers, adds
// the floor: a bare net/http handler answering with prepared frames.
//
// TokenPath measures a model's token: a ModelServer in the load process
// streams a turn of N tokens, OpenAI- or Anthropic-style, to a server
// process whose loop agent reads it through loop/openai or
// loop/anthropic; server CPU per delivered token is reported beside the
// same process's CPU per event of the plain fixture route.
//
// Only loopback addresses are loaded, and every loop is bounded by a
// duration or a count and by a timeout.
package e2e
