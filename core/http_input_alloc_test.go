package core

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/agui-go/agui"
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
		body, err := readBody(&stallReader{}, declared, limit, nil)
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
	got, err := readBody(&chunks{data: want}, int64(len(want)), 1<<30, nil)
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
		if _, err := readBody(&chunks{data: body}, int64(len(body)), 8<<20, nil); err != nil {
			t.Fatal(err)
		}
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := readBody(&chunks{data: body}, int64(len(body)), 8<<20, nil)
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

// A buffer of an earlier request with room for the body is read into,
// and no other is allocated.
func TestReadBodyReusesABuffer(t *testing.T) {
	body := make([]byte, 300_000)
	buf := make([]byte, 0, len(body)+1)
	allocs := testing.AllocsPerRun(5, func() {
		got, err := readBody(&chunks{data: body}, int64(len(body)), 8<<20, buf)
		if err != nil || len(got) != len(body) || &got[:1][0] != &buf[:1][0] {
			t.Fatalf("readBody = %d bytes, %v, or not into buf", len(got), err)
		}
	})
	if allocs > 1 {
		t.Errorf("%.0f allocations", allocs)
	}
}

// The handler's reader keeps body buffers for later requests, and what a
// run was given is not overwritten by the next request's body.
func TestInputReaderReusesBodies(t *testing.T) {
	ir, err := NewInputReader()
	if err != nil {
		t.Fatal(err)
	}
	read := func(content string) *agui.RunAgentInput {
		body := `{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user","content":"` + content + `"}]}`
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		in, err := ir.Read(httptest.NewRecorder(), req)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	first := read("first")
	for range 20 {
		read("other")
	}
	if got := first.Messages[0].(*agui.UserMessage).Content.Text; got != "first" {
		t.Fatalf("the first input's content is now %q", got)
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
