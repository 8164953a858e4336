package loop

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// busyRig is two agents ("replicas") on one store, with a tool that takes
// ten seconds and a model that records what it is asked.
type busyRig struct {
	store  *MemoryStore
	a, b   *Agent
	starts atomic.Int64 // the slow tool's starts

	mu   sync.Mutex
	asks [][]agui.Message
}

func newBusyRig(t *testing.T, s BusyStrategy, opts ...Option) *busyRig {
	t.Helper()
	rig := &busyRig{store: NewMemoryStore()}
	slow, err := NewTool("slow", "takes ten seconds", func(ctx context.Context, in struct{}) (string, error) {
		rig.starts.Add(1)
		select {
		case <-time.After(10 * time.Second):
			return "slept", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	script := Script(Turn{Calls: []ScriptedCall{{Name: "slow", Args: `{}`}}}, Turn{Text: "ok"})
	model := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		rig.mu.Lock()
		rig.asks = append(rig.asks, slices.Clone(req.Messages))
		rig.mu.Unlock()
		return script.Stream(ctx, req)
	})
	all := append([]Option{WithTools(slow), WithCheckpoints(rig.store), WithBusy(s), WithLease(time.Minute)}, opts...)
	rig.a, rig.b = mustNew(t, model, all...), mustNew(t, model, all...)
	return rig
}

func (rig *busyRig) asked() [][]agui.Message {
	rig.mu.Lock()
	defer rig.mu.Unlock()
	return slices.Clone(rig.asks)
}

// userTexts are the texts of the user messages of msgs, in order.
func userTexts(msgs []agui.Message) []string {
	var out []string
	for _, m := range msgs {
		if u, ok := m.(*agui.UserMessage); ok {
			out = append(out, u.Content.String())
		}
	}
	return out
}

func say(text string) Input {
	return Input{ThreadID: "t", Messages: []agui.Message{UserText(text)}}
}

// Under BusyEnqueue a second run waits for the first to end, then runs
// with its message: both finish, each ran its tool once, and the
// transcript holds both exchanges in order.
func TestBusyEnqueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newBusyRig(t, BusyEnqueue)
		start := time.Now()
		first := goExecute(t.Context(), rig.a, say("one"))
		time.Sleep(time.Second)
		second, err := rig.b.Execute(t.Context(), say("two"))
		if err != nil || second.FinishReason != FinishStop {
			t.Fatalf("second: %s %v", second.FinishReason, err)
		}
		res, err := first.wait()
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("first: %s %v", res.FinishReason, err)
		}
		if took := time.Since(start); took < 20*time.Second || took > 20*time.Second+busyPoll {
			t.Fatalf("both runs took %v, want 20s and a poll: the second waited for the first", took)
		}
		assertResult(t, second)
		if got := userTexts(second.Messages); !slices.Equal(got, []string{"one", "two"}) || len(second.Messages) != 8 {
			t.Fatalf("transcript:\n%s", dump(second.Messages))
		}
		if n := rig.starts.Load(); n != 2 {
			t.Fatalf("the tool ran %d times, want 2", n)
		}
	})
}

// A waiting run gives up after WithBusyWait with THREAD_BUSY, and one
// whose context ends stops waiting at once; neither touched the thread.
func TestBusyEnqueueBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newBusyRig(t, BusyEnqueue, WithBusyWait(3*time.Second))
		first := goExecute(t.Context(), rig.a, say("one"))
		time.Sleep(time.Second)
		start := time.Now()
		_, err := rig.b.Execute(t.Context(), say("two"))
		if agui.CodeOf(err) != CodeBusy || time.Since(start) < 3*time.Second || time.Since(start) > 4*time.Second {
			t.Fatalf("after %v: %v, want THREAD_BUSY after 3s", time.Since(start), err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		res, err := rig.b.Execute(ctx, say("three"))
		if err != nil || res.FinishReason != FinishAborted {
			t.Fatalf("cancelled wait: %s %v", res.FinishReason, err)
		}
		res, err = first.wait()
		if err != nil || !slices.Equal(userTexts(res.Messages), []string{"one"}) {
			t.Fatalf("first: %v\n%s", err, dump(res.Messages))
		}
	})
}

// Under BusyInterrupt the holder stops within a poll of the request with
// THREAD_INTERRUPTED, its started call answered, and the new run runs.
func TestBusyInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newBusyRig(t, BusyInterrupt)
		first := goExecute(t.Context(), rig.a, say("one"))
		time.Sleep(time.Second)
		start := time.Now()
		second, err := rig.b.Execute(t.Context(), say("two"))
		if err != nil || second.FinishReason != FinishStop {
			t.Fatalf("second: %s %v", second.FinishReason, err)
		}
		res, err := first.wait()
		if agui.CodeOf(err) != CodeInterrupted {
			t.Fatalf("first: %s %v, want %s", res.FinishReason, err, CodeInterrupted)
		}
		if took := time.Since(start); took > 10*time.Second+2*busyPoll {
			t.Fatalf("the second run took %v: the first was not interrupted at once", took)
		}
		assertResult(t, second)
		if got := userTexts(second.Messages); !slices.Equal(got, []string{"one", "two"}) {
			t.Fatalf("transcript:\n%s", dump(second.Messages))
		}
		if tm, ok := second.Messages[2].(*agui.ToolMessage); !ok || !strings.Contains(tm.Content.String(), "cancelled") {
			t.Fatalf("the interrupted call's result: %v\n%s", second.Messages[2], dump(second.Messages))
		}
	})
}

// Under BusySteer the message reaches the holder's next model turn, after
// the results of the batch it was in (never inside it); the steering run
// finishes with FinishSteered, and the holder answers in its own run.
func TestBusySteer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newBusyRig(t, BusySteer)
		first := goExecute(t.Context(), rig.a, say("one"))
		time.Sleep(time.Second)
		second, err := rig.b.Execute(t.Context(), say("two"))
		if err != nil || second.FinishReason != FinishSteered {
			t.Fatalf("second: %s %v", second.FinishReason, err)
		}
		res, err := first.wait()
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("first: %s %v", res.FinishReason, err)
		}
		assertResult(t, res)
		if got := userTexts(res.Messages); !slices.Equal(got, []string{"one", "two"}) {
			t.Fatalf("transcript:\n%s", dump(res.Messages))
		}
		asks := rig.asked()
		if len(asks) != 3 {
			t.Fatalf("%d model turns, want 3 (call, call after the steer, answer)", len(asks))
		}
		steered := asks[1]
		if err := checkTranscript(steered, false); err != nil || userTexts(steered)[1] != "two" {
			t.Fatalf("the turn after the steer was asked (%v):\n%s", err, dump(steered))
		}
		if _, ok := steered[len(steered)-1].(*agui.UserMessage); !ok {
			t.Fatalf("the steered message is not after the batch's results:\n%s", dump(steered))
		}
		if n := rig.starts.Load(); n != 2 {
			t.Fatalf("the tool ran %d times, want 2", n)
		}
	})
}

// A steered message the holder never read (it paused for approval) is
// the next run's input, not lost.
func TestBusySteerKeptForNextRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newBusyRig(t, BusySteer, WithNeedsApproval(func(Call) bool { return true }), WithBusyWait(time.Second))
		// The first run pauses at once; a run holding the thread is made
		// by hand, as a replica within its lease.
		if _, err := rig.a.Execute(t.Context(), say("one")); err != nil {
			t.Fatal(err)
		}
		cp, v, err := rig.store.Load(t.Context(), "t")
		if err != nil {
			t.Fatal(err)
		}
		cp.Status, cp.LeaseUntil, cp.Holder = StatusRunning, time.Now().Add(time.Minute), "someone"
		if _, err := rig.store.Save(t.Context(), cp, v, 0); err != nil {
			t.Fatal(err)
		}
		res, err := rig.b.Execute(t.Context(), say("two"))
		if err != nil || res.FinishReason != FinishSteered {
			t.Fatalf("steer: %s %v", res.FinishReason, err)
		}
		cp, _, err = rig.store.Load(t.Context(), "t")
		if err != nil || len(cp.Steer) != 1 {
			t.Fatalf("steered: %v %v", cp.Steer, err)
		}
	})
}

// Under the default BusyRefuse a second run through HTTP is a JSON 409
// THREAD_BUSY before any stream; the first is untouched.
func TestBusyRefuseHTTP(t *testing.T) {
	b := newBlocker()
	a := mustNew(t, Script(Turn{Calls: workCalls("c1")}, Turn{Text: "ok"}), WithTools(b.tool(t)))
	h, err := core.NewHandler(core.Agent[core.NoState](a))
	if err != nil {
		t.Fatal(err)
	}
	post := func(run, text string) *httptest.ResponseRecorder {
		body, _ := json.Marshal(map[string]any{"threadId": "t", "runId": run, "protocolVersion": "1.0",
			"messages": []any{map[string]any{"id": run, "role": "user", "content": text}}})
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- post("run-1", "one") }()
	<-b.started
	w := post("run-2", "two")
	var body struct{ Code string }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusConflict || body.Code != string(CodeBusy) {
		t.Fatalf("second: %d %s", w.Code, w.Body)
	}
	b.release("c1")
	if w := <-done; w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "RUN_FINISHED") {
		t.Fatalf("first: %d %s", w.Code, w.Body)
	}
}

func TestBusyStrategyText(t *testing.T) {
	for _, s := range []BusyStrategy{BusyRefuse, BusyEnqueue, BusyInterrupt, BusySteer} {
		b, err := s.MarshalText()
		var back BusyStrategy
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Fatalf("%v: %s %v, back %v", s, b, err, back)
		}
	}
	var s BusyStrategy
	if err := s.UnmarshalText([]byte("rollback")); err == nil {
		t.Fatal("rollback accepted")
	}
	if _, err := New(Script(), WithBusy(BusyStrategy(9))); err == nil {
		t.Fatal("WithBusy(9) accepted")
	}
	if _, err := New(Script(), WithBusyWait(0)); err == nil {
		t.Fatal("WithBusyWait(0) accepted")
	}
}

// A message steered while the holder's model writes its final answer is
// answered by the same run: it reads the message after that answer,
// instead of ending with it unread.
func TestBusySteerDuringTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemoryStore()
		var turns atomic.Int64
		slow := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
			return func(yield func(Delta, error) bool) {
				turns.Add(1)
				select {
				case <-time.After(10 * time.Second):
				case <-ctx.Done():
					yield(Delta{}, ctx.Err())
					return
				}
				yield(Delta{Text: "answer " + strings.Join(userTexts(req.Messages), "+")}, nil)
			}
		})
		a := mustNew(t, slow, WithCheckpoints(store), WithBusy(BusySteer))
		b := mustNew(t, slow, WithCheckpoints(store), WithBusy(BusySteer))
		first := goExecute(t.Context(), a, say("one"))
		time.Sleep(time.Second)
		second, err := b.Execute(t.Context(), say("two"))
		if err != nil || second.FinishReason != FinishSteered {
			t.Fatalf("second: %s %v", second.FinishReason, err)
		}
		res, err := first.wait()
		if err != nil || res.FinishReason != FinishStop || turns.Load() != 2 {
			t.Fatalf("first: %s %v after %d turns", res.FinishReason, err, turns.Load())
		}
		var got []string
		for _, m := range res.Messages {
			switch m := m.(type) {
			case *agui.UserMessage:
				got = append(got, m.Content.String())
			case *agui.AssistantMessage:
				got = append(got, m.Content)
			}
		}
		if want := []string{"one", "answer one", "two", "answer one+two"}; !slices.Equal(got, want) {
			t.Fatalf("transcript %q, want %q", got, want)
		}
	})
}

// An interrupt reaches a holder waiting on its model too: the turn is
// cancelled, and the new run answers with a valid transcript.
func TestBusyInterruptDuringTheModelTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemoryStore()
		slow := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
			return func(yield func(Delta, error) bool) {
				select {
				case <-time.After(10 * time.Second):
					yield(Delta{Text: "answer " + strings.Join(userTexts(req.Messages), "+")}, nil)
				case <-ctx.Done():
					yield(Delta{}, ctx.Err())
				}
			}
		})
		a := mustNew(t, slow, WithCheckpoints(store), WithBusy(BusyInterrupt))
		b := mustNew(t, slow, WithCheckpoints(store), WithBusy(BusyInterrupt))
		first := goExecute(t.Context(), a, say("one"))
		time.Sleep(time.Second)
		start := time.Now()
		second, err := b.Execute(t.Context(), say("two"))
		if err != nil || second.FinishReason != FinishStop || time.Since(start) > 10*time.Second+2*busyPoll {
			t.Fatalf("second: %s %v after %v", second.FinishReason, err, time.Since(start))
		}
		if _, err := first.wait(); agui.CodeOf(err) != CodeInterrupted {
			t.Fatalf("first: %v, want %s", err, CodeInterrupted)
		}
		assertResult(t, second)
		if got := userTexts(second.Messages); !slices.Equal(got, []string{"one", "two"}) {
			t.Fatalf("transcript:\n%s", dump(second.Messages))
		}
	})
}
