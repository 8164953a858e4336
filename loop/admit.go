package loop

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// StoreFullRetryAfter is the Retry-After of the 503 (CHECKPOINT_STORE_FULL)
// a route answers when the checkpoint store has no room for a new thread:
// room comes back as runs end or their leases run out.
const StoreFullRetryAfter = 5 * time.Second

// RoomChecker is implemented by a [Store] that can tell, before a run
// starts, that it has no room for a new thread ([MemoryStore] does).
// CheckRoom returns an error wrapping [ErrStoreFull] when a first save of
// threadID would be refused now, nil when it would be taken (or threadID
// is already kept). It is a hint, not a reservation: a save may still
// fail afterwards.
type RoomChecker interface {
	CheckRoom(ctx context.Context, threadID string) error
}

// AdmitRun implements [core.Admitter]: a run on a new thread when the
// store is full ([RoomChecker]) is refused before its stream with a JSON
// 503 (CHECKPOINT_STORE_FULL) and a Retry-After of [StoreFullRetryAfter],
// instead of a stream that ends in RUN_ERROR at its first save; under
// [BusyRefuse] (the default of [WithBusy]) a run on a thread another run
// holds is refused with a JSON 409 (THREAD_BUSY). Any other answer of
// the store lets the run start (it reports its own failure).
func (a *Agent) AdmitRun(ctx context.Context, in *agui.RunAgentInput) error {
	if a.cfg.busy == BusyRefuse {
		if err := a.refuseBusy(ctx, in.ThreadID); err != nil {
			return err
		}
	}
	rc, ok := a.cfg.store.(RoomChecker)
	if !ok {
		return nil
	}
	if err := rc.CheckRoom(ctx, in.ThreadID); errors.Is(err, ErrStoreFull) {
		return &core.RequestError{Status: http.StatusServiceUnavailable, Code: CodeStoreFull,
			Message: "the checkpoint store has no room for a new thread; retry later", RetryAfter: StoreFullRetryAfter}
	}
	return nil
}

// AdmitRun implements [core.Admitter], as [Agent.AdmitRun] does.
func (t *Typed[S]) AdmitRun(ctx context.Context, in *agui.RunAgentInput) error {
	return t.a.AdmitRun(ctx, in)
}
