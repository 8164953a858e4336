package transcripts

import (
	"slices"
	"sync"

	"github.com/agui-go/agui"
)

// Transcript is a thread's stored transcript at one version, decoded:
// a store's versions never repeat, so it is the stored one for as long
// as its version is. A Transcript is never changed once cached; its
// messages are shared with the callers of [Transcript.Messages], which
// never modify a message.
type Transcript struct {
	Version int64
	Head    []byte         // what the store chains over Msgs, if anything
	Msgs    []agui.Message // clipped: appending to it copies
	Size    int64          // the messages' encoded bytes
}

// Cache holds the transcripts a store last loaded or saved, up to a
// bound of encoded bytes in all (one thread's alone may not exceed it).
// Past it, arbitrary threads are forgotten. A Cache is safe for
// concurrent use.
type Cache struct {
	max int64

	mu    sync.Mutex
	bytes int64
	m     map[string]*Transcript
}

// New returns an empty Cache bounded to max bytes (0: it keeps nothing).
func New(max int64) *Cache { return &Cache{max: max, m: map[string]*Transcript{}} }

// Get returns the thread's transcript, or nil.
func (c *Cache) Get(thread string) *Transcript {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[thread]
}

// Put keeps t as the thread's transcript, unless it alone is over the
// bound.
func (c *Cache) Put(thread string, t *Transcript) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(thread)
	if t.Size > c.max {
		return
	}
	for other := range c.m {
		if c.bytes+t.Size <= c.max {
			break
		}
		c.dropLocked(other)
	}
	c.m[thread] = t
	c.bytes += t.Size
}

// Drop forgets the thread's transcript.
func (c *Cache) Drop(thread string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(thread)
}

func (c *Cache) dropLocked(thread string) {
	if t, ok := c.m[thread]; ok {
		c.bytes -= t.Size
		delete(c.m, thread)
	}
}

// Messages returns a copy of t's messages for a caller to own.
func (t *Transcript) Messages() []agui.Message {
	if len(t.Msgs) == 0 {
		return nil
	}
	return slices.Clone(t.Msgs)
}
