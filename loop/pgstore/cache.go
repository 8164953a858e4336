package pgstore

import (
	"reflect"
	"slices"
	"sync"

	"github.com/agui-go/agui"
)

// transcript is a thread's stored transcript at one version, decoded:
// versions never repeat, so it is the stored one for as long as its
// version is. A transcript is never changed once cached.
type transcript struct {
	version int64
	head    []byte         // the chain head over msgs
	msgs    []agui.Message // clipped: appending to it copies
	size    int64          // the messages' encoded bytes
}

// cache holds the transcripts a [Store] last loaded or saved, up to max
// encoded bytes in all (one thread's alone may not exceed it). Past it,
// arbitrary threads are forgotten. A cache is safe for concurrent use.
type cache struct {
	max int64

	mu    sync.Mutex
	bytes int64
	m     map[string]*transcript
}

func newCache(max int64) *cache { return &cache{max: max, m: map[string]*transcript{}} }

func (c *cache) get(thread string) *transcript {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[thread]
}

func (c *cache) put(thread string, t *transcript) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(thread)
	if t.size > c.max {
		return
	}
	for other := range c.m {
		if c.bytes+t.size <= c.max {
			break
		}
		c.dropLocked(other)
	}
	c.m[thread] = t
	c.bytes += t.size
}

func (c *cache) drop(thread string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(thread)
}

func (c *cache) dropLocked(thread string) {
	if t, ok := c.m[thread]; ok {
		c.bytes -= t.size
		delete(c.m, thread)
	}
}

// extends reports whether msgs starts with t's messages, the very same
// values: messages are immutable (a checkpoint's transcript only ever
// grows by appends to copies), so the same pointers are the same
// messages, and the stored prefix needs neither encoding nor hashing.
func (t *transcript) extends(msgs []agui.Message) bool {
	if len(t.msgs) > len(msgs) {
		return false
	}
	for i, m := range t.msgs {
		if !same(m, msgs[i]) {
			return false
		}
	}
	return true
}

// same reports whether a and b are the same pointer (a message that is
// not a pointer is never the same: its copy could differ).
func same(a, b agui.Message) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Kind() == reflect.Pointer && vb.Kind() == reflect.Pointer &&
		va.Type() == vb.Type() && va.Pointer() == vb.Pointer()
}

// messages returns a copy of t's messages for a caller to own.
func (t *transcript) messages() []agui.Message {
	if len(t.msgs) == 0 {
		return nil
	}
	return slices.Clone(t.msgs)
}
