package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// Background owns the tasks of background tools ([NewBackgroundTool]):
// tool calls whose work goes on detached from the turn that made them.
// The call itself answers at once, so the model can tell the user the
// work started; the work runs on a goroutine the Background owns, reports
// its progress as an activity message while the dispatching run lasts,
// and hands its result to the thread's next run through the thread's
// [Store] (see [Checkpoint.Steer]), so a replica that did not run the
// task still delivers it.
//
// A task's activity message (id the task's id, type
// [WithTaskActivityType]) holds: taskId, toolName, toolCallId, status
// ("running", then "completed", "failed" or "cancelled"), args, outputs
// ([TaskOutput], in order), startedAt, and once done completedAt,
// elapsedMs and result or error. The run that dispatched the task sends
// it as ACTIVITY_SNAPSHOT and ACTIVITY_DELTA events while it lasts; the
// next run of the thread starts with the finished task in its
// MESSAGES_SNAPSHOT, as an activity message the page renders and a
// system message that tells the model the result.
//
// A task is as durable as its process: a process that dies loses its
// running tasks, and [Background.Shutdown] waits for them only as long as
// its context allows. A Background is safe for concurrent use; shut it
// down once the routes using it are.
type Background struct {
	cfg backgroundConfig
	// work is the tasks' context and deliver their deliveries', both
	// cancelled when Shutdown stops waiting for them.
	work    context.Context
	stop    context.CancelCauseFunc
	deliver context.Context
	abandon context.CancelFunc
	slots   chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	closed  bool
}

// BackgroundOption configures a [Background].
type BackgroundOption func(*backgroundConfig) error

type backgroundConfig struct {
	maxTasks     int
	timeout      time.Duration
	activityType string
	// poll is how often a finished task looks again at a thread a run
	// holds, to deliver its result once the run is over.
	poll time.Duration
}

// ErrBackgroundClosed is the cause of the cancellation of the tasks
// [Background.Shutdown] ends.
var ErrBackgroundClosed = errors.New("loop: the background is closed")

// WithMaxTasks bounds the tasks a Background owns at once, running or
// delivering their results (default 8). A call over the bound gets an
// error result, which tells the model the work did not start.
func WithMaxTasks(n int) BackgroundOption {
	return func(c *backgroundConfig) error {
		if n < 1 {
			return fmt.Errorf("loop: WithMaxTasks(%d): want at least 1", n)
		}
		c.maxTasks = n
		return nil
	}
}

// WithTaskTimeout bounds each task's work, and then again the delivery
// of its result (default 10 minutes). A task past its deadline is
// cancelled and delivered as "failed".
func WithTaskTimeout(d time.Duration) BackgroundOption {
	return func(c *backgroundConfig) error {
		if d <= 0 {
			return fmt.Errorf("loop: WithTaskTimeout(%v): want a positive duration", d)
		}
		c.timeout = d
		return nil
	}
}

// WithTaskActivityType sets the activityType of the tasks' activity
// messages (default "background-task"), the name a front end registers
// its renderer under.
func WithTaskActivityType(s string) BackgroundOption {
	return func(c *backgroundConfig) error {
		if s == "" {
			return errors.New("loop: WithTaskActivityType: empty type")
		}
		c.activityType = s
		return nil
	}
}

// NewBackground returns an open Background.
func NewBackground(opts ...BackgroundOption) (*Background, error) {
	cfg := backgroundConfig{maxTasks: 8, timeout: 10 * time.Minute, activityType: "background-task", poll: 250 * time.Millisecond}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	b := &Background{cfg: cfg, slots: make(chan struct{}, cfg.maxTasks)}
	b.work, b.stop = context.WithCancelCause(context.Background())
	b.deliver, b.abandon = context.WithCancel(context.Background())
	return b, nil
}

// Len reports the tasks the Background owns: running, or delivering
// their results.
func (b *Background) Len() int { return len(b.slots) }

// Shutdown stops the Background: later background calls get an error
// result, and Shutdown waits until every task has finished and
// delivered its result. When ctx ends first, it cancels the tasks still
// running (their context's cause is [ErrBackgroundClosed]), abandons the
// deliveries not yet made, and returns ctx's error once the tasks'
// goroutines are gone; a task's function must honour its context. A done
// ctx cancels at once. Shutdown may be called more than once.
func (b *Background) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(done)
	}()
	defer b.abandon()
	defer b.stop(ErrBackgroundClosed)
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	select {
	case <-done: // a done ctx with nothing left to wait for
		return nil
	default:
	}
	b.stop(ErrBackgroundClosed)
	b.abandon()
	<-done
	return ctx.Err()
}

// Dispatched is a background tool's result, what the model reads of
// the call: the task started, and its result comes later. A plain
// value.
type Dispatched struct {
	TaskID string `json:"taskId"`
	Status string `json:"status"`
	Note   string `json:"note"`
}

// NewBackgroundTool is [NewTool] for work that runs detached from the
// turn, owned by b: a call starts fn on b's goroutine and answers with
// a [Dispatched]; fn's result reaches the thread's next run (see
// [Background]). fn's context is not the call's: it ends when the task's
// timeout passes or b's Shutdown gives up waiting, never with the run. fn reports progress
// with [TaskOutput].
func NewBackgroundTool[In, Out any](b *Background, name, description string, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	if b == nil {
		return Tool{}, errors.New("loop: NewBackgroundTool " + name + ": nil Background")
	}
	if fn == nil {
		return Tool{}, errors.New("loop: NewBackgroundTool " + name + ": nil function")
	}
	return NewTool(name, description, func(ctx context.Context, in In) (Dispatched, error) {
		return b.dispatch(ctx, in, func(ctx context.Context) (any, error) { return fn(ctx, in) })
	})
}

// task is one background call.
type task struct {
	b       *Background
	id      string
	sink    sink
	store   Store
	thread  string
	started time.Time
	fn      func(context.Context) (any, error)

	mu sync.Mutex
	// content is the activity message's content as the client has it.
	content map[string]any
	// detached is set once the dispatching run refused an event: it is
	// over, and the task no longer reports to it.
	detached bool
}

type taskKey struct{}

// dispatch starts a task for the call of ctx.
func (b *Background) dispatch(ctx context.Context, in any, fn func(context.Context) (any, error)) (Dispatched, error) {
	s, ok := scopeOf(ctx)
	if !ok {
		return Dispatched{}, ErrNotInTool
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return Dispatched{}, agui.NewError(CodeToolFailed, "background work is shut down; the task did not start")
	}
	select {
	case b.slots <- struct{}{}:
	default:
		b.mu.Unlock()
		return Dispatched{}, agui.NewError(CodeToolFailed, fmt.Sprintf("%d background tasks are running already; the task did not start, try later", b.cfg.maxTasks))
	}
	// Added under mu, so that Shutdown never waits on a group that grows.
	b.wg.Add(1)
	b.mu.Unlock()

	t := &task{b: b, id: newID("task"), sink: s.sink, store: s.store, thread: s.thread, started: time.Now(), fn: fn}
	args := map[string]any{}
	if raw, err := json.Marshal(in); err == nil {
		_ = json.Unmarshal(raw, &args)
	}
	t.content = map[string]any{
		"taskId": t.id, "toolName": s.call.Name, "toolCallId": s.toolCallID, "status": "running",
		"args": args, "outputs": []any{}, "startedAt": t.started.UTC().Format(time.RFC3339Nano),
	}
	t.report(&agui.ActivitySnapshot{MessageID: t.id, ActivityType: b.cfg.activityType, Content: clone(t.content)})
	go t.run()
	return Dispatched{TaskID: t.id, Status: "running",
		Note: "The work runs in the background and its result arrives on a later turn; do not invent it."}, nil
}

// clone copies an activity content one level deep: the values the task
// changes later are replaced, never modified.
func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if s, ok := v.([]any); ok {
			v = slices.Clone(s)
		}
		out[k] = v
	}
	return out
}

// report sends ev to the dispatching run while it lasts. Called with mu
// held, or before the task's goroutine starts.
func (t *task) report(ev agui.Event) {
	if t.detached || t.sink.e == nil {
		return
	}
	if err := t.sink.emit(ev); err != nil {
		t.detached = true
	}
}

// patch applies ops (adds of top-level members) to the content and
// reports them.
func (t *task) patch(ops ...agui.PatchOp) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, op := range ops {
		if op.Path == "/outputs/-" {
			t.content["outputs"] = append(slices.Clip(t.content["outputs"].([]any)), op.Value)
		} else {
			t.content[op.Path[1:]] = op.Value
		}
	}
	t.report(&agui.ActivityDelta{MessageID: t.id, ActivityType: t.b.cfg.activityType, Patch: ops})
}

// TaskOutput reports a piece of a background task's progress: v is
// appended to its activity's outputs, which the dispatching run's
// client sees while that run lasts. ctx is the one the task's function
// received; elsewhere TaskOutput returns [ErrNotInTool].
func TaskOutput(ctx context.Context, v any) error {
	t, ok := ctx.Value(taskKey{}).(*task)
	if !ok {
		return ErrNotInTool
	}
	t.patch(agui.PatchOp{Op: "add", Path: "/outputs/-", Value: v})
	return nil
}

// run does the task's work and delivers its result.
func (t *task) run() {
	b := t.b
	defer b.wg.Done()
	defer func() { <-b.slots }()
	ctx, cancel := context.WithTimeout(context.WithValue(b.work, taskKey{}, t), b.cfg.timeout)
	out, err := t.fn(ctx)
	expired := errors.Is(ctx.Err(), context.DeadlineExceeded)
	cancel()
	now := time.Now()
	ops := []agui.PatchOp{
		{Op: "add", Path: "/completedAt", Value: now.UTC().Format(time.RFC3339Nano)},
		{Op: "add", Path: "/elapsedMs", Value: now.Sub(t.started).Milliseconds()},
	}
	var outcome string
	switch {
	case err == nil:
		outcome = "completed"
		var result any = out
		if raw, jerr := json.Marshal(out); jerr == nil {
			_ = json.Unmarshal(raw, &result)
		}
		ops = append(ops, agui.PatchOp{Op: "add", Path: "/result", Value: result})
	case errors.Is(context.Cause(b.work), ErrBackgroundClosed):
		outcome = "cancelled"
	case expired:
		outcome = "failed"
		ops = append(ops, agui.PatchOp{Op: "add", Path: "/error", Value: "the task ran out of time"})
	default:
		outcome = "failed"
		ops = append(ops, agui.PatchOp{Op: "add", Path: "/error", Value: safeText(err)})
	}
	t.patch(append([]agui.PatchOp{{Op: "add", Path: "/status", Value: outcome}}, ops...)...)
	t.mu.Lock()
	final := clone(t.content)
	t.mu.Unlock()
	t.deliverResult(final)
}

// safeText is what a client and the model read of a task's error: the
// message an *agui.Error's author wrote, or a fixed text, as for a
// tool's error result.
func safeText(err error) string {
	if e, ok := errors.AsType[*agui.Error](err); ok {
		return e.Message
	}
	return "the task failed"
}

// deliverResult hands the finished task to the thread's next run: it
// adds the task's activity message and a system message saying its
// result to the checkpoint's Steer, which the next run takes as input.
// A run holding the thread would lose its own write to a concurrent
// one, so delivery waits until no run holds it.
func (t *task) deliverResult(content map[string]any) {
	b := t.b
	if t.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(b.deliver, b.cfg.timeout)
	defer cancel()
	result, _ := json.Marshal(content["result"])
	text := fmt.Sprintf("The background task %s (tool %s, call %s) is %s.", t.id, content["toolName"], content["toolCallId"], content["status"])
	if content["status"] == "completed" {
		text += " Its result: " + string(result)
	} else if e, ok := content["error"].(string); ok {
		text += " " + e + "."
	}
	msgs := []agui.Message{
		&agui.ActivityMessage{ID: t.id, ActivityType: b.cfg.activityType, Content: content},
		&agui.SystemMessage{ID: t.id + "-result", Content: text},
	}
	for ctx.Err() == nil {
		cp, v, err := t.store.Load(ctx, t.thread)
		if errors.Is(err, ErrNotFound) {
			return // the thread is gone
		}
		if err == nil && cp.Status == StatusRunning {
			if now, nerr := t.store.Now(ctx, t.thread); nerr != nil || now.Before(cp.LeaseUntil) {
				err = ErrConflict // held: look again later
			}
		}
		if err == nil {
			cp.Steer = append(slices.Clip(cp.Steer), msgs...)
			if _, err = t.store.Save(ctx, cp, v, len(cp.Messages)); err == nil {
				return
			}
			if errors.Is(err, ErrConflict) {
				continue // changed since the load: look at it again now
			}
		}
		timer := time.NewTimer(b.cfg.poll)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
		}
	}
}
