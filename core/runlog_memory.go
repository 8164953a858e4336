package core

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// MemoryLog is the in-process [RunLog]: runs live in this process's memory,
// so a rejoin must reach the same process. It is bounded: each run keeps
// at most a number of events and of bytes, all runs together at most a
// number of bytes, and a sealed run is deleted after the retention time
// (expired runs are swept by the log's own calls; it starts no goroutine).
// When room is short, sealed runs are deleted oldest first; a live run is
// never cut: a new run is refused ([ErrLogFull]) and a live run over its
// limits is refused further entries except its terminal one.
//
// A MemoryLog is safe for concurrent use.
type MemoryLog struct {
	cfg memoryConfig

	mu      sync.Mutex
	runs    map[string]*memRun
	threads map[threadKey]string // thread and principal -> active run id
	sealed  []sealedRun          // in seal order, which is expiry order
	bytes   int64
}

// threadKey names the active run of a thread for one principal.
type threadKey struct{ thread, principal string }

type memRun struct {
	meta     RunMeta
	gen      uint64
	entries  []LogEntry
	bytes    int64
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
	DefaultMemoryBytes     = 64 << 20
	DefaultMemoryRetention = 10 * time.Minute
)

// memEntryOverhead is what an entry costs besides its data, counted
// against the byte limits.
const memEntryOverhead = 48

type memoryConfig struct {
	runEvents int
	runBytes  int64
	bytes     int64
	retention time.Duration
}

// MemoryOption configures a [MemoryLog].
type MemoryOption func(*memoryConfig)

// WithMemoryRunEvents limits the events kept per run (default 100,000,
// [DefaultMemoryRunEvents]).
func WithMemoryRunEvents(n int) MemoryOption { return func(c *memoryConfig) { c.runEvents = n } }

// WithMemoryRunBytes limits the bytes kept per run (default 16 MiB,
// [DefaultMemoryRunBytes]).
func WithMemoryRunBytes(n int64) MemoryOption { return func(c *memoryConfig) { c.runBytes = n } }

// WithMemoryBytes limits the bytes kept for all runs (default 64 MiB,
// [DefaultMemoryBytes]).
func WithMemoryBytes(n int64) MemoryOption { return func(c *memoryConfig) { c.bytes = n } }

// WithMemoryRetention sets how long a sealed run stays readable (default
// 10 minutes, [DefaultMemoryRetention]).
func WithMemoryRetention(d time.Duration) MemoryOption {
	return func(c *memoryConfig) { c.retention = d }
}

// NewMemoryLog returns an empty [MemoryLog]. It fails when a limit is not
// positive.
func NewMemoryLog(opts ...MemoryOption) (*MemoryLog, error) {
	c := memoryConfig{
		runEvents: DefaultMemoryRunEvents,
		runBytes:  DefaultMemoryRunBytes,
		bytes:     DefaultMemoryBytes,
		retention: DefaultMemoryRetention,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.runEvents <= 0 || c.runBytes <= 0 || c.bytes <= 0 || c.retention <= 0 {
		return nil, errors.New("core: MemoryLog limits must be positive")
	}
	return &MemoryLog{cfg: c, runs: map[string]*memRun{}, threads: map[threadKey]string{}}, nil
}

// MemoryStats is what a [MemoryLog] holds.
type MemoryStats struct {
	Runs   int   // runs kept, live and sealed
	Live   int   // runs not sealed
	Events int   // events kept
	Bytes  int64 // bytes counted against the limits
}

// Stats returns what the log holds, after deleting expired runs.
func (m *MemoryLog) Stats() MemoryStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(time.Now())
	s := MemoryStats{Runs: len(m.runs), Bytes: m.bytes}
	for _, r := range m.runs {
		if !r.sealed {
			s.Live++
		}
		s.Events += len(r.entries)
	}
	return s
}

var _ RunLog = (*MemoryLog)(nil)

// Begin implements [RunLog].
func (m *MemoryLog) Begin(_ context.Context, meta RunMeta, ttl time.Duration) (Lease, RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweep(now)
	if r, ok := m.runs[meta.RunID]; ok {
		return Lease{}, r.status(now), agui.NewError(CodeRunExists, "run "+meta.RunID+" exists")
	}
	if m.bytes >= m.cfg.bytes && !m.evict(m.bytes-m.cfg.bytes+1) {
		return Lease{}, RunStatus{}, agui.NewError(CodeLogFull, "the run log is full")
	}
	r := &memRun{meta: meta, gen: 1, leaseEnd: now.Add(ttl), changed: make(chan struct{})}
	m.runs[meta.RunID] = r
	if meta.ThreadID != "" {
		m.threads[threadKey{meta.ThreadID, meta.Principal}] = meta.RunID
	}
	return Lease{RunID: meta.RunID, Owner: meta.Owner, Gen: 1}, r.status(now), nil
}

// Append implements [RunLog].
func (m *MemoryLog) Append(_ context.Context, l Lease, entries []LogEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.leased(l)
	if err != nil {
		return err
	}
	last := uint64(len(r.entries))
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
	over := len(r.entries)+len(entries) > m.cfg.runEvents || r.bytes+add > m.cfg.runBytes ||
		(m.bytes+add > m.cfg.bytes && !m.evict(m.bytes+add-m.cfg.bytes))
	if over && !(terminal && len(entries) == 1) {
		// The terminal entry is always taken, so a run over its limits
		// can still end.
		return agui.NewError(CodeLogFull, "the run's log is full")
	}
	r.entries = append(r.entries, entries...)
	r.bytes += add
	m.bytes += add
	if r.readers > 0 {
		r.wake()
	}
	return nil
}

// Renew implements [RunLog].
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

// Seal implements [RunLog].
func (m *MemoryLog) Seal(_ context.Context, l Lease) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.leased(l)
	if err != nil {
		return err
	}
	r.sealed = true
	if k := (threadKey{r.meta.ThreadID, r.meta.Principal}); m.threads[k] == l.RunID {
		delete(m.threads, k)
	}
	m.sealed = append(m.sealed, sealedRun{id: l.RunID, gen: r.gen, at: time.Now()})
	if r.readers > 0 {
		r.wake()
	}
	return nil
}

// Read implements [RunLog].
func (m *MemoryLog) Read(ctx context.Context, runID string, after uint64, max int, wait time.Duration) ([]LogEntry, RunStatus, error) {
	if max <= 0 {
		max = 1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var timer <-chan time.Time
	for {
		now := time.Now()
		m.sweep(now)
		r, ok := m.runs[runID]
		if !ok {
			return nil, RunStatus{}, agui.NewError(CodeRunNotFound, "no run "+runID)
		}
		r.lastRead = now
		last := uint64(len(r.entries))
		if after > last {
			return nil, r.status(now), agui.NewError(CodeCursorAhead, "the cursor is beyond the run's last event")
		}
		if after < last || r.sealed || wait <= 0 {
			end := min(last, after+uint64(max))
			// The entries are never modified once appended, so the
			// caller may read them after the lock is released.
			return r.entries[after:end:end], r.status(now), nil
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

// Status implements [RunLog].
func (m *MemoryLog) Status(_ context.Context, runID string) (RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweep(now)
	r, ok := m.runs[runID]
	if !ok {
		return RunStatus{}, agui.NewError(CodeRunNotFound, "no run "+runID)
	}
	return r.status(now), nil
}

// Stop implements [RunLog].
func (m *MemoryLog) Stop(_ context.Context, runID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(time.Now())
	r, ok := m.runs[runID]
	if !ok {
		return agui.NewError(CodeRunNotFound, "no run "+runID)
	}
	if !r.sealed {
		r.stopped = true
	}
	return nil
}

// Takeover implements [RunLog].
func (m *MemoryLog) Takeover(_ context.Context, runID, owner string, ttl time.Duration) (Lease, RunStatus, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.sweep(now)
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

// ActiveRun implements [RunLog].
func (m *MemoryLog) ActiveRun(_ context.Context, threadID, principal string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(time.Now())
	return m.threads[threadKey{threadID, principal}], nil
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

// sweep deletes the sealed runs whose retention has passed.
func (m *MemoryLog) sweep(now time.Time) {
	n := 0
	for n < len(m.sealed) && now.Sub(m.sealed[n].at) >= m.cfg.retention {
		m.drop(m.sealed[n])
		n++
	}
	m.dropHead(n)
}

// evict deletes sealed runs, oldest first, until need bytes are free, and
// reports whether they are.
func (m *MemoryLog) evict(need int64) bool {
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
	return freed >= need
}

func (m *MemoryLog) drop(s sealedRun) {
	if r, ok := m.runs[s.id]; ok && r.gen == s.gen && r.sealed {
		m.bytes -= r.bytes
		delete(m.runs, s.id)
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

func (r *memRun) status(now time.Time) RunStatus {
	s := RunStatus{
		RunMeta:      r.meta,
		Gen:          r.gen,
		Last:         uint64(len(r.entries)),
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
