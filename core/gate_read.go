package core

import "sync"

// gateReads are the request bodies being read on routes sharing a [Gate]:
// a client that stalls mid-upload holds its connection until the read
// timeout, longer than a shutdown's deadline, so Shutdown cuts every
// such read at once (the request is answered 503) instead of waiting.
type gateReads struct {
	mu     sync.Mutex
	closed bool
	next   uint64
	cuts   map[uint64]func()
}

// add registers cut, which makes a body read fail at once. It returns
// the function removing it, called once the read is over. When the gate
// is already shut, cut is called before add returns.
func (r *gateReads) add(cut func()) (done func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		cut()
		return func() {}
	}
	if r.cuts == nil {
		r.cuts = make(map[uint64]func())
	}
	id := r.next
	r.next++
	r.cuts[id] = cut
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.cuts, id)
	}
}

// cutAll stops registering reads and cuts the ones in progress.
func (r *gateReads) cutAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for id, cut := range r.cuts {
		cut()
		delete(r.cuts, id)
	}
}

// shut reports whether cutAll was called.
func (r *gateReads) shut() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}
