package pgstore

import (
	"testing"

	"github.com/agui-go/agui"
)

// The cache keeps at most its bound in bytes, forgetting others to make
// room, and never keeps a transcript over the bound.
func TestCacheBound(t *testing.T) {
	c := newCache(100)
	for i, thread := range []string{"a", "b", "c", "d"} {
		c.put(thread, &transcript{version: int64(i + 1), size: 40})
		if c.bytes > 100 || c.get(thread) == nil {
			t.Fatalf("after %s: %d bytes, %v", thread, c.bytes, c.get(thread))
		}
	}
	if len(c.m) != 2 {
		t.Fatalf("%d transcripts of 40 bytes in 100", len(c.m))
	}
	c.put("big", &transcript{size: 101})
	if c.get("big") != nil {
		t.Fatal("a transcript over the bound is kept")
	}
	c.put("d", &transcript{version: 9, size: 10})
	if c.get("d").version != 9 || c.bytes > 100 {
		t.Fatalf("replacing d: %+v, %d bytes", c.get("d"), c.bytes)
	}
	c.drop("d")
	c.drop("d")
	if c.get("d") != nil || c.bytes < 0 {
		t.Fatalf("after drop: %d bytes", c.bytes)
	}
}

// A transcript extends only into a transcript that starts with its very
// messages.
func TestTranscriptExtends(t *testing.T) {
	m1, m2, m3 := &agui.UserMessage{ID: "1"}, &agui.UserMessage{ID: "2"}, &agui.UserMessage{ID: "3"}
	tr := &transcript{msgs: []agui.Message{m1, m2}}
	for _, c := range []struct {
		msgs []agui.Message
		want bool
	}{
		{[]agui.Message{m1, m2}, true},
		{[]agui.Message{m1, m2, m3}, true},
		{[]agui.Message{m1}, false},
		{[]agui.Message{m1, &agui.UserMessage{ID: "2"}, m3}, false}, // equal, but another value
		{[]agui.Message{m2, m1, m3}, false},
	} {
		if got := tr.extends(c.msgs); got != c.want {
			t.Errorf("extends %v: %v, want %v", c.msgs, got, c.want)
		}
	}
}
