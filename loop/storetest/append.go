package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// saveKept is mustSave with Save's kept.
func saveKept(t *testing.T, s loop.Store, cp *loop.Checkpoint, expect int64, kept int) int64 {
	t.Helper()
	v, err := s.Save(t.Context(), cp, expect, kept)
	if err != nil {
		t.Fatalf("save %s over version %d, kept %d: %v", cp.ThreadID, expect, kept, err)
	}
	if v == expect {
		t.Fatalf("save %s over version %d returned the same version", cp.ThreadID, expect)
	}
	return v
}

// loadsAs checks that s loads thread as want at version v.
func loadsAs(t *testing.T, s loop.Store, want *loop.Checkpoint, v int64, step string) {
	t.Helper()
	got, gv := mustLoad(t, s, want.ThreadID)
	if gv != v {
		t.Fatalf("%s: loaded version %d, want %d", step, gv, v)
	}
	if len(got.Messages) != len(want.Messages) {
		t.Fatalf("%s: loaded %d messages, want %d", step, len(got.Messages), len(want.Messages))
	}
	for i := range want.Messages {
		if !reflect.DeepEqual(got.Messages[i], want.Messages[i]) {
			t.Fatalf("%s: message %d\n got %#v\nwant %#v", step, i, got.Messages[i], want.Messages[i])
		}
	}
	if !equal(got, want) {
		t.Fatalf("%s: loaded checkpoint differs\n got %+v\nwant %+v", step, got, want)
	}
}

// turnMessages is turn i of a long thread: an assistant turn with one
// tool call and the call's result, about 600 bytes encoded.
func turnMessages(i int) []agui.Message {
	id := fmt.Sprint(i)
	return []agui.Message{
		&agui.AssistantMessage{ID: "a" + id, Content: "Looking it up.", ToolCalls: []agui.ToolCall{{ID: "c" + id,
			Function: agui.FunctionCall{Name: "search", Arguments: `{"q":"flights to Oslo, turn ` + id + `"}`}}}},
		&agui.ToolMessage{ID: "t" + id, ToolCallID: "c" + id, Content: agui.TextContent(strings.Repeat("result "+id+" ", 50)[:400])},
	}
}

// appendPath checks Save's kept: appends, saves that add no message,
// rewrites (a message replaced, the transcript shortened, trimmed from
// its start), and a kept past what the store holds, each loaded back as
// saved.
func appendPath(t *testing.T, s loop.Store) {
	cp := &loop.Checkpoint{ThreadID: "ap", Status: loop.StatusRunning, Messages: []agui.Message{userText("u", "hi")}}
	v := saveKept(t, s, cp, 0, 0)
	step := func(name string, msgs []agui.Message, kept int) {
		t.Helper()
		cp.Messages = msgs
		cp.Steps++
		v = saveKept(t, s, cp, v, kept)
		loadsAs(t, s, cp, v, name)
	}
	for i := range 3 {
		step(fmt.Sprint("append ", i), append(slices.Clip(cp.Messages), turnMessages(i)...), len(cp.Messages))
	}
	step("no new message", cp.Messages, len(cp.Messages))
	// An edited call's arguments: a new message replaces message 3.
	edited := slices.Clone(cp.Messages)
	edited[3] = &agui.AssistantMessage{ID: "a1", ToolCalls: []agui.ToolCall{{ID: "c1", Function: agui.FunctionCall{Name: "search", Arguments: `{"q":"edited"}`}}}}
	step("message replaced", edited, 3)
	step("last message replaced", append(slices.Clone(cp.Messages[:len(cp.Messages)-1]), userText("u2", "instead")), len(cp.Messages)-1)
	step("shortened", slices.Clip(cp.Messages[:4]), 4)
	// The fields past the shortened transcript are gone: an append over
	// it reads back the new messages only.
	step("append after shortened", append(slices.Clip(cp.Messages), turnMessages(7)...), len(cp.Messages))
	step("trimmed from the start", slices.Clip(cp.Messages[2:]), 0)
	step("emptied", nil, 0)
	step("append to empty", turnMessages(8), 0)
	// A caller's mistake: kept past what the store holds is taken as 0.
	step("kept past the stored transcript", append(slices.Clip(cp.Messages), turnMessages(9)...), len(cp.Messages)+2)
	// A stale version conflicts, kept or not, and changes nothing.
	stale := *cp
	stale.Messages = append(slices.Clip(cp.Messages), userText("late", "late"))
	if _, err := s.Save(t.Context(), &stale, v-1, len(cp.Messages)); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("save with kept over a stale version: %v, want ErrConflict", err)
	}
	loadsAs(t, s, cp, v, "after the stale save")
}

// LongThreadTurns is the turns [LongThread] drives a thread for.
const LongThreadTurns = 1000

// LongThread drives one thread for [LongThreadTurns] turns on a, each a
// save of an assistant turn with a tool call and its result over the
// version before (kept: the messages before them), then checks that b,
// another store on a's backend (another replica's), loads the thread
// identically, continues it with an append and a rewrite, and that a
// loads what b wrote. b may be a itself, for a store in one process.
func LongThread(t *testing.T, a, b loop.Store) { longThread(t, a, b, LongThreadTurns) }

// longThread is [LongThread] for turns turns.
func longThread(t *testing.T, a, b loop.Store, turns int) {
	cp := &loop.Checkpoint{ThreadID: "long", Owner: "ann", Status: loop.StatusRunning, Messages: []agui.Message{userText("u0", "plan a trip")}}
	v := saveKept(t, a, cp, 0, 0)
	for i := range turns {
		kept := len(cp.Messages)
		cp.Messages = append(slices.Clip(cp.Messages), turnMessages(i)...)
		cp.Steps = i + 1
		v = saveKept(t, a, cp, v, kept)
	}
	if n := len(cp.Messages); n != 1+2*turns {
		t.Fatalf("%d messages, want %d", n, 1+2*turns)
	}
	loadsAs(t, b, cp, v, "the long thread on the other store")
	// The other store holds it: it continues with its own loaded copy.
	got, _ := mustLoad(t, b, "long")
	kept := len(got.Messages)
	got.Messages = append(slices.Clip(got.Messages), userText("u1", "and back"))
	got.Status = loop.StatusIdle
	v = saveKept(t, b, got, v, kept)
	loadsAs(t, a, got, v, "an append by the other store")
	// A rewrite deep in the thread, written by the other store, reads
	// back on the first.
	msgs := slices.Clone(got.Messages)
	msgs[10] = userText("u-edited", "edited")
	got.Messages = msgs
	v = saveKept(t, b, got, v, 10)
	loadsAs(t, a, got, v, "a rewrite by the other store")
}
