package jsonx

import "testing"

func TestSlabHandsOutDistinctZeroValues(t *testing.T) {
	var s Slab[int]
	seen := map[*int]bool{}
	for i := range 100 {
		p := s.New(1000)
		if *p != 0 || seen[p] {
			t.Fatalf("value %d: %d, seen before %v", i, *p, seen[p])
		}
		seen[p] = true
		*p = i + 1
	}
	if z := new(Slab[int]).Take(0, 0); z == nil {
		t.Error("Take(0) of a new slab is nil, want an empty slice")
	}
	a := s.Take(3, 0)
	if len(a) != 3 || cap(a) != 3 {
		t.Fatalf("Take(3) has length %d and capacity %d, want 3 and 3", len(a), cap(a))
	}
	// Appending past a taken slice must not write into the next one.
	b := s.Take(2, 0)
	_ = append(a, 7)
	if b[0] != 0 {
		t.Fatalf("append to one slice wrote %d into the next", b[0])
	}
}

func TestSlabChunksGrowWithinTheHint(t *testing.T) {
	var s Slab[int]
	s.New(2)
	if c := cap(s.chunk); c != 3 {
		t.Errorf("first chunk for 1 value and 2 more holds %d, want 3", c)
	}
	var big Slab[int]
	allocs := testing.AllocsPerRun(10, func() {
		big = Slab[int]{}
		for range 5000 {
			big.New(5000)
		}
	})
	// 8, 16, ... 1024, then 1024 at a time: 12 chunks for 5000 values.
	if allocs > 12 {
		t.Errorf("5000 values took %.0f allocations, want at most 12", allocs)
	}
	var s2 Slab[int]
	if p := s2.Take(2000, 0); len(p) != 2000 {
		t.Errorf("Take(2000) larger than a chunk returned %d values", len(p))
	}
	// A large Take does not make the next chunks large.
	s2.New(1 << 20)
	if c := cap(s2.chunk); c != 16 {
		t.Errorf("chunk after a large Take holds %d, want 16", c)
	}
}

func TestSlabReleaseHandsOutAgain(t *testing.T) {
	var s Slab[int]
	kept := s.New(100)
	*kept = 1
	m := s.mark()
	p := s.New(100)
	*p = 2
	s.release(m)
	if q := s.New(100); q != p {
		t.Fatalf("after release: %p, want %p again", q, p)
	}
	if *kept != 1 {
		t.Fatalf("release changed a value handed out before the mark: %d", *kept)
	}
	// A release across chunks starts the current chunk over.
	m = s.mark()
	for range 50 {
		*s.New(100) = 3
	}
	s.release(m)
	if len(s.chunk) != 0 {
		t.Fatalf("%d values still taken from a chunk made after the mark", len(s.chunk))
	}
}
