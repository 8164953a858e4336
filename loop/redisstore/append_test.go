package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
	"github.com/agui-go/agui/loop/storetest"
)

// sentBytes is a client hook that counts the bytes of the commands' and
// pipelines' arguments the client sends.
type sentBytes struct{ n atomic.Int64 }

func (h *sentBytes) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *sentBytes) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.count(cmd)
		return next(ctx, cmd)
	}
}

func (h *sentBytes) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			h.count(cmd)
		}
		return next(ctx, cmds)
	}
}

func (h *sentBytes) count(cmd redis.Cmder) {
	for _, a := range cmd.Args() {
		switch a := a.(type) {
		case string:
			h.n.Add(int64(len(a)))
		case []byte:
			h.n.Add(int64(len(a)))
		default:
			h.n.Add(int64(len(fmt.Sprint(a))))
		}
	}
}

// A replica resumes a 1,000-turn thread another replica wrote turn by
// turn: two stores, each on its own client, on one Redis.
func TestLongThreadOnTwoReplicas(t *testing.T) {
	srv := redistest.Start(t)
	storetest.LongThread(t, newStore(t, client(t, srv)), newStore(t, client(t, srv)))
}

// A turn of a long thread sends Redis the messages it adds, not the
// transcript.
func TestAppendSendsTheNewMessages(t *testing.T) {
	c := client(t, redistest.Start(t))
	sent := &sentBytes{}
	c.AddHook(sent)
	s := newStore(t, c)
	ctx := t.Context()
	text := strings.Repeat("x", 500)
	cp := &loop.Checkpoint{ThreadID: "t", Status: loop.StatusRunning}
	var v int64
	var err error
	for i := range 200 {
		kept := len(cp.Messages)
		cp.Messages = append(slices.Clip(cp.Messages), loop.UserText(text))
		before := sent.n.Load()
		if v, err = s.Save(ctx, cp, v, kept); err != nil {
			t.Fatal(err)
		}
		// The message, the checkpoint without messages, the script's
		// sha, the keys and arguments, and the owner's list.
		if got := sent.n.Load() - before; i > 0 && got > 1200 {
			t.Fatalf("turn %d of a %d-message thread sent %d bytes, want at most 1,200", i, len(cp.Messages), got)
		}
	}
	before := sent.n.Load()
	if _, err = s.Save(ctx, cp, v, 0); err != nil {
		t.Fatal(err)
	}
	if got := sent.n.Load() - before; got < 200*500 {
		t.Fatalf("a save with kept 0 sent %d bytes, want the whole transcript", got)
	}
}

// A thread's hash of the earlier layout (the whole checkpoint in field
// "cp") loads, and a save over it writes the transcript whole.
func TestEarlierLayout(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c)
	ctx := t.Context()
	cp := &loop.Checkpoint{ThreadID: "old", Status: loop.StatusIdle, Steps: 2,
		Messages: []agui.Message{loop.UserText("a"), &agui.AssistantMessage{ID: "b", Content: "b"}}}
	data, err := loop.MarshalCheckpoint(cp)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.HSet(ctx, s.Key("old"), "v", "7", "cp", data, "n", "2", "o", "", "s", "idle").Err(); err != nil {
		t.Fatal(err)
	}
	got, v, err := s.Load(ctx, "old")
	if err != nil || v != 7 || len(got.Messages) != 2 || got.Steps != 2 {
		t.Fatalf("load of the earlier layout: %+v %d %v", got, v, err)
	}
	got.Messages = append(slices.Clip(got.Messages), loop.UserText("c"))
	if v, err = s.Save(ctx, got, v, 2); err != nil {
		t.Fatal(err)
	}
	again, gv, err := s.Load(ctx, "old")
	if err != nil || gv != v || len(again.Messages) != 3 || again.Messages[0].MessageID() != got.Messages[0].MessageID() {
		t.Fatalf("load after a save over the earlier layout: %+v %d %v", again, gv, err)
	}
	if n, err := c.HExists(ctx, s.Key("old"), "cp").Result(); err != nil || n {
		t.Fatalf("the earlier layout's field is still there: %v %v", n, err)
	}
}

// The same with no transcript cache: every load reads the messages.
func TestConformanceNoCache(t *testing.T) {
	c := client(t, redistest.Start(t))
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) loop.Store {
		return newStore(t, c, redisstore.WithKeyPrefix(fmt.Sprintf("nocache%d:", n.Add(1))), redisstore.WithCacheBytes(0))
	})
}

// A load of the version the Store last saved or loaded reads the hash
// without its messages: a message changed behind the Store's back (which
// no save does) is not read again until the version changes.
func TestLoadOfAKnownVersionReadsNoMessage(t *testing.T) {
	c := client(t, redistest.Start(t))
	s, other := newStore(t, c), newStore(t, c)
	ctx := t.Context()
	cp := &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle, Messages: []agui.Message{loop.UserText("a"), loop.UserText("b")}}
	v, err := s.Save(ctx, cp, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := json.Marshal(&agui.UserMessage{ID: "forged", Content: agui.TextContent("forged")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.HSet(ctx, s.Key("t"), "m0", forged).Err(); err != nil {
		t.Fatal(err)
	}
	first := func(st loop.Store) string {
		got, gv, err := st.Load(ctx, "t")
		if err != nil || gv != v {
			t.Fatalf("load: version %d (want %d), %v", gv, v, err)
		}
		return got.Messages[0].MessageID()
	}
	if id := first(s); id != cp.Messages[0].MessageID() {
		t.Fatalf("the saving store read message 0 again: %q", id)
	}
	if id := first(other); id != "forged" {
		t.Fatalf("another store read message 0 as %q, want the stored one", id)
	}
	// A save by the other store makes a new version: the first store
	// reads the messages again.
	got, _, err := other.Load(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	got.Steps = 1
	if v, err = other.Save(ctx, got, v, len(got.Messages)); err != nil {
		t.Fatal(err)
	}
	if id := first(s); id != "forged" {
		t.Fatalf("after another store's save, message 0 is %q, want the stored one", id)
	}
}
