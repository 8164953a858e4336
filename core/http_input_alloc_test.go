package core

import (
	"errors"
	"io"
	"os"
	"runtime"
	"testing"
)

// stallReader returns one byte, then fails as a read past its deadline
// does: a client that declared a large body, sent a byte and stalled.
type stallReader struct{ sent bool }

func (s *stallReader) Read(p []byte) (int, error) {
	if !s.sent {
		s.sent = true
		p[0] = '{'
		return 1, nil
	}
	return 0, os.ErrDeadlineExceeded
}

// A declared Content-Length is not allocated before its bytes arrive: a
// request declaring 8 MiB that sends one byte costs the reader at most
// the initial cap, not 8 MiB (before, it reserved the whole declared
// length up front).
func TestReadBodyDoesNotTrustContentLength(t *testing.T) {
	const declared, limit = 8 << 20, 16 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 10
	for range n {
		body, err := readBody(&stallReader{}, declared, limit)
		if !errors.Is(err, os.ErrDeadlineExceeded) || len(body) != 1 {
			t.Fatalf("readBody = %d bytes, %v", len(body), err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 2*maxInitialBody {
		t.Fatalf("one stalled read allocated %d bytes, want at most %d", per, 2*maxInitialBody)
	}
}

// A body that does arrive whole still reads back exactly, past the initial
// cap.
func TestReadBodyGrowsWithTheBytes(t *testing.T) {
	want := make([]byte, 3*maxInitialBody+7)
	for i := range want {
		want[i] = byte(i)
	}
	got, err := readBody(&chunks{data: want}, int64(len(want)), 1<<30)
	if err != nil || string(got) != string(want) {
		t.Fatalf("readBody = %d bytes, %v; want %d", len(got), err, len(want))
	}
}

// A large body that arrives whole costs its buffers' doubling up to the
// declared length, at most about three times the body, where append's
// growth by a quarter allocated over four times a 300 KB body.
func TestReadBodyAllocatesLittleMoreThanTheBody(t *testing.T) {
	body := make([]byte, 300_000)
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := readBody(&chunks{data: body}, int64(len(body)), 8<<20); err != nil {
			t.Fatal(err)
		}
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := readBody(&chunks{data: body}, int64(len(body)), 8<<20)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != len(body) {
		t.Fatalf("readBody = %d bytes, %v", len(got), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 3*uint64(len(body)) || allocs > 5 {
		t.Fatalf("a %d-byte body allocated %d bytes in %.0f allocations", len(body), n, allocs)
	}
	if cap(got) != len(body)+1 {
		t.Errorf("cap %d, want the declared length and one", cap(got))
	}
}

// chunks hands out data 1000 bytes at a time, then io.EOF.
type chunks struct{ data []byte }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.data[:min(len(c.data), 1000)])
	c.data = c.data[n:]
	return n, nil
}
