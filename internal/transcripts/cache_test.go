package transcripts

import "testing"

// The cache keeps at most its bound in bytes, forgetting others to make
// room, and never keeps a transcript over the bound.
func TestCacheBound(t *testing.T) {
	c := New(100)
	for i, thread := range []string{"a", "b", "c", "d"} {
		c.Put(thread, &Transcript{Version: int64(i + 1), Size: 40})
		if c.bytes > 100 || c.Get(thread) == nil {
			t.Fatalf("after %s: %d bytes, %v", thread, c.bytes, c.Get(thread))
		}
	}
	if len(c.m) != 2 {
		t.Fatalf("%d transcripts of 40 bytes in 100", len(c.m))
	}
	c.Put("big", &Transcript{Size: 101})
	if c.Get("big") != nil {
		t.Fatal("a transcript over the bound is kept")
	}
	c.Put("d", &Transcript{Version: 9, Size: 10})
	if c.Get("d").Version != 9 || c.bytes > 100 {
		t.Fatalf("replacing d: %+v, %d bytes", c.Get("d"), c.bytes)
	}
	c.Drop("d")
	c.Drop("d")
	if c.Get("d") != nil || c.bytes < 0 {
		t.Fatalf("after drop: %d bytes", c.bytes)
	}
}
