package loop

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// BusyStrategy is what a run does when another run holds its thread
// (double-texting: a user message sent while the answer to the last one
// is still running). Every strategy works across replicas through the
// [Store] alone: the requests a waiting run makes are fields of the
// thread's [Checkpoint] that the holder reads at its next lease renewal
// or safe point, so no replica has to reach another. A BusyStrategy is a
// plain value.
type BusyStrategy int

// The strategies; see [WithBusy].
const (
	// BusyRefuse: the run is refused. Through HTTP the answer is a JSON
	// 409 THREAD_BUSY before any stream ([Agent.AdmitRun]); a run that
	// loses the race after admission ends with RUN_ERROR THREAD_BUSY
	// before anything runs, as [Agent.Execute] does.
	BusyRefuse BusyStrategy = iota
	// BusyEnqueue: the run's stream opens at once, and the run waits
	// until the thread is free (at most [WithBusyWait]; a client that
	// leaves cancels the wait), then runs with its new messages.
	BusyEnqueue
	// BusyInterrupt: the run asks the holder to stop, then waits as
	// BusyEnqueue does. The holder sees the request at its next renewal
	// or safe point, and ends as an aborted run does (every call it
	// started has a result) with RUN_ERROR THREAD_INTERRUPTED.
	BusyInterrupt
	// BusySteer: the run hands its new user, system and developer
	// messages to the holder, which reads them at its next safe point
	// (before a model turn, never inside a tool batch) and answers them
	// in its own stream; the run then finishes at once with
	// [FinishSteered]. A holder that ends first leaves them to this run,
	// which takes the thread and answers them itself; one whose client
	// left leaves them to the thread's next run.
	BusySteer
)

var busyNames = [...]string{"refuse", "enqueue", "interrupt", "steer"}

// String returns the strategy's name: refuse, enqueue, interrupt or steer.
func (s BusyStrategy) String() string {
	if s < 0 || int(s) >= len(busyNames) {
		return fmt.Sprintf("BusyStrategy(%d)", int(s))
	}
	return busyNames[s]
}

// MarshalText implements [encoding.TextMarshaler] with [BusyStrategy.String].
func (s BusyStrategy) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(busyNames) {
		return nil, fmt.Errorf("loop: unknown busy strategy %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] (so a flag.TextVar
// takes a strategy by name).
func (s *BusyStrategy) UnmarshalText(b []byte) error {
	i := slices.Index(busyNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("loop: unknown busy strategy %q (want refuse, enqueue, interrupt or steer)", b)
	}
	*s = BusyStrategy(i)
	return nil
}

// DefaultBusyWait is how long a run of a [BusyEnqueue] or [BusyInterrupt]
// agent waits for its thread unless [WithBusyWait] says otherwise.
const DefaultBusyWait = time.Minute

// busyPoll is how often a waiting run reads the thread's checkpoint, and
// how often a holder of an agent that may be interrupted or steered reads
// it for requests (a read, not a write: its lease is still renewed every
// third of the lease). It bounds how late an interrupt is seen.
const busyPoll = 250 * time.Millisecond

// maxSteer bounds the messages waiting to be read by a holder; a run
// that would pass it is refused with THREAD_BUSY.
const maxSteer = 16

// WithBusy chooses what a run does when another run holds its thread
// (default [BusyRefuse], a 409 through HTTP). Every replica serving a
// thread should run the same strategy: the holder of an interrupt or
// steer agent reads its checkpoint every 250 ms for requests.
func WithBusy(s BusyStrategy) Option {
	return func(c *config) error {
		if s < BusyRefuse || s > BusySteer {
			return fmt.Errorf("loop: WithBusy: unknown strategy %d", int(s))
		}
		c.busy = s
		return nil
	}
}

// WithBusyWait bounds how long a run of a [BusyEnqueue] or
// [BusyInterrupt] agent waits for its thread (default [DefaultBusyWait],
// one minute); one still waiting then fails with THREAD_BUSY. A steering
// run waits as long for its messages to be read or the thread to be free,
// then finishes with [FinishSteered]: its messages stay handed over.
func WithBusyWait(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("loop: WithBusyWait %v: must be positive", d)
		}
		c.busyWait = d
		return nil
	}
}

// errSteered ends the claim of a run whose messages the holder read.
var errSteered = errors.New("loop: the messages were handed to the run holding the thread")

// interrupted is the cause a holder is cancelled with when a newer run
// asks for its thread ([BusyInterrupt]).
func interrupted(thread string) error {
	return agui.NewError(CodeInterrupted, "thread "+thread+" was taken by a newer run")
}

// busyRefusal is the 409 of a [BusyRefuse] agent's busy thread.
func busyRefusal() *core.RequestError {
	return &core.RequestError{Status: http.StatusConflict, Code: CodeBusy,
		Message: "the thread is busy with another run"}
}

// refuseBusy answers the 409 of [Agent.AdmitRun] when another run holds
// threadID within its lease. Anything it cannot tell (a store error,
// another principal's thread) is left to the run, which reports it.
func (a *Agent) refuseBusy(ctx context.Context, threadID string) error {
	cp, _, err := a.cfg.store.Load(ctx, threadID)
	if err != nil || cp.Status != StatusRunning || checkOwner(cp, principalFrom(ctx)) != nil {
		return nil
	}
	now, err := a.cfg.store.Now(ctx, threadID)
	if err != nil || !now.Before(cp.LeaseUntil) {
		return nil
	}
	return busyRefusal()
}

// busy handles a claim that found the thread held by another run within
// its lease (cp at version v): it refuses, or makes this strategy's
// request and waits one poll. It returns errSteered when the holder read
// this run's messages, nil to load the thread again.
func (r *run) busy(ctx context.Context, cp *Checkpoint, v int64, in Input) error {
	cfg := &r.a.cfg
	if cfg.busy == BusyRefuse || len(in.Resume) > 0 {
		// A resume answers an approval the holder is acting on: it has
		// nothing to wait for.
		return agui.NewError(CodeBusy, "thread "+r.thread+" is busy with another run")
	}
	if r.waitStart.IsZero() {
		r.waitStart = cfg.now()
		if cfg.busy == BusySteer {
			r.steering = withIDs(newInput(cp.Messages, in.Messages))
			if len(r.steering) == 0 {
				return agui.NewError(CodeBusy, "thread "+r.thread+" is busy with another run, and the input has no new message to hand it")
			}
		}
	}
	waited := cfg.now().Sub(r.waitStart) >= cfg.busyWait
	switch cfg.busy {
	case BusyInterrupt:
		if waited {
			return agui.NewError(CodeBusy, "thread "+r.thread+" is still busy after "+cfg.busyWait.String())
		}
		if !cp.CancelRequested {
			cp.CancelRequested = true
			if err := r.request(ctx, cp, v); err != nil {
				return err
			}
		}
	case BusySteer:
		if read(cp.Messages, r.steering) || waited {
			return errSteered
		}
		if add := unknown(cp.Steer, r.steering); len(add) > 0 {
			if len(cp.Steer)+len(add) > maxSteer {
				return agui.NewError(CodeBusy, "thread "+r.thread+" is busy and has too many messages waiting for it")
			}
			cp.Steer = append(slices.Clip(cp.Steer), add...)
			if err := r.request(ctx, cp, v); err != nil {
				return err
			}
		}
	default:
		if waited {
			return agui.NewError(CodeBusy, "thread "+r.thread+" is still busy after "+cfg.busyWait.String())
		}
	}
	t := time.NewTimer(busyPoll)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// request writes a waiting run's request into the holder's checkpoint. A
// conflict is no failure: the next load sees what changed.
func (r *run) request(ctx context.Context, cp *Checkpoint, v int64) error {
	_, err := r.a.cfg.store.Save(ctx, cp, v, len(cp.Messages))
	if err != nil && !errors.Is(err, ErrConflict) {
		return runError(CodeCheckpoint, err)
	}
	return nil
}

// mailbox reports whether this run, while it holds its thread, reads the
// checkpoint for the requests of waiting runs.
func (r *run) mailbox() bool {
	return r.a.cfg.busy == BusyInterrupt || r.a.cfg.busy == BusySteer
}

// peek reads the checkpoint of the thread this run holds for the requests
// of waiting runs. A store error is left to the next renewal, which
// reports it; a checkpoint another run took over is this run's loss.
func (r *run) peek(ctx context.Context) error {
	if ctx.Err() != nil {
		return nil
	}
	cp, v, err := r.a.cfg.store.Load(ctx, r.thread)
	if err != nil || v == r.version {
		return nil
	}
	if cp.Status != StatusRunning || cp.Holder != r.holder {
		return agui.NewError(CodeBusy, "thread "+r.thread+" was taken over by another run")
	}
	r.requests(cp, v)
	return nil
}

// requests takes the requests of cp, the thread's checkpoint at version
// v as waiting runs left it (this run's own checkpoint otherwise): the
// working checkpoint moves to v, keeps the steered messages it has not
// read yet, and a cancel request cancels the run.
func (r *run) requests(cp *Checkpoint, v int64) {
	r.version = v
	r.stored.reset(cp.Messages)
	r.cp.Steer = unknown(r.cp.Messages, cp.Steer)
	if cp.CancelRequested && !r.cp.CancelRequested {
		r.cp.CancelRequested = true
		r.cancel(interrupted(r.thread))
	}
}

// readSteer appends the steered messages to the transcript at a safe
// point (no call of the transcript is unanswered) and reports whether
// there were any.
func (r *run) readSteer() bool {
	if len(r.cp.Steer) == 0 {
		return false
	}
	if msg, _ := r.pendingTurn(); msg != nil {
		return false
	}
	r.cp.Messages = trimTranscript(append(slices.Clip(r.cp.Messages), r.cp.Steer...), r.a.cfg.maxTranscript)
	r.cp.Steer, r.cp.Steps = nil, 0
	return true
}

// read reports whether every message of msgs is in transcript.
func read(transcript, msgs []agui.Message) bool {
	return len(unknown(transcript, msgs)) == 0
}

// unknown returns the messages of msgs whose ids known lacks.
func unknown(known, msgs []agui.Message) []agui.Message {
	ids := make(map[string]bool, len(known))
	for _, m := range known {
		ids[m.MessageID()] = true
	}
	var out []agui.Message
	for _, m := range msgs {
		if !ids[m.MessageID()] {
			out = append(out, m)
		}
	}
	return out
}

// withIDs gives the messages without an id one, so that a steering run
// can tell when the holder read them (messages are immutable: a copy
// gets the id).
func withIDs(msgs []agui.Message) []agui.Message {
	out := make([]agui.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if m.MessageID() != "" {
			continue
		}
		switch m := m.(type) {
		case *agui.UserMessage:
			c := *m
			c.ID = newID("user")
			out[i] = &c
		case *agui.SystemMessage:
			c := *m
			c.ID = newID("system")
			out[i] = &c
		case *agui.DeveloperMessage:
			c := *m
			c.ID = newID("developer")
			out[i] = &c
		}
	}
	return out
}
