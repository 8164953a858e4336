package resume

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// MemoryLog is the in-process [Log]: runs live in this process's memory,
// so a rejoin must reach the same process. It is bounded, counting
// everything it keeps of a run (its ids, principal and owner as well as its
// events): each run keeps at most a number of events and of bytes, all
// runs together at most a number of bytes, and a finished run is deleted
// after the retention time, as is a run whose owner stopped renewing its
// lease that long ago. Expired runs are deleted on time by a timer the log
// owns (it runs only while there is something to expire; [MemoryLog.Close]
// stops it), not on the next request, so a stranger's runs never pin
// memory past the retention time.
//
// One run's use cannot end another's: each live run is guaranteed a share
// of the budget ([WithMemoryRunShare]) from its Begin on, and Begin refuses
// a new run ([ErrLogFull], before its stream) when the shares of the live
// runs leave no room for one more. When room is short, finished runs are
// deleted oldest first, then runs whose owner is gone; a live run is never
// cut: only a run past its share can be refused further entries, except its
// terminal one.
//
// A MemoryLog is safe for concurrent use.
type MemoryLog struct {
	cfg memoryConfig

	mu   sync.Mutex
	runs map[string]*memRun
	// live are the runs not sealed, which the sweeper and eviction walk:
	// not the sealed ones, which expire in order (sealed).
	live    map[string]*memRun
	threads map[threadKey]string // thread and principal -> active run id
	sealed  []sealedRun          // in seal order, which is expiry order
	bytes   int64                // counted bytes of all runs
	slack   int64                // unused shares of the live runs

	// The sweeper: one time.AfterFunc at a time, armed for the next
	// expiry; tick counts a callback that may run, for Close to join.
	timer  *time.Timer
	due    time.Time
	armed  bool
	closed bool
	tick   sync.WaitGroup
}

// threadKey names the active run of a thread for one principal.
type threadKey struct{ thread, principal string }

type memRun struct {
	meta RunMeta
	gen  uint64
	// chunks hold the entries' bytes, copied in one after the other; a
	// chunk is never moved or written over. entries are the entries in
	// segments, each twice as large as the last up to memSegmentMax, so
	// that a long run's log grows without moving what it holds, and a
	// read hands out a part of one segment. n counts the entries.
	chunks   [][]byte
	entries  [][]Entry
	n        int
	bytes    int64 // its ids and events, as counted
	sealed   bool
	stopped  bool
	leaseEnd time.Time
	lastRead time.Time // zero: never read
	readers  int       // readers waiting in Read
	// changed is closed and replaced when entries are added or the run is
	// sealed while readers wait in Read, waking them.
	changed chan struct{}
}

type sealedRun struct {
	id  string
	gen uint64
	at  time.Time
}

// Defaults of the [MemoryLog] options.
const (
	DefaultMemoryRunEvents = 100_000
	DefaultMemoryRunBytes  = 16 << 20
	DefaultMemoryRunShare  = 256 << 10
	DefaultMemoryBytes     = 64 << 20
	DefaultMemoryRetention = 10 * time.Minute
)

// memEntryOverhead is what an entry costs besides its data, and
// memRunOverhead what a run costs besides its ids, counted against the
// byte limits.
const (
	memEntryOverhead = 48
	memRunOverhead   = 256
)

type memoryConfig struct {
	runEvents int
	runBytes  int64
	runShare  int64
	bytes     int64
	retention time.Duration
}

// MemoryLogOption configures a [MemoryLog].
type MemoryLogOption func(*memoryConfig)

// WithMemoryRunEvents limits the events kept per run (default 100,000,
// [DefaultMemoryRunEvents]).
func WithMemoryRunEvents(n int) MemoryLogOption { return func(c *memoryConfig) { c.runEvents = n } }

// WithMemoryRunBytes limits the bytes kept per run, its ids included
// (default 16 MiB, [DefaultMemoryRunBytes]).
func WithMemoryRunBytes(n int64) MemoryLogOption { return func(c *memoryConfig) { c.runBytes = n } }

// WithMemoryRunShare sets the bytes each live run is guaranteed from its
// Begin on (default 256 KiB, [DefaultMemoryRunShare]), so that other runs,
// however many or large, cannot make it fail: Begin refuses a new run when
// the live runs' shares would exceed [WithMemoryBytes]. A run may grow past
// its share, up to [WithMemoryRunBytes], into room nobody holds. The
// budget divided by the share is how many runs can be live at once (256
// with the defaults). It must not exceed the per-run or the total limit.
func WithMemoryRunShare(n int64) MemoryLogOption { return func(c *memoryConfig) { c.runShare = n } }

// WithMemoryBytes limits the bytes kept for all runs (default 64 MiB,
// [DefaultMemoryBytes]).
func WithMemoryBytes(n int64) MemoryLogOption { return func(c *memoryConfig) { c.bytes = n } }

// WithMemoryRetention sets how long a sealed run stays readable, and how
// long a run whose owner stopped renewing its lease is kept (default 10
// minutes, [DefaultMemoryRetention]).
func WithMemoryRetention(d time.Duration) MemoryLogOption {
	return func(c *memoryConfig) { c.retention = d }
}

// NewMemoryLog returns an empty [MemoryLog]. It fails when a limit is not
// positive, or the run share exceeds a byte limit.
func NewMemoryLog(opts ...MemoryLogOption) (*MemoryLog, error) {
	c := memoryConfig{
		runEvents: DefaultMemoryRunEvents,
		runBytes:  DefaultMemoryRunBytes,
		runShare:  DefaultMemoryRunShare,
		bytes:     DefaultMemoryBytes,
		retention: DefaultMemoryRetention,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.runEvents <= 0 || c.runBytes <= 0 || c.bytes <= 0 || c.retention <= 0 || c.runShare <= 0 {
		return nil, errors.New("resume: MemoryLog limits must be positive")
	}
	if c.runShare > c.runBytes || c.runShare > c.bytes {
		return nil, errors.New("resume: WithMemoryRunShare must not exceed WithMemoryRunBytes or WithMemoryBytes")
	}
	return &MemoryLog{cfg: c, runs: map[string]*memRun{}, live: map[string]*memRun{}, threads: map[threadKey]string{}}, nil
}

// Close stops the log's sweeper and waits for a sweep in progress. The log
// keeps answering after Close, deleting expired runs only when it is
// called. A log that is dropped without Close holds no goroutine: its
// sweeper is a timer, and runs only when a run expires.
func (m *MemoryLog) Close() error {
	m.mu.Lock()
	m.closed = true
	if m.armed && m.timer.Stop() {
		m.tick.Done()
	}
	m.armed = false
	m.mu.Unlock()
	m.tick.Wait()
	return nil
}

// MemoryStats is what a [MemoryLog] holds.
type MemoryStats struct {
	Runs     int   // runs kept, live and sealed
	Live     int   // runs not sealed
	Events   int   // events kept
	Bytes    int64 // bytes counted against the limits: ids and events
	Reserved int64 // the unused part of the live runs' shares
}

// Stats returns what the log holds now. It deletes nothing: expired runs
// are deleted by the log's sweeper when they expire.
func (m *MemoryLog) Stats() MemoryStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := MemoryStats{Runs: len(m.runs), Bytes: m.bytes, Reserved: m.slack}
	for _, r := range m.runs {
		if !r.sealed {
			s.Live++
		}
		s.Events += r.n
	}
	return s
}

var _ Log = (*MemoryLog)(nil)

// Begin implements [Log].
func (m *MemoryLog) Begin(_ context.Context, meta RunMeta, ttl time.Duration) (Lease, RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweepSealed(now)
	if r, ok := m.runs[meta.RunID]; ok {
		return Lease{}, r.status(now), agui.NewError(CodeRunExists, "run "+meta.RunID+" exists")
	}
	cost := metaBytes(meta)
	if cost > m.cfg.runBytes {
		return Lease{}, RunStatus{}, agui.NewError(CodeLogFull, "the run's ids are over the run's byte limit")
	}
	// The run's share is held from now on, so that no later run can take
	// the room it was promised.
	hold := max(cost, m.cfg.runShare)
	if over := m.bytes + m.slack + hold - m.cfg.bytes; over > 0 && !m.evict(over, nil) {
		return Lease{}, RunStatus{}, agui.NewError(CodeLogFull, "the run log is full")
	}
	r := &memRun{meta: meta, gen: 1, bytes: cost, leaseEnd: now.Add(ttl), changed: make(chan struct{})}
	m.runs[meta.RunID] = r
	m.live[meta.RunID] = r
	m.bytes += cost
	m.slack += hold - cost
	if meta.ThreadID != "" {
		m.threads[threadKey{meta.ThreadID, meta.Principal}] = meta.RunID
	}
	m.arm(r.leaseEnd.Add(m.cfg.retention))
	return Lease{RunID: meta.RunID, Owner: meta.Owner, Gen: 1}, r.status(now), nil
}

// Append implements [Log].
func (m *MemoryLog) Append(_ context.Context, l Lease, entries []Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.leased(l)
	if err != nil {
		return err
	}
	last := uint64(r.n)
	for len(entries) > 0 && entries[0].Seq <= last {
		// A retried batch: what is already stored was stored by this
		// lease, as only it may append.
		entries = entries[1:]
	}
	if len(entries) == 0 {
		return nil
	}
	var add int64
	for i, e := range entries {
		if e.Seq != last+uint64(i)+1 {
			return agui.NewError(CodeSeqConflict, "entries must follow the run's last entry")
		}
		if e.Terminal && i != len(entries)-1 {
			return agui.NewError(CodeSeqConflict, "a terminal entry must be the last")
		}
		add += int64(len(e.Data)) + memEntryOverhead
	}
	terminal := entries[len(entries)-1].Terminal
	// Within its share a run takes room it holds already; past it, room
	// nobody holds, deleting finished runs for it if need be.
	slack := m.slackOf(r.bytes)
	newSlack := m.slackOf(r.bytes + add)
	grow := add - (slack - newSlack)
	over := r.n+len(entries) > m.cfg.runEvents || r.bytes+add > m.cfg.runBytes
	if !over && grow > 0 {
		if need := m.bytes + m.slack + grow - m.cfg.bytes; need > 0 {
			over = !m.evict(need, r)
		}
	}
	if over && !(terminal && len(entries) == 1) {
		// The terminal entry is always taken, so a run over its limits
		// can still end.
		return agui.NewError(CodeLogFull, "the run's log is full")
	}
	r.add(entries)
	r.bytes += add
	m.bytes += add
	m.slack += newSlack - slack
	if r.readers > 0 {
		r.wake()
	}
	return nil
}

// Renew implements [Log].
func (m *MemoryLog) Renew(_ context.Context, l Lease, ttl time.Duration) (RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.leased(l)
	if err != nil {
		return RunStatus{}, err
	}
	now := time.Now()
	r.leaseEnd = now.Add(ttl)
	return r.status(now), nil
}

// Seal implements [Log].
func (m *MemoryLog) Seal(_ context.Context, l Lease) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.leased(l)
	if err != nil {
		return err
	}
	r.sealed = true
	delete(m.live, l.RunID)
	m.slack -= m.slackOf(r.bytes) // a finished run's share is free again
	if k := (threadKey{r.meta.ThreadID, r.meta.Principal}); m.threads[k] == l.RunID {
		delete(m.threads, k)
	}
	now := time.Now()
	m.sealed = append(m.sealed, sealedRun{id: l.RunID, gen: r.gen, at: now})
	m.arm(now.Add(m.cfg.retention))
	if r.readers > 0 {
		r.wake()
	}
	return nil
}

// Read implements [Log].
func (m *MemoryLog) Read(ctx context.Context, runID string, after uint64, max int, wait time.Duration) ([]Entry, RunStatus, error) {
	if max <= 0 {
		max = 1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var timer <-chan time.Time
	for {
		now := time.Now()
		m.sweepSealed(now)
		r, ok := m.runs[runID]
		if !ok {
			return nil, RunStatus{}, agui.NewError(CodeRunNotFound, "no run "+runID)
		}
		r.lastRead = now
		last := uint64(r.n)
		if after > last {
			return nil, r.status(now), agui.NewError(CodeCursorAhead, "the cursor is beyond the run's last event")
		}
		if after < last || r.sealed || wait <= 0 {
			// The entries' bytes are never modified once appended, so
			// the caller may read them after the lock is released.
			return r.read(after, max), r.status(now), nil
		}
		if timer == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timer = t.C
		}
		changed := r.changed
		r.readers++
		m.mu.Unlock()
		var done bool
		select {
		case <-changed:
		case <-timer:
			done = true
		case <-ctx.Done():
			done = true
		}
		m.mu.Lock()
		r.readers--
		if done {
			if err := ctx.Err(); err != nil {
				return nil, RunStatus{}, err
			}
			wait = 0 // answer with what there is
		}
	}
}

// Status implements [Log].
func (m *MemoryLog) Status(_ context.Context, runID string) (RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweepSealed(now)
	r, ok := m.runs[runID]
	if !ok {
		return RunStatus{}, agui.NewError(CodeRunNotFound, "no run "+runID)
	}
	return r.status(now), nil
}

// Stop implements [Log].
func (m *MemoryLog) Stop(_ context.Context, runID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepSealed(time.Now())
	r, ok := m.runs[runID]
	if !ok {
		return agui.NewError(CodeRunNotFound, "no run "+runID)
	}
	if !r.sealed {
		r.stopped = true
	}
	return nil
}

// Takeover implements [Log].
func (m *MemoryLog) Takeover(_ context.Context, runID, owner string, ttl time.Duration) (Lease, RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweepSealed(now)
	r, ok := m.runs[runID]
	switch {
	case !ok:
		return Lease{}, RunStatus{}, agui.NewError(CodeRunNotFound, "no run "+runID)
	case r.sealed:
		return Lease{}, r.status(now), agui.NewError(CodeFenced, "the run is sealed")
	case now.Before(r.leaseEnd):
		return Lease{}, r.status(now), agui.NewError(CodeLeaseHeld, "the run's owner is alive")
	}
	r.gen++
	r.meta.Owner = owner
	r.leaseEnd = now.Add(ttl)
	return Lease{RunID: runID, Owner: owner, Gen: r.gen}, r.status(now), nil
}

// ActiveRun implements [Log].
func (m *MemoryLog) ActiveRun(_ context.Context, threadID, principal string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepSealed(time.Now())
	return m.threads[threadKey{threadID, principal}], nil
}

// DeleteThread implements [Log].
func (m *MemoryLog) DeleteThread(_ context.Context, threadID, principal string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, r := range m.runs {
		if r.meta.ThreadID != threadID || r.meta.Principal != principal {
			continue
		}
		if !r.sealed {
			m.dropLive(id, r)
			continue
		}
		m.bytes -= r.bytes
		delete(m.runs, id)
		// Out of the expiry order too, so that it cannot expire a run
		// begun later under its id.
		m.sealed = slices.DeleteFunc(m.sealed, func(s sealedRun) bool { return s.id == id })
	}
	return nil
}

// leased returns the run l may write.
func (m *MemoryLog) leased(l Lease) (*memRun, error) {
	r, ok := m.runs[l.RunID]
	switch {
	case !ok:
		return nil, agui.NewError(CodeRunNotFound, "no run "+l.RunID)
	case r.gen != l.Gen || r.sealed:
		return nil, agui.NewError(CodeFenced, "the lease of run "+l.RunID+" is no longer valid")
	}
	return r, nil
}

// metaBytes is what a run's log costs before its first event.
func metaBytes(m RunMeta) int64 {
	return int64(len(m.RunID)+len(m.ThreadID)+len(m.Principal)+len(m.Owner)) + memRunOverhead
}

// slackOf is the unused part of the share of a live run of n bytes.
func (m *MemoryLog) slackOf(n int64) int64 { return max(0, m.cfg.runShare-n) }

// sweepSealed deletes the sealed runs whose retention has passed; the
// log's calls make it, as it costs nothing when none has.
func (m *MemoryLog) sweepSealed(now time.Time) {
	n := 0
	for n < len(m.sealed) && now.Sub(m.sealed[n].at) >= m.cfg.retention {
		m.drop(m.sealed[n])
		n++
	}
	m.dropHead(n)
}

// sweep is the sweeper's: it deletes the sealed runs whose retention has
// passed, and the live runs whose lease ended a retention ago (their owner
// is gone). It returns when the next of the remaining runs expires (zero
// for none).
func (m *MemoryLog) sweep(now time.Time) (next time.Time) {
	m.sweepSealed(now)
	if len(m.sealed) > 0 {
		next = m.sealed[0].at.Add(m.cfg.retention)
	}
	for id, r := range m.live {
		at := r.leaseEnd.Add(m.cfg.retention)
		if !now.Before(at) {
			m.dropLive(id, r)
			continue
		}
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// arm makes the sweeper run at at, unless it runs earlier already.
func (m *MemoryLog) arm(at time.Time) {
	if m.closed || (m.armed && !at.Before(m.due)) {
		return
	}
	if m.armed && !m.timer.Stop() {
		// The callback is on its way; it sweeps and arms for what is
		// left, this run included.
		return
	}
	if !m.armed {
		m.tick.Add(1)
	}
	m.armed, m.due = true, at
	m.timer = time.AfterFunc(time.Until(at), m.sweepOnTime)
}

// sweepOnTime is the sweeper's callback.
func (m *MemoryLog) sweepOnTime() {
	defer m.tick.Done()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || !m.armed {
		return
	}
	m.armed = false
	if next := m.sweep(time.Now()); !next.IsZero() {
		m.arm(next)
	}
}

// evict deletes sealed runs, oldest first, then live runs whose lease has
// ended (their owner is gone), until need bytes are free, and reports
// whether they are. It never deletes keep.
func (m *MemoryLog) evict(need int64, keep *memRun) bool {
	var freed int64
	n := 0
	for n < len(m.sealed) && freed < need {
		if r, ok := m.runs[m.sealed[n].id]; ok && r.gen == m.sealed[n].gen {
			freed += r.bytes
		}
		m.drop(m.sealed[n])
		n++
	}
	m.dropHead(n)
	if freed < need {
		now := time.Now()
		for id, r := range m.live {
			if freed >= need {
				break
			}
			if r != keep && !now.Before(r.leaseEnd) {
				freed += r.bytes + m.slackOf(r.bytes)
				m.dropLive(id, r)
			}
		}
	}
	return freed >= need
}

func (m *MemoryLog) drop(s sealedRun) {
	if r, ok := m.runs[s.id]; ok && r.gen == s.gen && r.sealed {
		m.bytes -= r.bytes
		delete(m.runs, s.id)
	}
}

// dropLive deletes a run that was not sealed; its readers find it gone.
func (m *MemoryLog) dropLive(id string, r *memRun) {
	m.bytes -= r.bytes
	m.slack -= m.slackOf(r.bytes)
	delete(m.runs, id)
	delete(m.live, id)
	if k := (threadKey{r.meta.ThreadID, r.meta.Principal}); m.threads[k] == id {
		delete(m.threads, k)
	}
	if r.readers > 0 {
		r.wake()
	}
}

func (m *MemoryLog) dropHead(n int) {
	if n == 0 {
		return
	}
	clear(m.sealed[:n])
	m.sealed = m.sealed[n:]
	if len(m.sealed) == 0 {
		m.sealed = nil // let the backing array go
	}
}

func (r *memRun) wake() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Sizes of a run's chunks of entry bytes (a larger entry has a chunk of
// its own) and of its segments of entries (see memRun).
const (
	memChunk      = 16 << 10
	memSegmentMin = 16
	memSegmentMax = 1024
)

// add copies es into the run.
func (r *memRun) add(es []Entry) {
	for _, e := range es {
		k := len(r.chunks) - 1
		if k < 0 || cap(r.chunks[k])-len(r.chunks[k]) < len(e.Data) {
			r.chunks = append(r.chunks, make([]byte, 0, max(memChunk, len(e.Data))))
			k++
		}
		c := r.chunks[k]
		start := len(c)
		c = append(c, e.Data...)
		r.chunks[k] = c
		e.Data = c[start:len(c):len(c)]

		j := len(r.entries) - 1
		if j < 0 || len(r.entries[j]) == cap(r.entries[j]) {
			size := memSegmentMin
			if j >= 0 {
				size = min(2*cap(r.entries[j]), memSegmentMax)
			}
			r.entries = append(r.entries, make([]Entry, 0, size))
			j++
		}
		r.entries[j] = append(r.entries[j], e)
		r.n++
	}
}

// read returns up to max entries after the one numbered after, from one
// segment: a reader asks again for the rest.
func (r *memRun) read(after uint64, max int) []Entry {
	i := int(after)
	for _, seg := range r.entries {
		if i < len(seg) {
			end := min(len(seg), i+max)
			return seg[i:end:end]
		}
		i -= len(seg)
	}
	return nil
}

func (r *memRun) status(now time.Time) RunStatus {
	s := RunStatus{
		RunMeta:      r.meta,
		Gen:          r.gen,
		Last:         uint64(r.n),
		Sealed:       r.sealed,
		Stopped:      r.stopped,
		LeaseExpired: !r.sealed && !now.Before(r.leaseEnd),
		SinceRead:    -1,
	}
	switch {
	case r.readers > 0:
		s.SinceRead = 0
	case !r.lastRead.IsZero():
		s.SinceRead = now.Sub(r.lastRead)
	}
	return s
}
