package loop

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// ErrStoreFull: a [MemoryStore] at its cap has no thread it may evict to
// make room for a new thread, or a checkpoint alone is over the byte cap.
// The run fails with CHECKPOINT_ERROR before anything runs, and an HTTP
// route answers a new thread with a 503 (CHECKPOINT_STORE_FULL) before its
// stream (see [RoomChecker]).
var ErrStoreFull = errors.New("loop: checkpoint store full")

// MemoryOption configures a [MemoryStore]. A limit of zero or less turns
// that limit off.
type MemoryOption func(*memoryConfig)

type memoryConfig struct {
	maxThreads  int
	maxBytes    int64
	maxAwaiting int
	idleTTL     time.Duration
	awaitingTTL time.Duration
}

// WithMemoryMaxThreads caps the threads kept (default 10,000; 0 or less: no
// cap).
func WithMemoryMaxThreads(n int) MemoryOption { return func(c *memoryConfig) { c.maxThreads = n } }

// WithMemoryMaxBytes caps the estimated size of the checkpoints kept:
// everything a checkpoint holds (its messages, arguments and metadata, its
// shared state, parked and pending calls, ids and owner) plus a fixed
// overhead per message and call (default 256 MiB; 0 or less: no cap). A
// single checkpoint over it is refused with [ErrStoreFull].
func WithMemoryMaxBytes(n int64) MemoryOption { return func(c *memoryConfig) { c.maxBytes = n } }

// WithMemoryMaxAwaitingPerOwner caps the threads waiting for an approval
// that one principal (a checkpoint's Owner, "" included) keeps (default
// 1,000; 0 or less: no cap). Past it, the principal's least recently saved
// waiting thread is evicted: a client that opens approvals and never
// answers them pushes out its own, never another principal's.
func WithMemoryMaxAwaitingPerOwner(n int) MemoryOption {
	return func(c *memoryConfig) { c.maxAwaiting = n }
}

// WithMemoryIdleTTL is how long a thread no run holds is kept after its last
// save (default 1 hour; 0 or less: forever). It covers finished threads,
// and running ones whose lease ran out (their run died) counted from the
// lease's end.
func WithMemoryIdleTTL(d time.Duration) MemoryOption { return func(c *memoryConfig) { c.idleTTL = d } }

// WithMemoryAwaitingTTL is how long a thread waiting for an approval is kept
// after its last save (default 24 hours; 0 or less: forever). After it
// the approval can no longer be answered (BAD_RESUME).
func WithMemoryAwaitingTTL(d time.Duration) MemoryOption {
	return func(c *memoryConfig) { c.awaitingTTL = d }
}

// MemoryStore is the in-memory [Store], the default. It is safe for
// concurrent use, and its memory is bounded: it keeps at most
// [WithMemoryMaxThreads] threads and [WithMemoryMaxBytes] of checkpoints, and drops
// threads nobody touched for their TTL ([WithMemoryIdleTTL],
// [WithMemoryAwaitingTTL]) lazily, on its next call.
//
// To make room for a new thread it evicts the least recently saved
// threads no run holds: finished ones, and running ones whose lease ran
// out. When none is left it evicts threads waiting for an approval, the
// least recently saved one of the principal (the checkpoint's Owner) that
// keeps the most of them (by count at the thread cap, by bytes at the byte
// cap): that principal is over its fair share, so one that floods the
// store with approvals it never answers loses its own, and every other
// principal's new thread still fits. [WithMemoryMaxAwaitingPerOwner]
// bounds one principal's waiting threads even below the caps. An evicted
// approval can no longer be answered (BAD_RESUME). It never evicts a
// thread a run holds within its lease (the run would lose it mid-turn);
// when only those are left, a new thread is refused with [ErrStoreFull].
// A thread that is kept may grow past the byte cap: each run appends its
// input, every model turn and every tool result to the transcript, so a
// thread grows with every run (bounded per run by [WithMaxSteps]) unless
// [WithMaxTranscript] drops its oldest exchanges.
//
// Versions are drawn from one counter for the whole store, so a thread
// deleted or expired and created again never repeats a version a writer
// may still hold.
type MemoryStore struct {
	cfg memoryConfig

	mu      sync.Mutex
	entries map[string]*memoryEntry
	// lru orders the entries by last save, most recent first.
	lru   list.List
	bytes int64
	// awaiting holds, per owner, its threads waiting for an approval.
	awaiting map[string]*ownerAwaiting
	// owned holds, per owner, its threads most recently saved first: the
	// index [MemoryStore.Threads] reads.
	owned     map[string]*list.List
	seq       int64 // the last version handed out
	nextSweep time.Time
}

type memoryEntry struct {
	// cp's Messages is the entry's own array, never handed out: an
	// append over the stored version writes into its spare capacity.
	cp      Checkpoint
	version int64
	size    int64
	// msgSize is the part of size its messages take.
	msgSize int64
	saved   time.Time
	created time.Time
	// title and archived are kept beside the checkpoint, outside its
	// version ([ThreadStore]).
	title    string
	archived bool
	elem     *list.Element
	// await is the entry's place in awaiting[cp.Owner] while cp waits
	// for an approval, nil otherwise.
	await *list.Element
	// owned is the entry's place in owned[cp.Owner].
	owned *list.Element
}

// ownerAwaiting is one owner's threads waiting for an approval, most
// recently saved first, and their size.
type ownerAwaiting struct {
	threads list.List
	bytes   int64
}

// NewMemoryStore returns an empty store.
func NewMemoryStore(opts ...MemoryOption) *MemoryStore {
	cfg := memoryConfig{maxThreads: 10_000, maxBytes: 256 << 20, maxAwaiting: 1_000, idleTTL: time.Hour, awaitingTTL: 24 * time.Hour}
	for _, o := range opts {
		o(&cfg)
	}
	return &MemoryStore{cfg: cfg, entries: map[string]*memoryEntry{}, awaiting: map[string]*ownerAwaiting{},
		owned: map[string]*list.List{}}
}

// Len returns the number of threads kept and their estimated size in
// bytes (see [WithMemoryMaxBytes]).
func (s *MemoryStore) Len() (threads int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries), s.bytes
}

// Load implements [Store].
func (s *MemoryStore) Load(ctx context.Context, threadID string) (*Checkpoint, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.live(threadID, time.Now())
	if e == nil {
		return nil, 0, ErrNotFound
	}
	cp := e.cp.clone()
	return &cp, e.version, nil
}

// Now implements [Store]: the process's clock, which the store's own
// expiry reads too.
func (s *MemoryStore) Now(ctx context.Context, _ string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}

// CheckRoom implements [RoomChecker]: it reports [ErrStoreFull] when a new
// checkpoint for threadID would be refused now, because every thread kept
// is held by a run within its lease.
func (s *MemoryStore) CheckRoom(ctx context.Context, threadID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.live(threadID, now) != nil {
		return nil
	}
	// The smallest checkpoint a new run saves: an id and one message.
	need := checkpointOverhead + messageOverhead + int64(len(threadID))
	threadsFull := s.cfg.maxThreads > 0 && len(s.entries)+1 > s.cfg.maxThreads
	bytesFull := s.cfg.maxBytes > 0 && s.bytes+need > s.cfg.maxBytes
	if !threadsFull && !bytesFull {
		return nil
	}
	// Only threads held within their lease stay.
	var pinned int
	var pinnedBytes int64
	for _, e := range s.entries {
		if !s.expired(e, now) && e.cp.Status == StatusRunning && !now.After(e.cp.LeaseUntil) {
			pinned++
			pinnedBytes += e.size
		}
	}
	if (s.cfg.maxThreads > 0 && pinned+1 > s.cfg.maxThreads) || (s.cfg.maxBytes > 0 && pinnedBytes+need > s.cfg.maxBytes) {
		return ErrStoreFull
	}
	return nil
}

// Save implements [Store]: it copies the messages past kept, so that a
// turn of a long thread costs what the turn adds.
func (s *MemoryStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.sweep(now)
	e := s.live(cp.ThreadID, now)
	var version, oldSize int64
	var held []agui.Message
	if e != nil {
		version, oldSize, held = e.version, e.size, e.cp.Messages
	}
	if version != expect {
		return 0, ErrConflict
	}
	if kept < 0 || kept > len(held) || kept > len(cp.Messages) {
		kept = 0
	}
	msgSize := messagesSize(cp.Messages[kept:])
	if e != nil {
		msgSize += e.msgSize - messagesSize(held[kept:])
	}
	size := bareSize(cp) + msgSize
	if s.cfg.maxBytes > 0 && size > s.cfg.maxBytes {
		return 0, ErrStoreFull
	}
	if !s.makeRoom(cp.ThreadID, e == nil, size-oldSize, now) && e == nil {
		return 0, ErrStoreFull
	}
	if e == nil {
		e = &memoryEntry{created: now}
		e.elem = s.lru.PushFront(cp.ThreadID)
		s.entries[cp.ThreadID] = e
	} else {
		s.lru.MoveToFront(e.elem)
		s.unawait(e)
		s.disown(e)
	}
	s.seq++
	msgs := append(held[:kept], cp.Messages[kept:]...)
	if len(msgs) < len(held) {
		clear(held[len(msgs):]) // the array's spare capacity holds no dropped message
	}
	if len(msgs) == 0 {
		msgs = nil // as every store loads an empty transcript
	}
	e.cp, e.version, e.saved = cp.cloneBare(), s.seq, now
	e.cp.Messages = msgs
	s.bytes += size - e.size
	e.size, e.msgSize = size, msgSize
	o := s.owned[e.cp.Owner]
	if o == nil {
		o = list.New()
		s.owned[e.cp.Owner] = o
	}
	e.owned = o.PushFront(e)
	if e.cp.Status == StatusAwaitingApproval {
		o := s.awaiting[e.cp.Owner]
		if o == nil {
			o = &ownerAwaiting{}
			s.awaiting[e.cp.Owner] = o
		}
		e.await = o.threads.PushFront(cp.ThreadID)
		o.bytes += e.size
		for s.cfg.maxAwaiting > 0 && o.threads.Len() > s.cfg.maxAwaiting {
			id := o.threads.Back().Value.(string)
			s.remove(id, s.entries[id])
		}
	}
	return e.version, nil
}

// Delete implements [Store].
func (s *MemoryStore) Delete(ctx context.Context, threadID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.entries[threadID]; e != nil {
		s.remove(threadID, e)
	}
	return nil
}

// live returns the thread's entry, dropping it when its TTL ran out.
func (s *MemoryStore) live(threadID string, now time.Time) *memoryEntry {
	e := s.entries[threadID]
	if e != nil && s.expired(e, now) {
		s.remove(threadID, e)
		return nil
	}
	return e
}

func (s *MemoryStore) remove(threadID string, e *memoryEntry) {
	delete(s.entries, threadID)
	s.lru.Remove(e.elem)
	s.bytes -= e.size
	s.unawait(e)
	s.disown(e)
}

// disown takes e out of its owner's threads.
func (s *MemoryStore) disown(e *memoryEntry) {
	o := s.owned[e.cp.Owner]
	o.Remove(e.owned)
	e.owned = nil
	if o.Len() == 0 {
		delete(s.owned, e.cp.Owner)
	}
}

// unawait takes e out of its owner's waiting threads.
func (s *MemoryStore) unawait(e *memoryEntry) {
	if e.await == nil {
		return
	}
	o := s.awaiting[e.cp.Owner]
	o.threads.Remove(e.await)
	o.bytes -= e.size
	e.await = nil
	if o.threads.Len() == 0 {
		delete(s.awaiting, e.cp.Owner)
	}
}

// expired reports whether e outlived its TTL.
func (s *MemoryStore) expired(e *memoryEntry, now time.Time) bool {
	switch e.cp.Status {
	case StatusAwaitingApproval:
		return s.cfg.awaitingTTL > 0 && now.Sub(e.saved) >= s.cfg.awaitingTTL
	case StatusRunning:
		return s.cfg.idleTTL > 0 && now.After(e.cp.LeaseUntil) && now.Sub(later(e.saved, e.cp.LeaseUntil)) >= s.cfg.idleTTL
	default:
		return s.cfg.idleTTL > 0 && now.Sub(e.saved) >= s.cfg.idleTTL
	}
}

// evictable reports whether e may go first to make room: no run holds it
// and it waits for no approval.
func evictable(e *memoryEntry, now time.Time) bool {
	switch e.cp.Status {
	case StatusAwaitingApproval:
		return false
	case StatusRunning:
		return now.After(e.cp.LeaseUntil)
	default:
		return true
	}
}

// sweep drops every expired entry, at most every quarter of the shortest
// TTL, so that threads nobody asks for again go too.
func (s *MemoryStore) sweep(now time.Time) {
	ttl := s.cfg.idleTTL
	if ttl <= 0 || (s.cfg.awaitingTTL > 0 && s.cfg.awaitingTTL < ttl) {
		ttl = s.cfg.awaitingTTL
	}
	if ttl <= 0 || now.Before(s.nextSweep) {
		return
	}
	s.nextSweep = now.Add(ttl / 4)
	for id, e := range s.entries {
		if s.expired(e, now) {
			s.remove(id, e)
		}
	}
}

// makeRoom evicts threads other than keep until one more thread (when
// adding) and grow more bytes fit: first the least recently saved
// evictable ones, then waiting ones of the principal keeping the most
// (see [MemoryStore]). It reports whether they fit.
func (s *MemoryStore) makeRoom(keep string, adding bool, grow int64, now time.Time) bool {
	threadsFull := func() bool {
		return adding && s.cfg.maxThreads > 0 && len(s.entries)+1 > s.cfg.maxThreads
	}
	bytesFull := func() bool { return s.cfg.maxBytes > 0 && s.bytes+grow > s.cfg.maxBytes }
	fits := func() bool { return !threadsFull() && !bytesFull() }
	for el := s.lru.Back(); el != nil && !fits(); {
		prev := el.Prev()
		id := el.Value.(string)
		if e := s.entries[id]; id != keep && evictable(e, now) {
			s.remove(id, e)
		}
		el = prev
	}
	for !fits() {
		id := s.awaitingVictim(keep, bytesFull() && !threadsFull())
		if id == "" {
			return false
		}
		s.remove(id, s.entries[id])
	}
	return true
}

// awaitingVictim returns the least recently saved waiting thread other
// than keep of the owner keeping the most waiting threads (byBytes: the
// most bytes of them), "" when there is none.
func (s *MemoryStore) awaitingVictim(keep string, byBytes bool) string {
	var top *ownerAwaiting
	var topOwner string
	for owner, o := range s.awaiting {
		if o.threads.Len() == 1 && o.threads.Front().Value.(string) == keep {
			continue
		}
		more := top == nil
		if !more {
			a, b := int64(o.threads.Len()), int64(top.threads.Len())
			if byBytes {
				a, b = o.bytes, top.bytes
			}
			// Ties go to the lesser owner name, so that the choice does
			// not depend on map order.
			more = a > b || (a == b && owner < topOwner)
		}
		if more {
			top, topOwner = o, owner
		}
	}
	if top == nil {
		return ""
	}
	for el := top.threads.Back(); el != nil; el = el.Prev() {
		if id := el.Value.(string); id != keep {
			return id
		}
	}
	return ""
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// messageOverhead is the estimated size of a message apart from its
// text: the Go values and the map entry that hold it.
const messageOverhead = 256

// checkpointOverhead is the estimated size of a checkpoint apart from
// what its fields hold: the entry, its list element and map slot.
const checkpointOverhead = 512

// The memory a checkpoint holds is estimated as everything its fields
// carry (a stranger chooses most of it: the input's messages and state, a
// tool's results, a call's arguments), plus a fixed overhead per message
// and per entry: bareSize plus messagesSize of its transcript.

// messagesSize is the estimated memory of messages of a transcript.
func messagesSize(msgs []agui.Message) int64 {
	var n int64
	for _, m := range msgs {
		n += messageOverhead + messageSize(m)
	}
	return n
}

// bareSize is the estimated memory of cp but for its transcript.
func bareSize(cp *Checkpoint) int64 {
	n := checkpointOverhead + strs(cp.ThreadID, cp.Owner) + int64(len(cp.State))
	for _, m := range cp.Parked {
		n += messageOverhead
		if m != nil {
			n += messageSize(m)
		}
	}
	for _, id := range cp.ClientCalls {
		n += 16 + int64(len(id))
	}
	for id := range cp.Attempts {
		n += 32 + int64(len(id))
	}
	if p := cp.Pending; p != nil {
		n += 128 + strs(p.InterruptID, p.ToolCallID)
		if d := p.Decision; d != nil {
			n += 64 + int64(len(d.Reason)+len(d.Args)+len(d.Answer))
		}
	}
	return n
}

func messageSize(m agui.Message) int64 {
	switch m := m.(type) {
	case *agui.UserMessage:
		return strs(m.ID, m.Name, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + contentSize(m.Content) + anySize(m.Metadata)
	case *agui.AssistantMessage:
		n := strs(m.ID, m.Content, m.Name, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + anySize(m.Metadata)
		for _, c := range m.ToolCalls {
			n += 64 + strs(c.ID, c.Function.Name, c.Function.Arguments, c.EncryptedValue, c.EncryptedValueType) + anySize(c.Metadata)
		}
		return n
	case *agui.ToolMessage:
		return strs(m.ID, m.ToolCallID, m.Error, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + contentSize(m.Content) + anySize(m.Metadata)
	case *agui.SystemMessage:
		return strs(m.ID, m.Content, m.Name, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + anySize(m.Metadata)
	case *agui.DeveloperMessage:
		return strs(m.ID, m.Content, m.Name, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + anySize(m.Metadata)
	case *agui.ActivityMessage:
		return strs(m.ID, m.ActivityType, m.SubagentRunID) + anySize(m.Content) + anySize(m.Metadata)
	case *agui.ReasoningMessage:
		return strs(m.ID, m.Content, m.EncryptedValue, m.EncryptedValueType, m.SubagentRunID) + anySize(m.Metadata)
	}
	return 0
}

func contentSize(c agui.Content) int64 {
	n := int64(len(c.Text))
	for _, p := range c.Parts {
		n += 64 + int64(len(p.Text))
		if p.Source != nil {
			n += strs(p.Source.Value, p.Source.MimeType)
		}
		n += anySize(p.Metadata)
	}
	return n
}

func strs(ss ...string) int64 {
	var n int64
	for _, s := range ss {
		n += int64(len(s))
	}
	return n
}

// anySize estimates a JSON-like value: strings by length, containers by
// their elements plus 16 bytes each, anything else 16 bytes.
func anySize(v any) int64 {
	switch v := v.(type) {
	case nil:
		return 0
	case string:
		return int64(len(v))
	case map[string]any:
		var n int64
		for k, x := range v {
			n += 16 + int64(len(k)) + anySize(x)
		}
		return n
	case []any:
		var n int64
		for _, x := range v {
			n += 16 + anySize(x)
		}
		return n
	}
	return 16
}
