package redislog

import (
	"context"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/resume"
)

// Log is a [resume.Log] on Redis: each run is a stream of its events, with
// explicit ids 0-<seq> so that Redis itself refuses a duplicate or
// out-of-order append, and a hash of its state. Every write is a Lua
// script that checks the lease generation, so a stale owner cannot
// append after another replica took the run over. Expiry is Redis's own:
// a running run's keys live [WithIdleTTL] past its last append or
// renewal, a sealed run's [WithRetention].
//
// Read uses XREAD BLOCK for at most [WithFollowWait] at a time, because a
// blocked command cannot be interrupted by cancelling its context; each
// waiting reader holds one connection of the client's pool while it
// waits, so size the pool (or pass a separate client with [WithReadClient])
// for the followers you expect. Set the client's ContextTimeoutEnabled:
// the Log then bounds a blocking read at [WithFollowWait] plus 1 s, so a Redis
// that goes silent ends its followers' streams (RUN_ERROR code
// STORE_UNAVAILABLE) that soon; without it go-redis waits 10 s past the
// block.
//
// A Log is safe for concurrent use; it does not own its clients.
type Log struct {
	c, rc redis.UniversalClient
	cfg   config
}

type config struct {
	prefix     string
	idle       time.Duration
	retention  time.Duration
	followWait time.Duration
	maxEvents  int
	read       redis.UniversalClient
}

// Option configures a [Log].
type Option func(*config)

// Defaults of the options.
const (
	DefaultPrefix     = "agui:run:"
	DefaultIdleTTL    = 10 * time.Minute
	DefaultRetention  = 10 * time.Minute
	DefaultFollowWait = time.Second
	DefaultMaxEvents  = 100_000
)

// WithPrefix sets the prefix of the log's keys (default "agui:run:",
// [DefaultPrefix]). Routes that share a Redis need distinct prefixes, as
// run ids are only unique per route.
func WithPrefix(p string) Option { return func(c *config) { c.prefix = p } }

// WithIdleTTL sets how long a running run's keys live without an append
// or a renewal (default 10 minutes, [DefaultIdleTTL]).
func WithIdleTTL(d time.Duration) Option { return func(c *config) { c.idle = d } }

// WithRetention sets how long a sealed run stays readable (default 10
// minutes, [DefaultRetention]).
func WithRetention(d time.Duration) Option { return func(c *config) { c.retention = d } }

// WithFollowWait bounds one blocking read (default 1 s,
// [DefaultFollowWait]); a reader also notices a cancelled context only
// between reads.
func WithFollowWait(d time.Duration) Option { return func(c *config) { c.followWait = d } }

// WithMaxEvents limits the events kept per run (default 100,000,
// [DefaultMaxEvents]); past it, only the terminal event is accepted.
func WithMaxEvents(n int) Option { return func(c *config) { c.maxEvents = n } }

// WithReadClient makes blocking reads use c (default: the [Log]'s client),
// so that waiting followers cannot take the connections appends need.
func WithReadClient(c redis.UniversalClient) Option { return func(cf *config) { cf.read = c } }

// New returns a [Log] on client c. It fails when c is nil or an option is
// out of range; it does not contact Redis.
func New(c redis.UniversalClient, opts ...Option) (*Log, error) {
	cfg := config{
		prefix:     DefaultPrefix,
		idle:       DefaultIdleTTL,
		retention:  DefaultRetention,
		followWait: DefaultFollowWait,
		maxEvents:  DefaultMaxEvents,
	}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	switch {
	case c == nil:
		return nil, errors.New("redislog: New needs a client")
	case cfg.idle < time.Millisecond || cfg.retention < time.Millisecond:
		return nil, errors.New("redislog: IdleTTL and Retention must be at least 1ms")
	case cfg.followWait < time.Millisecond:
		return nil, errors.New("redislog: FollowWait must be at least 1ms")
	case cfg.maxEvents <= 0:
		return nil, errors.New("redislog: MaxEvents must be positive")
	}
	rc := cfg.read
	if rc == nil {
		rc = c
	}
	return &Log{c: c, rc: rc, cfg: cfg}, nil
}

var _ resume.Log = (*Log)(nil)

// A run's keys share the hash tag {<runId>}, so that every script, which
// touches one run's keys only, runs in one Redis Cluster slot; the thread
// key has the thread's tag and is only ever touched alone.
func (l *Log) meta(run string) string   { return l.cfg.prefix + "{" + tag(run) + "}:meta" }
func (l *Log) stream(run string) string { return l.cfg.prefix + "{" + tag(run) + "}:log" }

// thread is the key of the active run of thread t for principal p: in the
// thread's slot, with the principal hex-encoded after the tag, so that no
// principal's run hides or replaces another's.
func (l *Log) thread(t, p string) string {
	return l.cfg.prefix + "thread:{" + tag(t) + "}:" + hex.EncodeToString([]byte(p))
}

// threadRuns is the key of the set of every run of thread t principal p
// began (running, sealed, or long gone), beside its pointer: what
// DeleteThread deletes.
func (l *Log) threadRuns(t, p string) string { return l.thread(t, p) + ":runs" }

// runsTTL is how long a thread's set of runs outlives its last begin or
// renewal: past it, every run it names has expired (a running one an idle
// TTL after its last renewal, a sealed one its retention after its end).
func (l *Log) runsTTL() time.Duration { return l.cfg.idle + l.cfg.retention }

// tag is id as a hash tag: itself, unless a brace would end the tag
// early (or an empty tag make Redis hash the whole key, putting a run's
// keys in different slots); then it is hex, marked by a leading "~", as is
// an id that starts with "~", so that no two ids share a tag.
func tag(id string) string {
	if id != "" && id[0] != '~' && !strings.ContainsAny(id, "{}") {
		return id
	}
	return "~" + hex.EncodeToString([]byte(id))
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// Begin implements [resume.Log].
func (l *Log) Begin(ctx context.Context, m resume.RunMeta, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	res, err := begin.Run(ctx, l.c, []string{l.meta(m.RunID)},
		m.ThreadID, m.Principal, m.Owner, ms(ttl), ms(l.cfg.idle)).Slice()
	if err != nil {
		return resume.Lease{}, resume.RunStatus{}, l.err(err)
	}
	st, err := parseStatus(m.RunID, res[1])
	if err != nil {
		return resume.Lease{}, resume.RunStatus{}, err
	}
	if res[0] == "exists" {
		return resume.Lease{}, st, agui.NewError(resume.CodeRunExists, "run "+m.RunID+" exists")
	}
	lease := resume.Lease{RunID: m.RunID, Owner: m.Owner, Gen: st.Gen}
	if m.ThreadID != "" {
		// The thread's key is in its own slot, so it is set on its own; a
		// pointer left without its run is ignored by ActiveRun.
		keys := []string{l.thread(m.ThreadID, m.Principal), l.threadRuns(m.ThreadID, m.Principal)}
		if err := beginThread.Run(ctx, l.c, keys, m.RunID, ms(l.cfg.idle), ms(l.runsTTL())).Err(); err != nil {
			return lease, st, l.err(err)
		}
	}
	return lease, st, nil
}

// Append implements [resume.Log].
func (l *Log) Append(ctx context.Context, lease resume.Lease, entries []resume.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	args := make([]any, 0, 4+2*len(entries))
	args = append(args, lease.Gen, entries[0].Seq, ms(l.cfg.idle), l.cfg.maxEvents)
	for i, e := range entries {
		if e.Seq != entries[0].Seq+uint64(i) || (e.Terminal && i != len(entries)-1) {
			return agui.NewError(resume.CodeSeqConflict, "entries must be contiguous and end at a terminal entry")
		}
		t := "0"
		if e.Terminal {
			t = "1"
		}
		args = append(args, e.Data, t)
	}
	err := appendEntries.Run(ctx, l.c, []string{l.meta(lease.RunID), l.stream(lease.RunID)}, args...).Err()
	return l.err(err)
}

// Renew implements [resume.Log].
func (l *Log) Renew(ctx context.Context, lease resume.Lease, ttl time.Duration) (resume.RunStatus, error) {
	st, err := l.status(renew.Run(ctx, l.c, []string{l.meta(lease.RunID), l.stream(lease.RunID)},
		lease.Gen, ms(ttl), ms(l.cfg.idle)), lease.RunID)
	if err != nil || st.ThreadID == "" {
		return st, err
	}
	keys := []string{l.thread(st.ThreadID, st.Principal), l.threadRuns(st.ThreadID, st.Principal)}
	return st, l.err(touchThread.Run(ctx, l.c, keys, lease.RunID, ms(l.cfg.idle), ms(l.runsTTL())).Err())
}

// Seal implements [resume.Log].
func (l *Log) Seal(ctx context.Context, lease resume.Lease) error {
	tp, err := seal.Run(ctx, l.c, []string{l.meta(lease.RunID), l.stream(lease.RunID)},
		lease.Gen, ms(l.cfg.retention)).StringSlice()
	if err != nil || len(tp) != 2 || tp[0] == "" {
		return l.err(err)
	}
	return l.err(clearThread.Run(ctx, l.c, []string{l.thread(tp[0], tp[1])}, lease.RunID).Err())
}

// Read implements [resume.Log].
func (l *Log) Read(ctx context.Context, run string, after uint64, max int, wait time.Duration) ([]resume.Entry, resume.RunStatus, error) {
	if max <= 0 {
		max = 1
	}
	st, err := l.status(stat.Run(ctx, l.c, []string{l.meta(run)}, "1"), run)
	if err != nil {
		return nil, st, err
	}
	if after > st.Last {
		return nil, st, agui.NewError(resume.CodeCursorAhead, "the cursor is beyond the run's last event")
	}
	start := "0-" + strconv.FormatUint(after, 10)
	if after < st.Last || st.Sealed || wait <= 0 {
		msgs, err := l.c.XRangeN(ctx, l.stream(run), "("+start, "+", int64(max)).Result()
		if err != nil {
			return nil, st, l.err(err)
		}
		es, err := toEntries(msgs)
		return es, st, err
	}
	// go-redis gives a blocking command 10 s beyond its block to answer;
	// a Redis that went silent must end its followers sooner than that.
	block := min(wait, l.cfg.followWait)
	rctx, cancel := context.WithTimeout(ctx, block+blockSlack)
	defer cancel()
	res, err := l.rc.XRead(rctx, &redis.XReadArgs{
		Streams: []string{l.stream(run), start},
		Count:   int64(max),
		Block:   block,
	}).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, st, nil
	case err != nil:
		return nil, st, l.err(err)
	}
	var es []resume.Entry
	for _, s := range res {
		more, err := toEntries(s.Messages)
		if err != nil {
			return nil, st, err
		}
		es = append(es, more...)
	}
	return es, st, nil
}

// Status implements [resume.Log].
func (l *Log) Status(ctx context.Context, run string) (resume.RunStatus, error) {
	return l.status(stat.Run(ctx, l.c, []string{l.meta(run)}, "0"), run)
}

// Stop implements [resume.Log].
func (l *Log) Stop(ctx context.Context, run string) error {
	return l.err(stop.Run(ctx, l.c, []string{l.meta(run)}).Err())
}

// Takeover implements [resume.Log].
func (l *Log) Takeover(ctx context.Context, run, owner string, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	st, err := l.status(takeover.Run(ctx, l.c, []string{l.meta(run)}, owner, ms(ttl)), run)
	if err != nil {
		return resume.Lease{}, st, err
	}
	return resume.Lease{RunID: run, Owner: owner, Gen: st.Gen}, st, nil
}

// ActiveRun implements [resume.Log].
func (l *Log) ActiveRun(ctx context.Context, threadID, principal string) (string, error) {
	id, err := l.c.Get(ctx, l.thread(threadID, principal)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", l.err(err)
	}
	// The pointer and its run are in different slots, written one after
	// the other: the run decides.
	st, err := l.Status(ctx, id)
	switch {
	case errors.Is(err, resume.ErrRunNotFound):
		return "", nil
	case err != nil:
		return "", err
	case st.Sealed || st.ThreadID != threadID || st.Principal != principal:
		return "", nil
	}
	return id, nil
}

// DeleteThread implements [resume.Log]: the runs the thread's set names
// (and its pointer, should the set have missed one), each with a script
// on its own keys that deletes it only if it is still a run of that
// thread and principal (a run id may be reused once its run expired),
// then the set and the pointer.
func (l *Log) DeleteThread(ctx context.Context, threadID, principal string) error {
	ptr, set := l.thread(threadID, principal), l.threadRuns(threadID, principal)
	runs, err := l.c.SMembers(ctx, set).Result()
	if err != nil {
		return l.err(err)
	}
	if id, err := l.c.Get(ctx, ptr).Result(); err == nil {
		runs = append(runs, id)
	} else if !errors.Is(err, redis.Nil) {
		return l.err(err)
	}
	for _, id := range runs {
		if err := deleteRun.Run(ctx, l.c, []string{l.meta(id), l.stream(id)}, threadID, principal).Err(); err != nil {
			return l.err(err)
		}
	}
	return l.err(l.c.Del(ctx, set, ptr).Err())
}

// status reads a script's status answer.
func (l *Log) status(cmd *redis.Cmd, run string) (resume.RunStatus, error) {
	v, err := cmd.Result()
	if errors.Is(err, redis.Nil) {
		return resume.RunStatus{}, agui.NewError(resume.CodeRunNotFound, "no run "+run)
	}
	if err != nil {
		return resume.RunStatus{}, l.err(err)
	}
	return parseStatus(run, v)
}

// err maps a script's refusal to the resume.Log errors; anything else
// is a failure to reach the store.
func (l *Log) err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for prefix, code := range map[string]agui.Code{
		"NOTFOUND":    resume.CodeRunNotFound,
		"FENCED":      resume.CodeFenced,
		"SEQCONFLICT": resume.CodeSeqConflict,
		"LOGFULL":     resume.CodeLogFull,
		"LEASEHELD":   resume.CodeLeaseHeld,
		// Redis at maxmemory with the noeviction policy refuses writes.
		"OOM": resume.CodeLogFull,
	} {
		if strings.HasPrefix(msg, prefix) {
			return &agui.Error{Code: code, Message: "redislog: " + msg, Err: err}
		}
	}
	return &agui.Error{Code: resume.CodeStoreUnavailable, Message: "redislog: " + msg, Err: err}
}

// blockSlack is how long past its block a blocking read may take to be
// answered before Redis counts as unreachable.
const blockSlack = time.Second

func parseStatus(run string, v any) (resume.RunStatus, error) {
	a, ok := v.([]any)
	if !ok || len(a) != 10 {
		return resume.RunStatus{}, agui.NewError(resume.CodeRunNotFound, "no run "+run)
	}
	s := make([]string, len(a))
	for i, x := range a {
		s[i], _ = x.(string)
	}
	num := func(i int) int64 { n, _ := strconv.ParseInt(s[i], 10, 64); return n }
	now := num(9)
	st := resume.RunStatus{
		RunMeta:   resume.RunMeta{RunID: run, ThreadID: s[0], Principal: s[1], Owner: s[2]},
		Gen:       uint64(num(3)),
		Last:      uint64(num(4)),
		Sealed:    s[5] == "1",
		Stopped:   s[6] == "1",
		SinceRead: -1,
	}
	st.LeaseExpired = !st.Sealed && num(7) <= now
	if r := num(8); r > 0 {
		st.SinceRead = time.Duration(max(0, now-r)) * time.Millisecond
	}
	return st, nil
}

func toEntries(msgs []redis.XMessage) ([]resume.Entry, error) {
	out := make([]resume.Entry, len(msgs))
	for i, m := range msgs {
		_, seq, ok := strings.Cut(m.ID, "-")
		n, err := strconv.ParseUint(seq, 10, 64)
		d, _ := m.Values["d"].(string)
		if !ok || err != nil {
			return nil, agui.NewError(resume.CodeStoreUnavailable, "redislog: a stream entry has a foreign id "+m.ID)
		}
		out[i] = resume.Entry{Seq: n, Data: []byte(d), Terminal: m.Values["t"] == "1"}
	}
	return out, nil
}
