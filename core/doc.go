// Package core runs AG-UI agents: implement [Agent], hand it to [Run], and
// range over the typed event stream (the vocabulary of package
// [github.com/agui-go/agui]) that a transport serialises. Nothing here
// depends on a web framework or a model client: [NewHandler] serves an agent
// over net/http, and package ginagui mounts one on a Gin route.
//
// # Quick start
//
//	type Draft struct {
//		Revision int    `json:"revision"`
//		Title    string `json:"title"`
//	}
//
//	editor := core.AgentFunc[Draft](func(ctx context.Context, rc *core.RunContext[Draft]) (agui.Outcome, error) {
//		step, err := rc.Step("draft") // STEP_STARTED
//		if err != nil {
//			return agui.Outcome{}, err
//		}
//		defer step.End() // STEP_FINISHED on every path
//
//		if err := rc.Think("The user wants a title."); err != nil { // REASONING_*
//			return agui.Outcome{}, err
//		}
//		if err := rc.Say(`Naming it "Q3 plan".`); err != nil { // TEXT_MESSAGE_*
//			return agui.Outcome{}, err
//		}
//		// STATE_SNAPSHOT or STATE_DELTA, whichever is smaller.
//		err = rc.UpdateState(func(d *Draft) { d.Revision++; d.Title = "Q3 plan" })
//		return agui.Success(), err
//	})
//
//	for ev, err := range core.Run(ctx, editor, agui.NewInput("thread-1", "run-1")) {
//		if err != nil {
//			return err // invalid input; nothing was started
//		}
//		send(ev) // RUN_STARTED … RUN_FINISHED
//	}
//
// # The stream
//
// Every run starts with RUN_STARTED (the request's threadId and runId, and
// protocolVersion "1.0", or "1.1" to a client that declares 1.1 or newer:
// agui.ServedVersion) and ends with exactly one terminal event:
// RUN_FINISHED carrying the agent's Outcome (Success, Interrupted,
// Cancelled), or RUN_ERROR carrying the code and message of the error the
// agent returned (AgentError wraps a plain error as "agent error: …").
//
// The agent runs on a goroutine the stream owns. Breaking out of the loop
// cancels the run and waits for the agent to return; a panic in the agent
// is recovered, logged with its stack, and reported as RUN_ERROR with code
// AGENT_PANIC, so one bad run cannot take the server down.
//
// # Emitting
//
// [RunContext] embeds an [Emitter]: Say, Message, Think, Reasoning, Step,
// ToolCall, Subagent and the raw Emit. Handles end with End (idempotent; use
// defer), and whatever the agent leaves open when it returns is closed by
// the runner, innermost first, before RUN_FINISHED. Every event passes the
// ordering Verifier on its way out, and a rejected one comes back as the
// emit's error at once. Handles are safe for concurrent use, so parallel
// tool calls can stream at the same time.
//
// A Subagent is an Emitter whose events carry its subagentRunId; opening a
// subagent from a subagent nests it. Finish, Suspend or Fail closes it.
//
// # Cancellation and backpressure
//
// The ctx given to [Agent.Run] is cancelled when the run is: pass it to every
// model and tool call (select on ctx.Done() where you wait). After
// cancellation every emit fails with a CANCELLED error, so the agent's next
// `return err` unwinds the run, and the stream still ends with RUN_ERROR
// (code CANCELLED) whatever the agent returns. An agent that stops on
// purpose while the run is live returns Cancelled() instead, and gets
// RUN_FINISHED with outcome cancelled.
// A transport that must cancel from elsewhere takes [Runner.Cancel] from
// [NewRunner] before the stream starts.
//
// Events wait for the consumer in a bounded queue ([WithQueueSize]): a slow
// client slows the agent down instead of growing the heap. The terminal
// event never waits for room.
//
// # State and interrupts
//
// The state type parameter S is the agent's typed view of the state the
// client holds ([NoState] for none): the input's state is decoded into it,
// and UpdateState publishes only what changed. An agent pauses by
// returning Interrupted; the next run reads the client's answers with
// ResumeFor and ResumeCovers.
//
// # Transformers
//
// [WithTransformers] passes the stream through a chain of Transformers built
// per run; their output is verified again before it reaches the client.
//
// # Concurrency
//
// Run, [Runner], RunContext, Emitter and the handles are safe for concurrent
// use as their docs say. The wire types (events, messages, RunAgentInput,
// Content, Outcome, Interrupt, ResumeEntry, TokenUsage, Tool, the
// capabilities structs) are plain data: safe for concurrent reads, not for
// a write concurrent with anything else. Emitting hands an event over to
// the runner, which may tag it and encodes it later, so an emitted event is
// never modified or emitted again by its caller. Decoded values share no
// memory with the bytes they were decoded from.
//
// # HTTP
//
// NewHandler serves an agent over plain net/http: the request is checked
// and decoded before anything is written, the stream is SSE (or protobuf
// when a 1.x client prefers it), and a client that goes away cancels the
// run. Package ginagui mounts the same handler on Gin routes.
//
//	h, err := core.NewHandler(editor, core.WithGate(&gate), core.WithQueueSize(16))
//	caps, err := core.NewCapabilitiesHandler(h.Capabilities(), h.InputReader())
//	mux.Handle("POST /agents/editor", h)
//	mux.Handle("GET /agents/editor/capabilities", caps)
//	// on SIGTERM: core.Shutdown(ctx, srv, &gate) ends open streams too
//
// Options are typed by where they apply. A [RunOption] configures a run
// ([Run], [NewRunner]); a [HandlerOption] configures a handler
// ([NewHandler], [NewInputReader]); an [Option] ([WithQueueSize],
// [WithTransformers], [WithLogger], [WithRunTimeout]) is both, and a
// handler passes it on to each run. A handler-only option such as
// [WithHeartbeat] given to Run does not compile.
//
// An [InputReader] reads and checks run requests with a route's options
// (the handler's limits, timeouts, principal hook and refusals), for
// middleware that needs the input before the run; it puts it on the
// request's context ([ContextWithInput]), where the Handler finds it.
//
// Each run writes one log line naming its route and agent ([WithRoute],
// [WithAgentName], read back with [RouteFrom]) and, when it failed, its whole
// error; each refused request writes one too and goes to [WithRefusalHook].
// Per-route limits: [WithMaxConcurrentRuns] answers a JSON 429 with
// Retry-After over the cap, and [WithRunTimeout] (a run option) ends a run
// at its deadline with RUN_ERROR DEADLINE_EXCEEDED. All are off by
// default.
//
// # Other transports
//
// A transport other than Serve drives a run through the same steps, each
// public: [Handler.Accept] reads and checks the request, [Handler.NewRun]
// builds its run, [Handler.Slot] and [Gate.Admit] admit it,
// [Runner.Start] hands its events over, and a [Conn] writes them to the
// client as Serve would. Package resume serves resumable runs this way.
package core
