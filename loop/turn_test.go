package loop

import (
	"context"
	"iter"
	"slices"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Tool call fragments are assembled by index whatever their arrival
// order; a call without an id, or with one the thread already used, gets
// a fresh id.
func TestTurnAssemblesCalls(t *testing.T) {
	deltas := []Delta{
		{ToolCall: &ToolCallDelta{Index: 1, ID: "dup", Name: "echo", Args: `{"id":`}},
		{ToolCall: &ToolCallDelta{Index: 0, Name: "echo", Args: `{"id":"a"}`}},
		{ToolCall: &ToolCallDelta{Index: 1, Args: `"b"}`}},
		{ToolCall: &ToolCallDelta{Index: 2, ID: "dup", Name: "echo", Args: `{"id":"c"}`}},
	}
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			if len(req.Messages) > 1 {
				yield(Delta{Text: "ok"}, nil)
				return
			}
			for _, d := range deltas {
				if !yield(d, nil) {
					return
				}
			}
		}
	})
	a := mustNew(t, p, WithTools(echoTool(t)))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	calls := res.Messages[1].(*agui.AssistantMessage).ToolCalls
	if len(calls) != 3 || calls[0].Function.Arguments != `{"id":"a"}` || calls[1].Function.Arguments != `{"id":"b"}` || calls[1].ID != "dup" {
		t.Fatalf("calls %+v", calls)
	}
	if calls[0].ID == "" || calls[2].ID == "dup" || calls[2].ID == "" {
		t.Fatalf("ids %s %s %s", calls[0].ID, calls[1].ID, calls[2].ID)
	}
	if r := results(res.Messages); r[calls[2].ID] != "echo c" {
		t.Fatalf("results %v", r)
	}
}

// Deltas that arrive close together reach the client in one take of its
// writer; the last of a burst waits at most coalesceWindow; a delta after
// a pause of the model goes out at once.
func TestTurnCoalescesCloseDeltas(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// gaps[i] is the pause before delta i.
		gaps := []time.Duration{0, 10 * time.Microsecond, 10 * time.Microsecond, 10 * time.Microsecond, 50 * time.Millisecond}
		sent := make([]time.Time, len(gaps))
		p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
			return func(yield func(Delta, error) bool) {
				for i, gap := range gaps {
					time.Sleep(gap)
					sent[i] = time.Now()
					if !yield(Delta{Text: strconv.Itoa(i)}, nil) {
						return
					}
				}
			}
		})
		run, err := core.NewRunner(mustNew(t, p), agui.NewInput("thread-1", "run-1"))
		if err != nil {
			t.Fatal(err)
		}
		var (
			got   []time.Time // when each delta was delivered
			takes []int       // the deltas of each take
		)
		c, err := run.Start(t.Context(), func(ev agui.Event) bool {
			if _, ok := ev.(*agui.TextMessageContent); ok {
				got = append(got, time.Now())
				takes[len(takes)-1]++
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for ready := c.Ready(); ready != nil; ready = c.Ready() {
			<-ready
			takes = append(takes, 0)
			c.Take()
		}
		takes = slices.DeleteFunc(takes, func(n int) bool { return n == 0 })
		// Delta 0 follows no other: out at once. 1-3 came 10 µs apart:
		// held together, out when the window ends. 4 followed a pause.
		if want := []int{1, 3, 1}; !slices.Equal(takes, want) {
			t.Fatalf("deltas per take %v, want %v", takes, want)
		}
		if len(got) != len(sent) {
			t.Fatalf("%d deltas delivered", len(got))
		}
		for i, want := range []time.Duration{0, coalesceWindow, coalesceWindow - 10*time.Microsecond, coalesceWindow - 20*time.Microsecond, 0} {
			if wait := got[i].Sub(sent[i]); wait != want {
				t.Errorf("delta %d waited %v, want %v", i, wait, want)
			}
		}
	})
}
