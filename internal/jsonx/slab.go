package jsonx

// Slab hands out values of T from chunks it allocates a few at a time, so
// that decoding n values of a type costs about log n allocations rather
// than n: one allocation per object, message and array was a third of a
// long thread's allocations, and the collector a fifth of its CPU, in the
// profile of issue 26. A value handed out keeps its whole chunk alive.
//
// The zero Slab is ready to use; a Slab is used by one goroutine at a
// time.
type Slab[T any] struct {
	chunk []T
	gen   int // counts the chunks, for release
	size  int // the next chunk's size, unless the call asks otherwise
	taken int // values handed out, released ones included
}

// Taken returns how many values the slab has handed out.
func (s *Slab[T]) Taken() int { return s.taken }

// slabMark is a point in a Slab's handing out (see [Slab.release]).
type slabMark struct{ gen, n int }

func (s *Slab[T]) mark() slabMark { return slabMark{s.gen, len(s.chunk)} }

// release hands out again, by later calls, the values handed out since m:
// the caller no longer uses them. They are handed out as they are, not
// cleared, so a caller that releases must overwrite each value it takes:
// clearing them (memory with pointers, under the collector's write
// barrier) was 3% of a long thread's request, on top of the overwriting.
func (s *Slab[T]) release(m slabMark) {
	if s.gen == m.gen {
		s.chunk = s.chunk[:m.n]
	} else {
		// Everything in the current chunk came after m.
		s.chunk = s.chunk[:0]
	}
}

// minChunk is the size of a Slab's first chunk and maxChunk caps the
// doubling of the next ones; a call asking for more gets a chunk its size,
// and one bounding what is left to ask for gets no more than that.
const minChunk, maxChunk = 8, 1024

// Take returns n values no other call returns, as a slice of length and
// capacity n: zero values, unless released (see [Slab.release]). more is how many values later calls may still ask for
// (a bound, not a promise): a new chunk is never larger than n+more. For
// n = 0 it returns an empty, non-nil slice.
func (s *Slab[T]) Take(n, more int) []T {
	if n == 0 {
		return []T{}
	}
	if cap(s.chunk)-len(s.chunk) < n {
		s.size = min(max(2*s.size, minChunk), maxChunk)
		s.chunk = make([]T, 0, max(min(s.size, n+more), n))
		s.gen++
	}
	s.taken += n
	i := len(s.chunk)
	s.chunk = s.chunk[:i+n]
	return s.chunk[i : i+n : i+n]
}

// New returns one zero value through [Slab.Take].
func (s *Slab[T]) New(more int) *T { return &s.Take(1, more)[0] }
