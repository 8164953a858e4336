package pgstore

import (
	"testing"
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
