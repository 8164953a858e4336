package loop

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"

	"github.com/agui-go/agui"
)

// "An already-aborted signal returns at once without calling the
// provider."
func TestCancelAlreadyCancelledReturnsAtOnce(t *testing.T) {
	p := Script(Turn{Text: "never"})
	store := NewMemoryStore()
	a := mustNew(t, p, WithCheckpoints(store))
	ctx, cancel := context.WithCancelCause(t.Context())
	stop := errors.New("stop button")
	cancel(stop)
	res, err := a.Execute(ctx, Input{ThreadID: "t", Messages: []agui.Message{UserText("hi")}})
	if err != nil || res.FinishReason != FinishAborted || !errors.Is(res.Cause, stop) {
		t.Fatalf("res %+v err %v", res, err)
	}
	if p.Calls() != 0 {
		t.Fatal("provider called")
	}
	if _, _, err := store.Load(t.Context(), "t"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("store touched: %v", err)
	}
}

// "The signal is checked before every model call": a cancel
// during a turn's tools means no next model call.
func TestCancelCheckedBeforeEveryModelCall(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stopper, err := NewTool("stop", "presses stop", func(_ context.Context, in workArgs) (string, error) {
		cancel()
		return "stopped", nil // finished: keeps its result
	})
	if err != nil {
		t.Fatal(err)
	}
	p := Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "stop", Args: `{"id":"c1"}`}}}, Turn{Text: "never"})
	a := mustNew(t, p, WithTools(stopper))
	res, err := a.Execute(ctx, user("go"))
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	assertResult(t, res)
	if p.Calls() != 1 {
		t.Fatalf("%d model calls, want 1", p.Calls())
	}
	if r := results(res.Messages); r["c1"] != "stopped" {
		t.Fatalf("results %v", r)
	}
}

// "...and every tool call": a cancel during c1 means c2 and c3
// never start; they get "cancelled" results so the conversation stays
// valid for the provider.
func TestCancelCheckedBeforeEveryToolCall(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	j := &journal{}
	tool, err := NewTool("t", "", func(_ context.Context, in workArgs) (string, error) {
		j.add("run %s", in.ID)
		cancel()
		return "ran", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := []ScriptedCall{{ID: "c1", Name: "t", Args: `{"id":"c1"}`}, {ID: "c2", Name: "t", Args: `{"id":"c2"}`}, {ID: "c3", Name: "t", Args: `{"id":"c3"}`}}
	a := mustNew(t, Script(Turn{Calls: calls}), WithTools(tool), WithToolConcurrency(1))
	res, err := a.Execute(ctx, user("go"))
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	assertResult(t, res)
	if got := j.list(); !slices.Equal(got, []string{"run c1"}) {
		t.Fatalf("ran %v", got)
	}
	if k := errorKinds(res.Messages); k["c1"] != "" || k["c2"] != KindCancelled || k["c3"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
}

// blockingProvider blocks until its context ends and reports what it saw.
func blockingProvider(entered chan<- struct{}) Provider {
	return ProviderFunc(func(ctx context.Context, _ ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			if !yield(Delta{Text: "partial "}, nil) {
				return
			}
			close(entered)
			<-ctx.Done()
			yield(Delta{}, ctx.Err())
		}
	})
}

// the signal "is passed to the provider ... so in-flight work
// can stop early". An abort during the model call ends the run aborted,
// not failed.
func TestCancelReachesProvider(t *testing.T) {
	entered := make(chan struct{})
	a := mustNew(t, blockingProvider(entered))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("go"))
	<-entered
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted || res.Steps != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	assertResult(t, res)
}

// Parallel: "An abort while a batch runs resolves with
// finishReason: 'aborted'. Calls that finished keep their results; the
// rest get a “cancelled” result. Running tools see the abort through their
// abortSignal."
func TestCancelMidBatch(t *testing.T) {
	b := newBlocker()
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3", "c4")}), WithTools(b.tool(t)), WithToolConcurrency(2))
	ctx, cancel := context.WithCancel(t.Context())
	rec := &recorder{results: make(chan string, 8)}
	in := user("go")
	in.OnEvent = rec.on
	x := goExecute(ctx, a, in)
	first := <-b.started
	<-b.started
	b.release(first)
	<-rec.results // first finished and recorded
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	assertResult(t, res)
	if res.Steps != 1 || len(res.Messages) != 6 {
		t.Fatalf("steps %d, %d messages: the messages and steps so far", res.Steps, len(res.Messages))
	}
	k := errorKinds(res.Messages)
	other := map[string]string{"c1": "c2", "c2": "c1"}[first]
	if k[first] != "" || k[other] != KindCancelled || k["c3"] != KindCancelled || k["c4"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
	if !slices.Contains(b.log.list(), "cancelled "+other) {
		t.Fatalf("running tool did not see the abort: %v", b.log.list())
	}
}

// "Calling execute() again with the same sessionId resumes where
// the run stopped; new input is appended as the next user message."
func TestCancelResumeAppendsNewInput(t *testing.T) {
	b := newBlocker()
	calls, answer := Script(Turn{Calls: workCalls("c1", "c2")}), Script(Turn{Text: "second answer"})
	// The first user message gets the calls, the follow-up an answer.
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		for _, m := range req.Messages {
			if u, ok := m.(*agui.UserMessage); ok && u.Content.String() == "again" {
				return answer.Stream(ctx, req)
			}
		}
		return calls.Stream(ctx, req)
	})
	a := mustNew(t, p, WithTools(b.tool(t)), WithToolConcurrency(1))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("first"))
	<-b.started
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	follow := UserText("again")
	res2, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Messages: append(slices.Clone(res.Messages), follow)})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res2)
	if res2.Messages[len(res.Messages)] != agui.Message(follow) {
		t.Fatalf("new input not appended right after the aborted transcript:\n%s", dump(res2.Messages))
	}
	if b.runs.Load() != 1 {
		t.Fatalf("%d tool runs: the cancelled calls must not run again", b.runs.Load())
	}
	if calls.Calls() != 1 || answer.Calls() != 1 || res2.FinishReason != FinishStop {
		t.Fatalf("%d+%d model calls, finish %s", calls.Calls(), answer.Calls(), res2.FinishReason)
	}
}

// An event OnEvent refuses (say, the client went away) aborts the run
// with the refusal as its cause, and OnEvent sees nothing after it.
func TestCancelWhenEventsAreRefused(t *testing.T) {
	gone := errors.New("client gone")
	a := mustNew(t, blockingProvider(make(chan struct{}))) // the run lasts until it is cancelled
	in := user("go")
	var seen int
	in.OnEvent = func(agui.Event) error { seen++; return gone }
	res, err := a.Execute(t.Context(), in)
	if err != nil || res.FinishReason != FinishAborted || !errors.Is(res.Cause, gone) || seen != 1 {
		t.Fatalf("%+v %v after %d events", res, err, seen)
	}
}

// cancellingStore aborts the run while it loads the thread.
type cancellingStore struct {
	*MemoryStore
	cancel context.CancelFunc
}

func (s *cancellingStore) Load(ctx context.Context, thread string) (*Checkpoint, int64, error) {
	s.cancel()
	<-ctx.Done()
	return nil, 0, ctx.Err()
}

// An abort while the thread is being claimed is an abort, not a store
// failure.
func TestCancelDuringClaim(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	p := Script(Turn{Text: "never"})
	a := mustNew(t, p, WithCheckpoints(&cancellingStore{NewMemoryStore(), cancel}))
	res, err := a.Execute(ctx, user("go"))
	if err != nil || res.FinishReason != FinishAborted || p.Calls() != 0 {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
}

// ctxStore is a store that honours its context, as an SQL or Redis store
// does: a call on a done context fails with the context's error.
type ctxStore struct{ *MemoryStore }

func (s ctxStore) Load(ctx context.Context, thread string) (*Checkpoint, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return s.MemoryStore.Load(ctx, thread)
}

func (s ctxStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.MemoryStore.Save(ctx, cp, expect, kept)
}

// An abort mid-batch on a store that honours its context is an abort, not
// a CHECKPOINT_ERROR: the loop writes no intermediate checkpoint with the
// cancelled context, and the final write still lands.
func TestCancelMidBatchContextStore(t *testing.T) {
	b := newBlocker()
	store := ctxStore{NewMemoryStore()}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3", "c4")}), WithTools(b.tool(t)), WithToolConcurrency(2), WithCheckpoints(store))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, Input{ThreadID: "t", Messages: []agui.Message{UserText("go")}})
	<-b.started
	<-b.started
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v, want aborted", res.FinishReason, err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["c1"] != KindCancelled || k["c4"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
	cp, _, err := store.Load(t.Context(), "t")
	if err != nil || cp.Status != StatusIdle {
		t.Fatalf("final checkpoint %v %v", cp, err)
	}
	assertTranscript(t, cp.Messages)
}

// A tool that stops on the abort may return any error (here the context's
// cause): once its context is done, its error result is "cancelled".
func TestCancelToolReturningCause(t *testing.T) {
	stop := errors.New("stop button")
	started := make(chan struct{})
	tool, err := NewTool("wait", "", func(ctx context.Context, in workArgs) (string, error) {
		close(started)
		<-ctx.Done()
		return "", context.Cause(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "wait", Args: `{"id":"c1"}`}}}), WithTools(tool))
	ctx, cancel := context.WithCancelCause(t.Context())
	x := goExecute(ctx, a, user("go"))
	<-started
	cancel(stop)
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted || !errors.Is(res.Cause, stop) {
		t.Fatalf("%s %v cause %v", res.FinishReason, err, res.Cause)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["c1"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
}
