package loop

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/agui-go/agui"
)

// run is one execution of the loop. It is owned by the goroutine that
// called execute: only that goroutine touches it (tool goroutines only send
// completions).
type run struct {
	a      *Agent
	sink   sink
	line   lineage
	thread string
	// cp is the working checkpoint, saved at version.
	cp      Checkpoint
	version int64
	// stored is the transcript saved at version.
	stored storedTranscript
	// input is new input held back until the pending calls are answered.
	input []agui.Message
	usage Usage
	// delegated is the usage of runs this run's tools delegated to.
	delegated usageBox
	// argDeltas keeps the streamed argument fragments of this run's calls.
	argDeltas map[string][]string
	// answers are the users' answers to question tools' calls, by call
	// id, for the calls this run starts.
	answers map[string]json.RawMessage
	// clientCalls are the tool call ids the client's history already holds
	// (assistant messages of the input), so their arguments are not sent
	// again: a client appends repeated TOOL_CALL_ARGS to what it has.
	clientCalls map[string]bool
	// clock is the store's clock, read when the run claims its thread.
	clock storeClock
	// emitErr is the first event the sink refused; it aborts the run.
	emitErr error
	cancel  context.CancelCauseFunc
	// renewal ticks while the run holds its thread: the loop renews its
	// lease on each tick it sees while waiting on the model or tools.
	renewal *time.Ticker
	// lost is the error of a failed renewal during a model turn: another
	// run may hold the thread, so this one must stop.
	lost error
	// tools is what the current model turn offered (nil before one).
	tools *toolView
	// runID names the run for its tools.
	runID string
	// frontend are the input's frontend tools by name, frontSpecs their
	// specs for the model.
	frontend   map[string]agui.Tool
	frontSpecs []ToolSpec
	// announce are the ids of parked "not-run" results whose events the
	// batch sends when it reaches their calls.
	announce map[string]bool
	// context is the client's context for the model.
	context []agui.ContextItem
	// st is the run's shared state; nil for an agent without state.
	st stateAccess
	// turnFinish is why the provider ended the last model turn early ("" for
	// a normal end).
	turnFinish FinishReason
	// structured is the progress towards a typed output.
	structured structured
	// holder is this run's token in the checkpoint it holds
	// ([Checkpoint.Holder]); renewedAt is when it last wrote it, by the
	// store's clock.
	holder    string
	renewedAt time.Time
	// waitStart is when the run first found its thread busy (process
	// clock; zero: never), and steering the messages it hands to the
	// holder under BusySteer (see busy.go).
	waitStart time.Time
	steering  []agui.Message
	// historyLogged: the client's history was compared with the
	// transcript (record.go), which a run does once.
	historyLogged bool
}

// execute runs the loop on in, whose ThreadID is set (a core run's, or a
// delegation's), sending its events to s.
func (a *Agent) execute(ctx context.Context, in Input, s sink, line lineage, st stateAccess) (Result, error) {
	thread := in.ThreadID
	if ctx.Err() != nil {
		// Already aborted: touch neither the provider nor the store.
		return Result{ThreadID: thread, FinishReason: FinishAborted, Messages: in.Messages, Cause: context.Cause(ctx)}, nil
	}
	if err := checkInputIDs(in); err != nil {
		// Refused before anything runs, as below: no event the run must
		// emit may fail after a tool ran.
		return Result{ThreadID: thread, FinishReason: FinishError}, err
	}
	frontend, frontSpecs, err := a.frontendTools(in.Tools)
	if err != nil {
		// Refused before anything runs: no claim, no model call.
		return Result{ThreadID: thread, FinishReason: FinishError}, err
	}
	runID := in.RunID
	if runID == "" {
		runID = newID("run")
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := &run{a: a, sink: s, line: line, thread: thread, argDeltas: map[string][]string{}, clientCalls: callIDs(in.Messages), cancel: cancel,
		runID: runID, frontend: frontend, frontSpecs: frontSpecs, announce: map[string]bool{}, context: in.Context, st: st, holder: newID("hold")}
	if len(frontend) > 0 {
		if _, err := r.checkFrontend(); err != nil {
			// A frontend tool named like a tool set's: refused before
			// anything runs, like a clash with the agent's own tools.
			return Result{ThreadID: thread, FinishReason: FinishError}, err
		}
	}
	if err := r.claim(ctx, in); err != nil {
		if errors.Is(err, errSteered) {
			return Result{ThreadID: thread, FinishReason: FinishSteered, Messages: in.Messages}, nil
		}
		if ctx.Err() != nil {
			return Result{ThreadID: thread, FinishReason: FinishAborted, Messages: in.Messages, Cause: context.Cause(ctx)}, nil
		}
		return Result{ThreadID: thread, FinishReason: FinishError}, err
	}
	r.renewal = time.NewTicker(r.tickEvery())
	defer r.renewal.Stop()
	r.announceHistory(in.Messages)
	reason, err := r.loop(ctx)
	if reason == FinishError {
		// Whatever failed, the transcript stays valid for the provider.
		if msg, first := r.pendingTurn(); msg != nil {
			for _, c := range msg.ToolCalls[first:] {
				res := r.takeParked(c.ID)
				if res == nil {
					res = r.errorResult(c.ID, KindNotRun, "not run: the run failed first")
				}
				r.cp.Messages = append(r.cp.Messages, res)
			}
		}
		r.cp.Messages = append(r.cp.Messages, r.input...)
		r.cp.Pending, r.cp.ClientCalls, r.cp.Parked = nil, nil, nil
	}
	status := StatusIdle
	switch reason {
	case FinishAwaitingApproval:
		status = StatusAwaitingApproval
	case FinishAwaitingClient:
		status = StatusAwaitingClient
	}
	// The final write must land even when the run was aborted.
	if serr := r.save(context.WithoutCancel(ctx), status); serr != nil && err == nil {
		reason, err = FinishError, serr
	}
	res := Result{ThreadID: thread, FinishReason: reason, Steps: r.cp.Steps, Messages: r.cp.Messages, Usage: r.usage.Add(r.delegated.total())}
	res.Output = r.structured.result(reason)
	switch reason {
	case FinishAwaitingApproval:
		p := r.cp.Pending
		in := r.interrupt(context.WithoutCancel(ctx), p)
		res.Interrupt = &in
	case FinishAborted:
		res.Cause = context.Cause(ctx)
	case FinishError:
		return res, err
	}
	return res, nil
}

// claim loads the thread, checks the input against it and takes the thread
// with a versioned write, all before anything runs: a busy thread or a bad
// resume fails here with nothing executed.
func (r *run) claim(ctx context.Context, in Input) error {
	for {
		err := r.claimOnce(ctx, in)
		if !errors.Is(err, errBusy) {
			return err
		}
	}
}

// errBusy makes claim load the thread again: it was busy, and this run
// waits for it (busy.go).
var errBusy = errors.New("loop: the thread is busy")

// claimOnce is one attempt of claim.
func (r *run) claimOnce(ctx context.Context, in Input) error {
	store := r.a.cfg.store
	now, err := store.Now(ctx, r.thread)
	if err != nil {
		return runError(CodeCheckpoint, err)
	}
	r.clock = storeClock{at: now, local: r.a.cfg.now(), process: r.a.cfg.now}
	cp, v, err := store.Load(ctx, r.thread)
	adopt := false
	switch {
	case errors.Is(err, ErrNotFound):
		cp, v = &Checkpoint{ThreadID: r.thread, Status: StatusIdle}, 0
		adopt = !r.a.cfg.noAdopt
	case err != nil:
		return runError(CodeCheckpoint, err)
	}
	if err := claimOwner(ctx, cp); err != nil {
		return err
	}
	if r.steering != nil && read(cp.Messages, r.steering) {
		// The holder read this run's messages and may have moved on.
		return errSteered
	}
	if cp.Status == StatusRunning && r.clock.now().Before(cp.LeaseUntil) {
		if err := r.busy(ctx, cp, v, in); err != nil {
			return err
		}
		return errBusy
	}
	if len(in.Resume) == 0 && in.commandResume != nil {
		// A client of [WithLangGraphInterrupts] answers in its dialect.
		resume, err := resumeFromCommand(cp, in.commandResume)
		if err != nil {
			return err
		}
		in.Resume = resume
	}
	switch {
	case cp.Status == StatusAwaitingApproval:
		d, err := decide(cp.Pending, in.Resume)
		if err != nil {
			return err
		}
		cp.Pending.Decision = d
	case cp.Status == StatusRunning && cp.Pending != nil && cp.Pending.Decision != nil && len(in.Resume) > 0:
		// Taking over from a run that died after recording the answer: a
		// client retrying its resume (the only request a client holding
		// the interrupt may send) gets the recorded decision, once.
		if _, err := decide(cp.Pending, in.Resume); err != nil {
			return err
		}
	case len(in.Resume) > 0:
		return agui.NewError(CodeBadResume, "resume given but no approval is pending on this thread")
	}
	r.cp, r.version = *cp, v
	r.stored.reset(cp.Messages)
	if cp.Status == StatusRunning {
		// The holder's lease ran out: its calls may have started.
		r.retryPending()
	}
	if r.st != nil {
		// The client's state wins; without one the run starts from the
		// saved state. A saved state that no longer decodes is dropped.
		_ = r.st.restore(cp.State)
	}
	if adopt {
		// A thread the store has never seen: the client's history is
		// the transcript, and none of its calls is run.
		if msgs := r.adopt(in.Messages); len(msgs) > 0 {
			r.cp.Messages, r.cp.Steps = msgs, 0
		}
		return r.take(ctx)
	}
	r.logHistoryDiff(ctx, in.Messages)
	r.acceptClientResults(in.Messages)
	input := newInput(cp.Messages, sinceTranscriptStart(cp.Messages, in.Messages))
	if r.steering != nil {
		input = r.steering
	}
	// Messages steered to a run that ended before reading them come
	// first: they were sent first.
	input = append(slices.Clip(cp.Steer), unknown(cp.Steer, input)...)
	r.cp.Steer, r.cp.CancelRequested = nil, false
	if err := r.checkDecision(r.clock.now()); err != nil {
		return err
	}
	if msg, _ := r.pendingTurn(); msg != nil {
		r.input = input
	} else if len(input) > 0 {
		r.cp.Messages = trimTranscript(append(slices.Clip(r.cp.Messages), input...), r.a.cfg.maxTranscript)
		r.cp.Steps = 0
	}
	return r.take(ctx)
}

// take writes the claimed checkpoint. A run that waits for its thread
// tries again when another run took it first.
func (r *run) take(ctx context.Context) error {
	err := r.save(ctx, StatusRunning)
	if r.a.cfg.busy != BusyRefuse && agui.CodeOf(err) == CodeBusy {
		return errBusy
	}
	return err
}

// newInput returns the messages of in that the transcript lacks: user,
// system and developer messages with unknown ids. Assistant and tool
// messages are the loop's own: a client echoes them back, and must not be
// able to inject a tool call for the loop to run.
func newInput(transcript, in []agui.Message) []agui.Message {
	known := map[string]bool{}
	for _, m := range transcript {
		known[m.MessageID()] = true
	}
	var out []agui.Message
	for _, m := range in {
		switch m.(type) {
		case *agui.UserMessage, *agui.SystemMessage, *agui.DeveloperMessage:
			if m.MessageID() == "" || !known[m.MessageID()] {
				out = append(out, m)
			}
		}
	}
	return out
}

// loop runs pending calls, then model turns and their batches.
func (r *run) loop(ctx context.Context) (FinishReason, error) {
	if msg, first := r.pendingTurn(); msg != nil {
		if reason, err, stop := r.batch(ctx, msg, first); stop {
			return reason, err
		}
	}
	if len(r.input) > 0 {
		r.cp.Messages = trimTranscript(append(slices.Clip(r.cp.Messages), r.input...), r.a.cfg.maxTranscript)
		r.cp.Steps = 0
		r.input = nil
	}
	for {
		if r.mailbox() {
			if err := r.peek(ctx); err != nil {
				return FinishError, err
			}
		}
		if ctx.Err() != nil {
			return FinishAborted, nil
		}
		// A safe point: every call of the transcript has its result.
		steered := r.readSteer()
		observed := r.a.cfg.observer != nil && r.observe(ctx)
		if steered || observed {
			if err := r.checkpoint(ctx); err != nil {
				return FinishError, err
			}
		}
		if r.cp.Steps >= r.a.cfg.maxSteps {
			return FinishMaxSteps, nil
		}
		msg, err := r.modelTurn(ctx)
		if err != nil {
			if r.lost != nil {
				return FinishError, r.lost
			}
			if ctx.Err() != nil {
				return FinishAborted, nil
			}
			return FinishError, runError(CodeProvider, err)
		}
		r.cp.Steps++
		r.cp.Messages = append(slices.Clip(r.cp.Messages), msg)
		r.cp.Attempts = nil // they counted the previous turn's calls
		reason, end := r.endOfTurn(msg)
		// The turn is checkpointed before any of its calls starts, so a
		// resumed run never asks the model for it again.
		if err := r.checkpoint(ctx); err != nil {
			return FinishError, err
		}
		if end {
			if reason == FinishStop && r.a.cfg.busy == BusySteer {
				// A message steered while the model answered is
				// answered by this run too.
				if err := r.peek(ctx); err != nil {
					return FinishError, err
				}
				if len(r.cp.Steer) > 0 {
					continue
				}
			}
			return reason, nil
		}
		if len(msg.ToolCalls) == 0 {
			continue
		}
		if reason, err, stop := r.batch(ctx, msg, 0); stop {
			return reason, err
		}
	}
}

// batch runs a batch and says whether the run stops there.
func (r *run) batch(ctx context.Context, msg *agui.AssistantMessage, first int) (FinishReason, error, bool) {
	end, err := r.runBatch(ctx, msg, first)
	switch end {
	case batchFailed:
		return FinishError, err, true
	case batchAborted:
		return FinishAborted, nil, true
	case batchPaused:
		return FinishAwaitingApproval, nil, true
	case batchClient:
		return FinishAwaitingClient, nil, true
	}
	return "", nil, false
}

// pendingTurn returns the last assistant turn and the index of its first
// unanswered call, or nil when every call is answered.
func (r *run) pendingTurn() (*agui.AssistantMessage, int) {
	msgs := r.cp.Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		am, ok := msgs[i].(*agui.AssistantMessage)
		if !ok {
			continue
		}
		answered := 0
		for _, m := range msgs[i+1:] {
			if tm, ok := m.(*agui.ToolMessage); ok && answered < len(am.ToolCalls) && tm.ToolCallID == am.ToolCalls[answered].ID {
				answered++
			}
		}
		if answered < len(am.ToolCalls) {
			return am, answered
		}
		return nil, 0
	}
	return nil, 0
}

// callByID finds a call of the transcript's last assistant turn.
func (r *run) callByID(id string) agui.ToolCall {
	if msg, _ := r.pendingTurn(); msg != nil {
		for _, c := range msg.ToolCalls {
			if c.ID == id {
				return c
			}
		}
	}
	return agui.ToolCall{ID: id}
}

// save writes the working checkpoint with status, extending the lease of a
// running one.
func (r *run) save(ctx context.Context, status Status) error {
	r.cp.Status = status
	if r.st != nil {
		r.cp.State = r.st.snapshot()
	}
	r.cp.LeaseUntil, r.cp.Holder = time.Time{}, ""
	if status == StatusRunning {
		r.renewedAt = r.clock.now()
		r.cp.LeaseUntil, r.cp.Holder = r.renewedAt.Add(r.a.cfg.lease), r.holder
	} else {
		r.cp.CancelRequested = false
	}
	for range 3 {
		// The messages the store holds are not written again.
		kept := r.stored.kept(r.cp.Messages)
		v, err := r.a.cfg.store.Save(ctx, &r.cp, r.version, kept)
		switch {
		case errors.Is(err, ErrConflict):
			if r.mailbox() && r.requestsSince(ctx) {
				continue
			}
			return agui.NewError(CodeBusy, "thread "+r.thread+" was taken over by another run")
		case err != nil:
			return runError(CodeCheckpoint, err)
		}
		r.version = v
		r.stored.saved(r.cp.Messages, kept)
		if r.renewal != nil && status == StatusRunning {
			r.renewal.Reset(r.tickEvery())
		}
		return nil
	}
	return agui.NewError(CodeBusy, "thread "+r.thread+" is contended by other runs")
}

// requestsSince is a conflicting save's check: when the thread is still
// this run's and only waiting runs wrote to it (busy.go), it takes their
// requests and reports that the save may be tried again.
func (r *run) requestsSince(ctx context.Context) bool {
	cp, v, err := r.a.cfg.store.Load(ctx, r.thread)
	if err != nil || cp.Status != StatusRunning || cp.Holder != r.holder {
		return false
	}
	status := r.cp.Status
	r.requests(cp, v)
	if status != StatusRunning {
		r.cp.CancelRequested = false
	}
	return true
}

// tickEvery is the period of the run's ticks: a third of the lease, or
// busyPoll when waiting runs may leave requests.
func (r *run) tickEvery() time.Duration {
	every := r.a.cfg.lease / 3
	if r.mailbox() {
		every = min(every, busyPoll)
	}
	return every
}

// tick renews the lease of the run's thread when a third of it has
// passed, and otherwise reads the checkpoint for waiting runs' requests.
func (r *run) tick(ctx context.Context) error {
	if !r.mailbox() || r.clock.now().Sub(r.renewedAt) >= r.a.cfg.lease/3-busyPoll/2 {
		return r.checkpoint(ctx)
	}
	return r.peek(ctx)
}

// renewals is the channel of lease renewal ticks (nil, never ready, before
// the thread is claimed).
func (r *run) renewals() <-chan time.Time {
	if r.renewal == nil {
		return nil
	}
	return r.renewal.C
}

// checkpoint saves the working checkpoint of a running run. An aborted run
// skips it, and a save that fails once the run is aborted is no failure:
// a store honouring its context fails any write on a cancelled one, and
// the final write, made without the cancellation, records where the run
// stopped.
func (r *run) checkpoint(ctx context.Context) error {
	if ctx.Err() != nil {
		return nil
	}
	if err := r.save(ctx, StatusRunning); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// emit sends ev; the first refusal aborts the run with the sink's error as
// cause.
func (r *run) emit(ev agui.Event) {
	if r.emitErr == nil {
		r.refused(r.sink.emit(ev))
	}
}

// refused records err, the sink's refusal of an event, as emit does.
func (r *run) refused(err error) {
	if err != nil && r.emitErr == nil {
		r.emitErr = err
		r.cancel(err)
	}
}

// callIDs returns the ids of the tool calls that the assistant messages of
// msgs carry.
func callIDs(msgs []agui.Message) map[string]bool {
	ids := map[string]bool{}
	for _, m := range msgs {
		if a, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				ids[c.ID] = true
			}
		}
	}
	return ids
}
