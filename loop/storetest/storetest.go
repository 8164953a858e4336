package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// NewStore returns a fresh, empty store for one subtest. Cleaning up
// (closing clients) is the function's job, with t.Cleanup.
type NewStore func(t *testing.T) loop.Store

// checks are the conformance checks, in the order Run runs them, as c
// configures them.
func checks(c config) []check {
	return []check{
		{"VersionedSave", versionedSave},
		{"RoundTrip", roundTrip},
		{"Isolation", isolation},
		{"ConcurrentClaims", concurrentClaims},
		{"Clock", clock},
		{"LeaseRenewal", leaseRenewal},
		{"LeaseExpiry", leaseExpiry},
		{"Delete", deleteThread},
		{"VersionsNeverRepeat", versionsNeverRepeat},
		{"LargeCheckpoint", largeCheckpoint},
		{"CancelledContext", cancelledContext},
		{"AppendPath", appendPath},
		{"LongThread", func(t *testing.T, s loop.Store) { longThread(t, s, s, c.turns) }},
		{"ThreadList", threadList},
		{"ThreadStatus", threadStatus},
		{"ThreadUpdate", threadUpdate},
		{"ThreadDelete", threadDelete},
		{"ThreadPageBounds", threadPageBounds},
		{"ThreadOwnerChange", threadOwnerChange},
		{"ThreadCancelledContext", threadCancelledContext},
		{"AgentApprovalAcrossAgents", agentApprovalAcrossAgents},
		{"AgentConcurrentResumes", agentConcurrentResumes},
	}
}

type check struct {
	name string
	fn   func(*testing.T, loop.Store)
}

// Names returns the names of [Run]'s subtests, in order: select some with
// go test -run 'TestStore/VersionedSave'.
func Names() []string {
	var out []string
	for _, c := range checks(defaults()) {
		out = append(out, c.name)
	}
	return out
}

// Option configures [Run]; each states its default.
type Option func(*config)

type config struct{ turns int }

func defaults() config { return config{turns: LongThreadTurns} }

// WithLongThreadTurns sets how many turns the LongThread check drives its
// thread for (n below 1 keeps the default). Default: [LongThreadTurns].
// For a configuration whose save costs grow with the transcript by design,
// such as a store without its transcript cache, where 1,000 turns cost
// the square of their length: it takes the same paths at 100 turns.
func WithLongThreadTurns(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.turns = n
		}
	}
}

// Run runs every conformance check as a subtest of t, each on a store
// from newStore; [Names] lists them.
func Run(t *testing.T, newStore NewStore, opts ...Option) {
	t.Helper()
	c := defaults()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	for _, c := range checks(c) {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newStore(t)) })
	}
}

func userText(id, text string) *agui.UserMessage {
	return &agui.UserMessage{ID: id, Content: agui.TextContent(text)}
}

// sample is a checkpoint with every field set and one message of each
// role (metadata holds strings and booleans, which every JSON form keeps
// as they are).
func sample(thread string) *loop.Checkpoint {
	meta := map[string]any{"k": "v", "ok": true}
	return &loop.Checkpoint{
		ThreadID:   thread,
		Status:     loop.StatusAwaitingApproval,
		LeaseUntil: time.Date(2030, 1, 2, 3, 4, 5, 6789, time.UTC),
		Steps:      2,
		Usage:      loop.Usage{InputTokens: 10, OutputTokens: 20, ReasoningTokens: 3, CachedInputTokens: 4},
		Pending:    &loop.PendingApproval{InterruptID: "int-1", ToolCallID: "call-1", Decision: &loop.Decision{Approved: false, Reason: "no"}},
		Messages: []agui.Message{
			&agui.SystemMessage{ID: "s", Content: "be brief"},
			&agui.DeveloperMessage{ID: "d", Content: "dev", Name: "n"},
			&agui.UserMessage{ID: "u", Content: agui.Content{Parts: []agui.ContentPart{agui.TextPart("héllo \u2028 <b>&")}}, Metadata: meta},
			&agui.AssistantMessage{ID: "a", Content: "calling", ToolCalls: []agui.ToolCall{{ID: "call-1", Function: agui.FunctionCall{Name: "book", Arguments: `{"city":"Oslo"}`}, EncryptedValue: "y", EncryptedValueType: "acme.call"}}},
			&agui.ToolMessage{ID: "t", Content: agui.TextContent("done"), ToolCallID: "call-1", Error: "e"},
			&agui.ActivityMessage{ID: "act", ActivityType: "plan", Content: map[string]any{"step": "one"}},
			&agui.ReasoningMessage{ID: "r", Content: "thinking", EncryptedValue: "x", EncryptedValueType: "anthropic.thinking_signature", SubagentRunID: "sub"},
		},
	}
}

// equal compares checkpoints, LeaseUntil as an instant.
func equal(a, b *loop.Checkpoint) bool {
	if !a.LeaseUntil.Equal(b.LeaseUntil) {
		return false
	}
	x, y := *a, *b
	x.LeaseUntil, y.LeaseUntil = time.Time{}, time.Time{}
	return reflect.DeepEqual(&x, &y)
}

// mustSave saves cp whole (kept 0).
func mustSave(t *testing.T, s loop.Store, cp *loop.Checkpoint, expect int64) int64 {
	t.Helper()
	return saveKept(t, s, cp, expect, 0)
}

func mustLoad(t *testing.T, s loop.Store, thread string) (*loop.Checkpoint, int64) {
	t.Helper()
	cp, v, err := s.Load(t.Context(), thread)
	if err != nil {
		t.Fatalf("load %s: %v", thread, err)
	}
	return cp, v
}

// storeNow reads the store's clock for thread: claims stamp and compare
// leases by it, as the loop does.
func storeNow(t *testing.T, s loop.Store, thread string) time.Time {
	t.Helper()
	now, err := s.Now(t.Context(), thread)
	if err != nil {
		t.Fatalf("now %s: %v", thread, err)
	}
	if now.IsZero() {
		t.Fatalf("now %s: the zero time", thread)
	}
	return now
}

// clock checks Now: a time, for any thread, known or not, that never
// goes back from one read to the next.
func clock(t *testing.T, s loop.Store) {
	mustSave(t, s, &loop.Checkpoint{ThreadID: "k"}, 0)
	prev := storeNow(t, s, "k")
	for i := range 10 {
		thread := "k"
		if i%2 == 1 {
			thread = "unknown"
		}
		now := storeNow(t, s, thread)
		if now.Before(prev) {
			t.Fatalf("the store's clock went back from %v to %v", prev, now)
		}
		prev = now
	}
}

func versionedSave(t *testing.T, s loop.Store) {
	ctx := t.Context()
	if _, _, err := s.Load(ctx, "t"); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("load of a new thread: %v, want ErrNotFound", err)
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t"}, 3, 0); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("save over version 3 of a new thread: %v, want ErrConflict", err)
	}
	cp := &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle, Messages: []agui.Message{userText("1", "a")}}
	v1 := mustSave(t, s, cp, 0)
	if _, err := s.Save(ctx, cp, 0, 0); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("second create: %v, want ErrConflict", err)
	}
	cp.Messages = append(cp.Messages, userText("2", "b"))
	v2 := mustSave(t, s, cp, v1)
	if _, err := s.Save(ctx, cp, v1, 0); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("save over a stale version: %v, want ErrConflict", err)
	}
	got, v := mustLoad(t, s, "t")
	if v != v2 || len(got.Messages) != 2 {
		t.Fatalf("load: version %d (want %d), %d messages (want 2)", v, v2, len(got.Messages))
	}
	// A loaded checkpoint is the caller's: changing it changes nothing stored.
	got.Messages[0] = userText("x", "changed")
	got.Steps = 99
	again, _ := mustLoad(t, s, "t")
	if again.Messages[0].MessageID() != "1" || again.Steps != 0 {
		t.Fatal("a loaded checkpoint aliases the stored one")
	}
	// So is a saved one: changing it after Save changes nothing stored.
	cp.Messages[0] = userText("y", "changed")
	again, _ = mustLoad(t, s, "t")
	if again.Messages[0].MessageID() != "1" {
		t.Fatal("the store keeps the saved checkpoint's memory")
	}
}

func roundTrip(t *testing.T, s loop.Store) {
	want := sample("rt")
	v := mustSave(t, s, want, 0)
	got, gv := mustLoad(t, s, "rt")
	if gv != v {
		t.Fatalf("version %d, want %d", gv, v)
	}
	if !equal(got, want) {
		t.Fatalf("loaded checkpoint differs\n got %+v\nwant %+v", got, want)
	}
	for i := range want.Messages {
		if !reflect.DeepEqual(got.Messages[i], want.Messages[i]) {
			t.Errorf("message %d\n got %#v\nwant %#v", i, got.Messages[i], want.Messages[i])
		}
	}
}

func isolation(t *testing.T, s loop.Store) {
	va := mustSave(t, s, &loop.Checkpoint{ThreadID: "a", Steps: 1}, 0)
	vb := mustSave(t, s, &loop.Checkpoint{ThreadID: "b", Steps: 2}, 0)
	mustSave(t, s, &loop.Checkpoint{ThreadID: "a", Steps: 3}, va)
	b, v := mustLoad(t, s, "b")
	if v != vb || b.Steps != 2 {
		t.Fatalf("thread b changed by a save of a: version %d steps %d", v, b.Steps)
	}
	// Ids that look like key syntax are threads like any other.
	for _, id := range []string{"{a}", "a}", "}", "a:b", "*", "", "ü\u2028"} {
		mustSave(t, s, &loop.Checkpoint{ThreadID: id, Steps: 7}, 0)
		if cp, _ := mustLoad(t, s, id); cp.ThreadID != id || cp.Steps != 7 {
			t.Fatalf("thread %q: %+v", id, cp)
		}
	}
	if a, _ := mustLoad(t, s, "a"); a.Steps != 3 {
		t.Fatalf("thread a: steps %d", a.Steps)
	}
}

// claim is the loop's claim: load, refuse a thread held under a live
// lease, take it with a versioned save. It reports the new version, or
// 0 when the thread is held or the save lost. now is the store's time
// (see storeNow), moved on as a test needs.
func claim(ctx context.Context, s loop.Store, thread string, now time.Time, lease time.Duration) (int64, error) {
	cp, v, err := s.Load(ctx, thread)
	switch {
	case errors.Is(err, loop.ErrNotFound):
		cp, v = &loop.Checkpoint{ThreadID: thread, Status: loop.StatusIdle}, 0
	case err != nil:
		return 0, err
	}
	if cp.Status == loop.StatusRunning && now.Before(cp.LeaseUntil) {
		return 0, nil
	}
	cp.Status, cp.LeaseUntil = loop.StatusRunning, now.Add(lease)
	nv, err := s.Save(ctx, cp, v, 0)
	if errors.Is(err, loop.ErrConflict) {
		return 0, nil
	}
	return nv, err
}

func concurrentClaims(t *testing.T, s loop.Store) {
	ctx := t.Context()
	mustSave(t, s, &loop.Checkpoint{ThreadID: "c", Status: loop.StatusIdle, Messages: []agui.Message{userText("1", "hi")}}, 0)
	const n = 100
	var (
		wins  atomic.Int64
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make(chan error, n)
	)
	now := storeNow(t, s, "c")
	for range n {
		wg.Go(func() {
			<-start
			v, err := claim(ctx, s, "c", now, time.Minute)
			if err != nil {
				errs <- err
			}
			if v != 0 {
				wins.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := wins.Load(); got != 1 {
		t.Fatalf("%d of %d claims won, want exactly 1", got, n)
	}
	// The same race on one loaded version: exactly one save lands.
	cp, v := mustLoad(t, s, "c")
	var saved atomic.Int64
	for range n {
		wg.Go(func() {
			if _, err := s.Save(ctx, cp, v, 0); err == nil {
				saved.Add(1)
			} else if !errors.Is(err, loop.ErrConflict) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := saved.Load(); got != 1 {
		t.Fatalf("%d of %d saves over one version landed, want 1", got, n)
	}
}

func leaseRenewal(t *testing.T, s loop.Store) {
	ctx := t.Context()
	now := storeNow(t, s, "l")
	v, err := claim(ctx, s, "l", now, time.Minute)
	if err != nil || v == 0 {
		t.Fatalf("first claim: %d %v", v, err)
	}
	// The holder renews over its own version, again and again; the
	// stored lease is the renewed one.
	cp, _ := mustLoad(t, s, "l")
	for i := range 3 {
		cp.LeaseUntil = now.Add(time.Duration(i+2) * time.Minute)
		v = mustSave(t, s, cp, v)
	}
	got, _ := mustLoad(t, s, "l")
	if !got.LeaseUntil.Equal(now.Add(4*time.Minute)) || got.Status != loop.StatusRunning {
		t.Fatalf("stored lease %v status %s, want %v running", got.LeaseUntil, got.Status, now.Add(4*time.Minute))
	}
	// Within the renewed lease nobody else claims the thread.
	if v2, err := claim(ctx, s, "l", now.Add(3*time.Minute), time.Minute); err != nil || v2 != 0 {
		t.Fatalf("claim within the renewed lease: %d %v", v2, err)
	}
}

func leaseExpiry(t *testing.T, s loop.Store) {
	ctx := t.Context()
	now := storeNow(t, s, "e")
	held, err := claim(ctx, s, "e", now, time.Minute)
	if err != nil || held == 0 {
		t.Fatalf("first claim: %d %v", held, err)
	}
	if v, err := claim(ctx, s, "e", now.Add(59*time.Second), time.Minute); err != nil || v != 0 {
		t.Fatalf("claim before the lease ran out: %d %v", v, err)
	}
	// Once the lease ran out, another claimer takes the thread over...
	taken, err := claim(ctx, s, "e", now.Add(61*time.Second), time.Minute)
	if err != nil || taken == 0 {
		t.Fatalf("claim after the lease ran out: %d %v", taken, err)
	}
	// ...and the old holder's renewal fails: it has lost the thread.
	cp, _ := mustLoad(t, s, "e")
	if _, err := s.Save(ctx, cp, held, 0); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("renewal by the holder whose lease ran out: %v, want ErrConflict", err)
	}
}

func deleteThread(t *testing.T, s loop.Store) {
	ctx := t.Context()
	if err := s.Delete(ctx, "never"); err != nil {
		t.Fatalf("delete of a missing thread: %v", err)
	}
	v := mustSave(t, s, &loop.Checkpoint{ThreadID: "d", Steps: 1}, 0)
	mustSave(t, s, &loop.Checkpoint{ThreadID: "other"}, 0)
	if err := s.Delete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, "d"); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("load after delete: %v, want ErrNotFound", err)
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "d"}, v, 0); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("save over the deleted version: %v, want ErrConflict", err)
	}
	mustSave(t, s, &loop.Checkpoint{ThreadID: "d", Steps: 2}, 0)
	if cp, _ := mustLoad(t, s, "d"); cp.Steps != 2 {
		t.Fatalf("recreated thread: steps %d", cp.Steps)
	}
	mustLoad(t, s, "other")
}

// versionsNeverRepeat: a thread deleted and created again never repeats a
// version of its earlier life, so a writer still holding one (a run that
// lost the thread) cannot overwrite the new thread once it has been saved
// as often (an ABA overwrite).
func versionsNeverRepeat(t *testing.T, s loop.Store) {
	ctx := t.Context()
	old := map[int64]bool{}
	var v int64
	for i := range 3 {
		v = mustSave(t, s, &loop.Checkpoint{ThreadID: "aba", Steps: i}, v)
		old[v] = true
	}
	stale := v
	for round := range 2 {
		if err := s.Delete(ctx, "aba"); err != nil {
			t.Fatal(err)
		}
		v = 0
		var life []int64
		for i := range len(old) + 2 {
			v = mustSave(t, s, &loop.Checkpoint{ThreadID: "aba", Steps: 100 + i}, v)
			life = append(life, v)
			if old[v] {
				t.Fatalf("round %d: the recreated thread's version %d repeats one of its earlier life", round, v)
			}
			if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "aba", Steps: -1}, stale, 0); !errors.Is(err, loop.ErrConflict) {
				t.Fatalf("round %d: a writer holding the deleted thread's version %d: %v, want ErrConflict", round, stale, err)
			}
		}
		cp, _ := mustLoad(t, s, "aba")
		if cp.Steps < 100 {
			t.Fatalf("round %d: the stale writer overwrote the new thread (steps %d)", round, cp.Steps)
		}
		// Every version of this life is old for the next.
		for _, lv := range life {
			old[lv] = true
		}
		stale = v
	}
}

func largeCheckpoint(t *testing.T, s loop.Store) {
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB in one message
	cp := &loop.Checkpoint{ThreadID: "big", Messages: []agui.Message{userText("1", big)}}
	for i := range 100 { // and many small ones
		cp.Messages = append(cp.Messages, userText(fmt.Sprint("m", i), strings.Repeat("x", 1000)))
	}
	v := mustSave(t, s, cp, 0)
	got, gv := mustLoad(t, s, "big")
	if gv != v || len(got.Messages) != len(cp.Messages) {
		t.Fatalf("version %d (want %d), %d messages (want %d)", gv, v, len(got.Messages), len(cp.Messages))
	}
	if !reflect.DeepEqual(got.Messages, cp.Messages) {
		t.Fatal("the large checkpoint came back different")
	}
}

func cancelledContext(t *testing.T, s loop.Store) {
	v := mustSave(t, s, &loop.Checkpoint{ThreadID: "x", Steps: 1}, 0)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := s.Load(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("load with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "x", Steps: 2}, v, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("save with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "new"}, 0, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("create with a cancelled context: %v, want context.Canceled", err)
	}
	if err := s.Delete(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("delete with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := s.Now(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("now with a cancelled context: %v, want context.Canceled", err)
	}
	// None of them had an effect.
	cp, gv := mustLoad(t, s, "x")
	if gv != v || cp.Steps != 1 {
		t.Fatalf("after cancelled calls: version %d (want %d) steps %d (want 1)", gv, v, cp.Steps)
	}
	if _, _, err := s.Load(t.Context(), "new"); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("a create with a cancelled context left %v", err)
	}
}
