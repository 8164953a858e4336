package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Agent is a tool-calling agent loop: it asks its provider for a turn,
// runs the turn's tool calls, and repeats until the model answers without
// calling a tool, [WithMaxSteps] is reached, a call needs approval, or the run
// is aborted. Run it directly with Execute, or host it with [core.Run] (it
// is a core.Agent[core.NoState]).
//
// An Agent is immutable and safe for concurrent use; runs on one thread
// exclude each other through its checkpoint store.
type Agent struct {
	provider Provider
	cfg      config
	tools    map[string]Tool
	specs    []ToolSpec
}

var _ core.Agent[core.NoState] = (*Agent)(nil)

// New returns an agent on provider.
func New(provider Provider, opts ...Option) (*Agent, error) {
	if provider == nil {
		return nil, errors.New("loop: New: nil provider")
	}
	cfg := defaults()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.store == nil {
		cfg.store = NewMemoryStore()
	}
	a := &Agent{provider: provider, cfg: cfg, tools: map[string]Tool{}}
	for _, t := range cfg.tools {
		if _, dup := a.tools[t.Name()]; dup {
			return nil, fmt.Errorf("loop: New: two tools named %s", t.Name())
		}
		a.tools[t.Name()] = t
		a.specs = append(a.specs, t.Spec())
	}
	if err := cfg.settings.checkTools(a.tools); err != nil {
		return nil, err
	}
	return a, nil
}

// FinishReason is why a run ended.
type FinishReason string

// The finish reasons.
const (
	// FinishStop: the model answered without calling a tool.
	FinishStop FinishReason = "stop"
	// FinishMaxSteps: [WithMaxSteps] model turns ran; the transcript is valid.
	FinishMaxSteps FinishReason = "max-steps"
	// FinishAborted: the context was cancelled; unreached calls got
	// cancelled results.
	FinishAborted FinishReason = "aborted"
	// FinishAwaitingApproval: a call waits for approval ([Result.Interrupt]).
	FinishAwaitingApproval FinishReason = "awaiting-approval"
	// FinishError: the run failed; Execute's error says why.
	FinishError FinishReason = "error"
	// FinishAwaitingClient: the model called frontend tools ([Input.Tools]);
	// the client runs them and sends their results with the next run.
	FinishAwaitingClient FinishReason = "awaiting-client"
	// FinishSteered: another run held the thread, and this run's new
	// messages were handed to it ([BusySteer]); that run answers them.
	FinishSteered FinishReason = "steered"
)

// Input is one run's input: a plain value, read by the run and not kept.
type Input struct {
	// ThreadID keys the checkpoint; "" starts a new thread ([Result.ThreadID]
	// names it).
	ThreadID string
	// Messages is the new input: its user, system and developer messages
	// whose IDs the thread's transcript lacks. The checkpoint is the
	// authority on the rest, so a client may send the whole conversation,
	// and cannot inject assistant turns or tool results (except results
	// of pending frontend calls, and the history of a thread the store
	// has never seen: see [WithAdoptHistory]). When Messages lacks a message of
	// the thread, the run first sends MESSAGES_SNAPSHOT of the transcript
	// (of its newest messages that fit in one event, for a thread over
	// [agui.MaxEventSize]). An id too long for the events that carry it
	// fails the run with [CodeIDTooLong] before anything runs.
	Messages []agui.Message
	// Resume answers the thread's pending approval.
	Resume []agui.ResumeEntry
	// commandResume is forwardedProps.command.resume, read for an agent
	// [WithLangGraphInterrupts] (nil: none).
	commandResume json.RawMessage
	// RunID names the run for its tools (see [CallFrom]); "" mints one.
	RunID string
	// Tools are the client's frontend tools, offered to the model beside
	// the agent's own: a call to one ends the run with
	// [FinishAwaitingClient], and the next run brings its result as a tool
	// message. A name clash with a tool the model is offered (an agent
	// tool, or a tool of a tool set, checked before the run and again
	// before every model turn) fails the run with [CodeToolNameClash]
	// before that turn's model call: a client never replaces a server tool.
	Tools []agui.Tool
	// Context is the client's context, shown to the model (see
	// [WithRenderContext]).
	Context []agui.ContextItem
	// OnEvent receives the run's AG-UI stream, RUN_STARTED to its terminal
	// event, one event at a time on Execute's goroutine (nil discards it).
	// Events arrive after they were emitted, as they would reach a client.
	// An error cancels the run if it is still going, with the error as
	// the cause ([Result.Cause]), and ends the delivery.
	OnEvent func(agui.Event) error
}

// Result is what a run produced: a plain value the caller owns (its
// messages are shared with the checkpoint and must not be modified).
type Result struct {
	ThreadID     string
	FinishReason FinishReason
	// Steps is the number of model turns of the run.
	Steps int
	// Messages is the thread's transcript.
	Messages []agui.Message
	// Usage is the tokens this call spent.
	Usage Usage
	// Interrupt is what the run waits on when FinishReason is
	// [FinishAwaitingApproval].
	Interrupt *agui.Interrupt
	// Cause is the context's cause when FinishReason is [FinishAborted].
	Cause error
	// Output is the typed final answer, a T of the agent's WithOutput[T], when
	// the run finished with [FinishStop]; nil otherwise.
	Output any
}

// UserText returns a user message with the given text and a fresh id.
func UserText(text string) *agui.UserMessage {
	return &agui.UserMessage{ID: newID("user"), Content: agui.TextContent(text)}
}

// Execute runs the loop on in without an AG-UI transport. The run is
// still a core run (RUN_STARTED to its terminal event, on
// [Input.OnEvent]), so its events pass the same emitter and ordering
// verifier as a hosted run's: an event the verifier rejects fails the run
// with its PROTOCOL_VIOLATION error. An aborted run returns its result
// and a nil error; the error is non-nil only when the run failed
// ([FinishError]), and is then a [*agui.Error] with a stable code.
func (a *Agent) Execute(ctx context.Context, in Input) (Result, error) {
	if in.ThreadID == "" {
		in.ThreadID = newID("thread")
	}
	if in.RunID == "" {
		in.RunID = newID("run")
	}
	var (
		res     Result
		runErr  error
		settled bool
	)
	err := host(ctx, in.ThreadID, in.RunID, a.cfg.logger, in.OnEvent, func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		res, runErr = a.execute(ctx, in, sink{rc.Emitter}, lineage{maxDepth: a.cfg.maxDepth}, nil)
		if runErr == nil {
			a.nameThread(ctx, sink{rc.Emitter}, in.ThreadID, &res)
		}
		o, err := settle(ctx, rc, &res, runErr, a.cfg.langGraph)
		runErr, settled = err, true
		return o, err
	})
	switch {
	case err != nil:
		return Result{ThreadID: in.ThreadID, FinishReason: FinishError}, err
	case !settled:
		// The loop panicked (core recovered the panic and logged its
		// stack): the stream ended with RUN_ERROR AGENT_PANIC.
		return Result{ThreadID: in.ThreadID, FinishReason: FinishError}, agui.NewError(agui.CodePanic, "loop: the run panicked")
	}
	return res, runErr
}

// Run implements [core.Agent]: it runs the loop on the run's input, sending
// events through rc. A stop or max-steps run ends with a success outcome
// whose result is {"finishReason", "steps"} (and "output", the typed
// answer, under [WithOutput]); an approval pause with an
// interrupt outcome; an abort with a cancelled outcome (the runner reports
// a cancelled run as RUN_ERROR CANCELLED); a failure with RUN_ERROR and
// the loop's code. Usage goes on the terminal event either way.
func (a *Agent) Run(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
	return hosted(ctx, a, rc, nil)
}

// hosted runs a on a core run, with st as its shared state (nil for none).
func hosted[S any](ctx context.Context, a *Agent, rc *core.RunContext[S], st stateAccess) (agui.Outcome, error) {
	in := rc.Input()
	input := Input{ThreadID: in.ThreadID, RunID: in.RunID, Messages: in.Messages, Resume: in.Resume, Tools: in.Tools, Context: in.Context}
	if a.cfg.langGraph {
		resume, err := commandResume(in.ForwardedProps)
		if err != nil {
			return agui.Outcome{}, err
		}
		input.commandResume = resume
	}
	res, err := a.execute(ctx, input, sink{rc.Emitter}, lineage{maxDepth: a.cfg.maxDepth}, st)
	if err == nil {
		a.nameThread(ctx, sink{rc.Emitter}, in.ThreadID, &res)
	}
	return settle(ctx, rc, &res, err, a.cfg.langGraph)
}

// settle ends a loop run on its core run: it puts the usage on rc and
// returns the outcome, or the error that fails the run. An event the
// emitter refused while ctx was live (the verifier rejected it) is no
// abort from outside but a failure: res becomes [FinishError] and the
// refusal is the error. Under langGraph a pause ends as
// [WithLangGraphInterrupts] says.
func settle[S any](ctx context.Context, rc *core.RunContext[S], res *Result, err error, langGraph bool) (agui.Outcome, error) {
	if !res.Usage.IsZero() {
		rc.AddUsage(res.Usage.Token())
	}
	if err == nil && res.FinishReason == FinishAborted && ctx.Err() == nil && res.Cause != nil {
		res.FinishReason, res.Cause, err = FinishError, nil, res.Cause
	}
	if err != nil {
		return agui.Outcome{}, err
	}
	switch {
	case res.FinishReason == FinishAwaitingApproval && langGraph:
		ev, err := onInterrupt(res.Interrupt)
		if err == nil {
			err = rc.Emit(ev)
		}
		if err != nil {
			res.FinishReason = FinishError
			return agui.Outcome{}, err
		}
	case res.FinishReason == FinishAwaitingApproval:
		return agui.Interrupted(*res.Interrupt), nil
	case res.FinishReason == FinishAborted:
		return agui.Cancelled(), nil
	}
	result := map[string]any{"finishReason": string(res.FinishReason), "steps": res.Steps}
	if res.Output != nil {
		result["output"] = res.Output
	}
	rc.SetResult(result)
	return agui.Success(), nil
}
