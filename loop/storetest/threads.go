package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agui-go/agui/loop"
)

// threads returns s as a [loop.ThreadStore], failing t when it is not one.
func threads(t *testing.T, s loop.Store) loop.ThreadStore {
	t.Helper()
	ts, ok := s.(loop.ThreadStore)
	if !ok {
		t.Fatalf("%T does not implement loop.ThreadStore", s)
	}
	return ts
}

func owned(thread, owner string, msgs int) *loop.Checkpoint {
	cp := &loop.Checkpoint{ThreadID: thread, Owner: owner, Status: loop.StatusIdle}
	for i := range msgs {
		cp.Messages = append(cp.Messages, userText(fmt.Sprint(thread, "-", i), "hi"))
	}
	return cp
}

// listAll pages through owner's threads limit at a time and returns their
// ids, failing on a page over limit or an empty page with a cursor.
func listAll(t *testing.T, ts loop.ThreadStore, owner string, archived bool, limit int) []loop.ThreadSummary {
	t.Helper()
	var all []loop.ThreadSummary
	q := loop.ThreadQuery{Limit: limit, Archived: archived}
	for range 1000 {
		page, err := ts.Threads(t.Context(), owner, q)
		if err != nil {
			t.Fatalf("threads of %q (cursor %q): %v", owner, q.Cursor, err)
		}
		if len(page.Threads) > limit {
			t.Fatalf("a page of limit %d holds %d threads", limit, len(page.Threads))
		}
		all = append(all, page.Threads...)
		if page.Next == "" {
			return all
		}
		if len(page.Threads) == 0 {
			t.Fatal("an empty page with a next cursor")
		}
		q.Cursor = page.Next
	}
	t.Fatal("the pages never end")
	return nil
}

func ids(s []loop.ThreadSummary) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.ID)
	}
	return out
}

// threadList: a principal's threads, newest activity first, paged by
// cursor; nobody else's; a save moves a thread to the head and keeps its
// creation time.
func threadList(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	before := storeNow(t, s, "t1")
	vs := map[string]int64{}
	for i := 1; i <= 5; i++ {
		id := fmt.Sprint("t", i)
		vs[id] = mustSave(t, s, owned(id, "alice", i), 0)
	}
	mustSave(t, s, owned("u1", "bob", 1), 0)
	mustSave(t, s, owned("z", "", 1), 0)
	got := listAll(t, ts, "alice", false, 2)
	if want := []string{"t5", "t4", "t3", "t2", "t1"}; !slices.Equal(ids(got), want) {
		t.Fatalf("alice's threads by pages of 2: %v, want %v", ids(got), want)
	}
	after := storeNow(t, s, "t1")
	for i, x := range got {
		if x.Messages != 5-i || x.Title != "" || x.Archived || x.RunActive || x.InterruptPending {
			t.Errorf("%s: %+v, want %d messages, no title, not archived, no run, no interrupt", x.ID, x, 5-i)
		}
		if x.Created.Before(before.Add(-time.Second)) || x.Updated.After(after.Add(time.Second)) || x.Updated.Before(x.Created) {
			t.Errorf("%s: created %v updated %v, want within [%v, %v], created first", x.ID, x.Created, x.Updated, before, after)
		}
		if i > 0 && x.Updated.After(got[i-1].Updated) {
			t.Errorf("%s updated %v after %s's %v, listed after it", x.ID, x.Updated, got[i-1].ID, got[i-1].Updated)
		}
	}
	if b := listAll(t, ts, "bob", false, 10); !slices.Equal(ids(b), []string{"u1"}) {
		t.Fatalf("bob's threads: %v, want [u1]", ids(b))
	}
	if z := listAll(t, ts, "", false, 10); !slices.Equal(ids(z), []string{"z"}) {
		t.Fatalf("unowned threads: %v, want [z]", ids(z))
	}
	if n := listAll(t, ts, "nobody", false, 10); len(n) != 0 {
		t.Fatalf("a principal without threads lists %v", ids(n))
	}
	// A save is activity: t2 goes to the head, created as before.
	mustSave(t, s, owned("t2", "alice", 7), vs["t2"])
	again := listAll(t, ts, "alice", false, 10)
	if want := []string{"t2", "t5", "t4", "t3", "t1"}; !slices.Equal(ids(again), want) {
		t.Fatalf("after saving t2: %v, want %v", ids(again), want)
	}
	if !again[0].Created.Equal(got[3].Created) || again[0].Messages != 7 || !again[0].Updated.After(got[0].Updated) {
		t.Fatalf("t2 after its save: %+v, want created %v, 7 messages, updated after %v", again[0], got[3].Created, got[0].Updated)
	}
}

// threadStatus: a run holding the thread within its lease is active, one
// whose lease ran out is not; an approval or client call is an interrupt.
func threadStatus(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	now := storeNow(t, s, "live")
	for _, c := range []struct {
		id     string
		status loop.Status
		lease  time.Time
	}{
		{"live", loop.StatusRunning, now.Add(time.Hour)},
		{"dead", loop.StatusRunning, now.Add(-time.Minute)},
		{"approval", loop.StatusAwaitingApproval, time.Time{}},
		{"client", loop.StatusAwaitingClient, time.Time{}},
		{"idle", loop.StatusIdle, time.Time{}},
	} {
		cp := owned(c.id, "carol", 1)
		cp.Status, cp.LeaseUntil = c.status, c.lease
		mustSave(t, s, cp, 0)
	}
	got := map[string]loop.ThreadSummary{}
	for _, x := range listAll(t, ts, "carol", false, 10) {
		got[x.ID] = x
	}
	for id, want := range map[string][2]bool{
		"live": {true, false}, "dead": {false, false}, "approval": {false, true}, "client": {false, true}, "idle": {false, false},
	} {
		x, ok := got[id]
		if !ok {
			t.Errorf("%s not listed", id)
			continue
		}
		if x.RunActive != want[0] || x.InterruptPending != want[1] {
			t.Errorf("%s: runActive %v interruptPending %v, want %v %v", id, x.RunActive, x.InterruptPending, want[0], want[1])
		}
	}
}

// threadUpdate: a title and the archived flag change without touching the
// checkpoint's version, survive the thread's next save, and move the
// thread between the lists.
func threadUpdate(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	ctx := t.Context()
	v := mustSave(t, s, owned("a", "dave", 2), 0)
	mustSave(t, s, owned("b", "dave", 1), 0)
	title, yes, no := "Trip to Oslo", true, false
	sum, err := ts.UpdateThread(ctx, "a", loop.ThreadUpdate{Title: &title})
	if err != nil || sum.ID != "a" || sum.Title != title || sum.Messages != 2 || sum.Archived {
		t.Fatalf("rename: %+v %v", sum, err)
	}
	if _, gv := mustLoad(t, s, "a"); gv != v {
		t.Fatalf("a rename changed the checkpoint's version from %d to %d", v, gv)
	}
	if sum, err = ts.UpdateThread(ctx, "a", loop.ThreadUpdate{Archived: &yes}); err != nil || !sum.Archived || sum.Title != title {
		t.Fatalf("archive: %+v %v", sum, err)
	}
	if l := listAll(t, ts, "dave", false, 10); !slices.Equal(ids(l), []string{"b"}) {
		t.Fatalf("unarchived threads after archiving a: %v, want [b]", ids(l))
	}
	if l := listAll(t, ts, "dave", true, 10); !slices.Equal(ids(l), []string{"a"}) || l[0].Title != title || !l[0].Archived {
		t.Fatalf("archived threads: %+v, want a, titled and archived", l)
	}
	// The run holding the thread saves over the version it had.
	v = mustSave(t, s, owned("a", "dave", 3), v)
	l := listAll(t, ts, "dave", true, 10)
	if len(l) != 1 || l[0].Title != title || l[0].Messages != 3 {
		t.Fatalf("archived threads after a's save: %+v, want a with its title and 3 messages", l)
	}
	if sum, err = ts.UpdateThread(ctx, "a", loop.ThreadUpdate{Archived: &no}); err != nil || sum.Archived {
		t.Fatalf("unarchive: %+v %v", sum, err)
	}
	if l := listAll(t, ts, "dave", false, 10); !slices.Equal(ids(l), []string{"a", "b"}) {
		t.Fatalf("after unarchiving a: %v, want [a b]", ids(l))
	}
	if l := listAll(t, ts, "dave", true, 10); len(l) != 0 {
		t.Fatalf("archived threads after unarchiving: %v", ids(l))
	}
	if _, gv := mustLoad(t, s, "a"); gv != v {
		t.Fatalf("archiving changed the checkpoint's version from %d to %d", v, gv)
	}
	if _, err := ts.UpdateThread(ctx, "missing", loop.ThreadUpdate{Title: &title}); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("update of a missing thread: %v, want ErrNotFound", err)
	}
	if _, _, err := s.Load(ctx, "missing"); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("an update of a missing thread created it: %v", err)
	}
}

// threadDelete: a deleted thread leaves its owner's lists, and one created
// again under its id starts afresh (no title, not archived, a new
// creation time).
func threadDelete(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	ctx := t.Context()
	mustSave(t, s, owned("gone", "erin", 1), 0)
	mustSave(t, s, owned("kept", "erin", 1), 0)
	title, yes := "old", true
	first, err := ts.UpdateThread(ctx, "gone", loop.ThreadUpdate{Title: &title, Archived: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if l := listAll(t, ts, "erin", true, 10); len(l) != 0 {
		t.Fatalf("archived threads after delete: %v", ids(l))
	}
	if l := listAll(t, ts, "erin", false, 10); !slices.Equal(ids(l), []string{"kept"}) {
		t.Fatalf("threads after delete: %v, want [kept]", ids(l))
	}
	if _, err := ts.UpdateThread(ctx, "gone", loop.ThreadUpdate{Title: &title}); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("update after delete: %v, want ErrNotFound", err)
	}
	mustSave(t, s, owned("gone", "erin", 1), 0)
	l := listAll(t, ts, "erin", false, 10)
	if len(l) != 2 || l[0].ID != "gone" || l[0].Title != "" || l[0].Archived || l[0].Created.Before(first.Created) {
		t.Fatalf("threads after re-creating: %+v, want gone first, untitled, unarchived, created anew", l)
	}
}

// threadPageBounds: a page holds at least one and at most
// loop.MaxThreadPage threads whatever the limit; a malformed cursor is
// ErrBadCursor.
func threadPageBounds(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	ctx := t.Context()
	for i := range loop.MaxThreadPage + 1 {
		mustSave(t, s, owned(fmt.Sprintf("p%03d", i), "frank", 0), 0)
	}
	for _, limit := range []int{-1, 0, 1} {
		page, err := ts.Threads(ctx, "frank", loop.ThreadQuery{Limit: limit})
		if err != nil || len(page.Threads) != 1 || page.Next == "" {
			t.Fatalf("limit %d: %d threads, next %q, %v; want 1 and a cursor", limit, len(page.Threads), page.Next, err)
		}
	}
	page, err := ts.Threads(ctx, "frank", loop.ThreadQuery{Limit: 1 << 30})
	if err != nil || len(page.Threads) != loop.MaxThreadPage || page.Next == "" {
		t.Fatalf("a huge limit: %d threads, next %q, %v; want %d and a cursor", len(page.Threads), page.Next, err, loop.MaxThreadPage)
	}
	rest, err := ts.Threads(ctx, "frank", loop.ThreadQuery{Limit: 10, Cursor: page.Next})
	if err != nil || len(rest.Threads) != 1 || rest.Next != "" || rest.Threads[0].ID != "p000" {
		t.Fatalf("the last page: %+v %v, want p000 alone", rest, err)
	}
	for _, c := range []string{"garbage", "!!", "AAAA"} {
		if _, err := ts.Threads(ctx, "frank", loop.ThreadQuery{Cursor: c}); !errors.Is(err, loop.ErrBadCursor) {
			t.Errorf("cursor %q: %v, want ErrBadCursor", c, err)
		}
	}
}

// threadOwnerChange: an unowned thread a principal's run claims moves to
// that principal's list.
func threadOwnerChange(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	v := mustSave(t, s, owned("c", "", 1), 0)
	mustSave(t, s, owned("c", "gina", 2), v)
	if l := listAll(t, ts, "gina", false, 10); !slices.Equal(ids(l), []string{"c"}) {
		t.Fatalf("gina's threads: %v, want [c]", ids(l))
	}
	if l := listAll(t, ts, "", false, 10); len(l) != 0 {
		t.Fatalf("unowned threads after gina claimed c: %v", ids(l))
	}
}

func threadCancelledContext(t *testing.T, s loop.Store) {
	ts := threads(t, s)
	mustSave(t, s, owned("x", "hal", 1), 0)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ts.Threads(ctx, "hal", loop.ThreadQuery{}); !errors.Is(err, context.Canceled) {
		t.Errorf("threads with a cancelled context: %v, want context.Canceled", err)
	}
	title := "no"
	if _, err := ts.UpdateThread(ctx, "x", loop.ThreadUpdate{Title: &title}); !errors.Is(err, context.Canceled) {
		t.Errorf("update with a cancelled context: %v, want context.Canceled", err)
	}
	if l := listAll(t, ts, "hal", false, 10); len(l) != 1 || l[0].Title != "" {
		t.Fatalf("after a cancelled update: %+v", l)
	}
}
