package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/transcripts"
	"github.com/agui-go/agui/loop"
)

// ErrUnavailable: Redis could not be reached or refused a command. The
// error a [Store] method returns wraps it and the client's error; its
// message names neither addresses nor credentials, since a run reports it
// to its client (as a CHECKPOINT_ERROR).
var ErrUnavailable = errors.New("redisstore: redis unavailable")

// Store is a [loop.Store] on Redis: one hash per thread, holding the
// checkpoint (encoded with [loop.MarshalCheckpoint]) and its version. It is
// safe for concurrent use, from any number of processes sharing one Redis.
//
// A versioned Save is one Lua script, atomic in Redis, so of several
// processes saving over one version exactly one wins: that is how the
// loop's claim on a thread, and its lease, work across processes. The
// lease itself is the checkpoint's LeaseUntil, a time of Redis's clock
// (TIME, on the node holding the thread: see [Store.Now]), so replicas
// whose clocks disagree still exclude each other.
type Store struct {
	client redis.UniversalClient
	cfg    config
	cache  *transcripts.Cache
}

// New returns a [Store] on client: a [*redis.Client], [*redis.ClusterClient],
// a Sentinel failover client or a [*redis.Ring] (any [redis.UniversalClient]).
// The Store does not close the client.
//
// Every call passes its ctx to the client and fails at once when ctx is
// already done. For a deadline to cut short a command Redis is slow to
// answer, the client needs ContextTimeoutEnabled (go-redis otherwise
// bounds it by its ReadTimeout and WriteTimeout only).
func New(client redis.UniversalClient, opts ...Option) (*Store, error) {
	if client == nil {
		return nil, errors.New("redisstore: nil client")
	}
	cfg := defaults()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return &Store{client: client, cfg: cfg, cache: transcripts.New(cfg.cacheBytes)}, nil
}

// Key returns the Redis key of a thread's checkpoint: the prefix, then
// the thread id in braces, a Cluster hash tag that keeps every key of one
// thread in one slot.
func (s *Store) Key(threadID string) string { return s.cfg.prefix + "{" + threadID + "}" }

// saveScript is the versioned write. KEYS[1] is the thread's hash;
// ARGV: expected version, the checkpoint without its messages (encoded
// with [loop.MarshalCheckpoint]), expiry in milliseconds (0: none), the
// lease's end in Unix milliseconds of Redis's clock (0: none), which is
// added to the expiry as far as it is ahead, what the thread list reads
// ([Store.Threads]: owner, message count and status), kept (the
// messages of the stored transcript the caller's starts with), then the
// transcript's messages from kept on, each in its AG-UI JSON. Message i
// is the hash's field "m<i>": the script writes the fields from kept on
// and deletes those past the new count, so an append costs what it adds.
// It returns {-1} when the stored version is not the expected one (a
// missing hash has version 0), {-2} when the hash holds fewer than kept
// messages (the caller sends them all again), else {new version, Redis's
// clock in microseconds (the thread's activity), archived (0 or 1), the
// previous owner (false for none)}.
//
// The new version is the stored one plus one, or Redis's clock in
// microseconds when that is later: a thread deleted or expired and
// created again starts past every version of its earlier life (each of
// which was at most the clock of its save, as no two saves of a key run
// within one microsecond), so a writer still holding one cannot
// overwrite the new thread (no ABA), and no key outlives its thread to
// remember a counter. Redis's clock going back by more than the time
// between a thread's end and its re-creation would break this.
//
// A hash of the earlier layout (the whole checkpoint in field "cp") holds
// no message fields: a save over it writes the transcript whole and
// deletes "cp". An earlier release finds no "cp" in a hash this one wrote
// and reports the thread missing, never a transcript without its
// messages.
var saveScript = redis.NewScript(`
local cur = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if cur ~= tonumber(ARGV[1]) then
  return {-1}
end
local kept = tonumber(ARGV[8])
local had = 0
if redis.call('HEXISTS', KEYS[1], 'd') == 1 then
  had = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
end
if kept > had then
  return {-2}
end
if redis.replicate_commands then
  redis.replicate_commands()
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local v = now
if v <= cur then
  v = cur + 1
end
local owner = redis.call('HGET', KEYS[1], 'o')
local f = {}
for i = 9, #ARGV do
  f[#f + 1] = 'm' .. (kept + i - 9)
  f[#f + 1] = ARGV[i]
  if #f >= 1000 or i == #ARGV then
    redis.call('HSET', KEYS[1], unpack(f))
    f = {}
  end
end
local n = tonumber(ARGV[6])
for i = n, had - 1, 500 do
  for j = i, math.min(i + 499, had - 1) do
    f[#f + 1] = 'm' .. j
  end
  redis.call('HDEL', KEYS[1], unpack(f))
  f = {}
end
redis.call('HDEL', KEYS[1], 'cp')
local u = string.format('%.0f', now)
redis.call('HSET', KEYS[1], 'v', string.format('%.0f', v), 'd', ARGV[2], 'o', ARGV[5], 'n', ARGV[6], 's', ARGV[7], 'l', ARGV[4], 'u', u)
redis.call('HSETNX', KEYS[1], 'c', u)
local ttl = tonumber(ARGV[3])
local lease = tonumber(ARGV[4])
if ttl > 0 and lease > 0 then
  local ms = math.floor(now / 1000)
  if lease > ms then
    ttl = ttl + lease - ms
  end
end
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('PERSIST', KEYS[1])
end
local archived = 0
if redis.call('HGET', KEYS[1], 'a') == '1' then
  archived = 1
end
return {v, now, archived, owner}
`)

// loadScript reads the thread's hash KEYS[1]: false when there is none,
// else {version, mode, checkpoint, message count, messages…}. Mode "m":
// the checkpoint without its messages, then messages 0, 1, …; "k": the
// same without the messages, the version being ARGV[1], the one the
// caller holds decoded; "o": a hash of the earlier layout, the whole
// checkpoint in one field.
var loadScript = redis.NewScript(`
local h = redis.call('HMGET', KEYS[1], 'v', 'd', 'n', 'cp')
if not h[1] then
  return false
end
if not h[2] then
  return {h[1], 'o', h[4], '0'}
end
local n = tonumber(h[3] or '0')
if h[1] == ARGV[1] then
  return {h[1], 'k', h[2], h[3] or '0'}
end
local out = {h[1], 'm', h[2], h[3] or '0'}
for i = 0, n - 1, 1000 do
  local f = {}
  for j = i, math.min(i + 999, n - 1) do
    f[#f + 1] = 'm' .. j
  end
  local vals = redis.call('HMGET', KEYS[1], unpack(f))
  for k = 1, #f do
    out[#out + 1] = vals[k]
  end
end
return out
`)

// Load implements [loop.Store]: one script reads the checkpoint and its
// messages, or the checkpoint alone when the Store holds the stored
// version's transcript ([WithCacheBytes]).
func (s *Store) Load(ctx context.Context, threadID string) (*loop.Checkpoint, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	t := s.cache.Get(threadID)
	have := "0"
	if t != nil {
		have = strconv.FormatInt(t.Version, 10)
	}
	vals, err := loadScript.Run(ctx, s.client, []string{s.Key(threadID)}, have).Slice()
	switch {
	case errors.Is(err, redis.Nil):
		s.cache.Drop(threadID)
		return nil, 0, loop.ErrNotFound
	case err != nil:
		return nil, 0, s.fail(ctx, "load", err)
	}
	bad := func(what string) error {
		s.cache.Drop(threadID)
		return fmt.Errorf("%w: thread hash holds no valid %s", loop.ErrCheckpointFormat, what)
	}
	if len(vals) < 4 {
		return nil, 0, bad("checkpoint")
	}
	str := func(i int) string { x, _ := vals[i].(string); return x }
	v, err := strconv.ParseInt(str(0), 10, 64)
	if err != nil {
		return nil, 0, bad("version")
	}
	n, err := strconv.Atoi(str(3))
	if err != nil {
		return nil, 0, bad("message count")
	}
	cp, err := loop.UnmarshalCheckpoint([]byte(str(2)))
	if err != nil {
		s.cache.Drop(threadID)
		return nil, 0, err
	}
	switch str(1) {
	case "o": // the earlier layout: the whole checkpoint in one field
		return cp, v, nil
	case "k":
		if t == nil || t.Version != v || len(t.Msgs) != n {
			return nil, 0, bad("transcript for the cached version")
		}
		cp.Messages = t.Messages()
		return cp, v, nil
	}
	msgs := vals[4:]
	if len(msgs) != n {
		return nil, 0, bad("transcript")
	}
	var size int64
	if n > 0 {
		cp.Messages = make([]agui.Message, n)
	}
	for i, raw := range msgs {
		data, ok := raw.(string)
		if !ok {
			return nil, 0, bad(fmt.Sprintf("message %d", i))
		}
		if cp.Messages[i], err = agui.DecodeMessage([]byte(data)); err != nil {
			s.cache.Drop(threadID)
			return nil, 0, fmt.Errorf("%w: message %d: %w", loop.ErrCheckpointFormat, i, err)
		}
		size += int64(len(data))
	}
	s.cache.Put(threadID, &transcripts.Transcript{Version: v, Msgs: slices.Clip(slices.Clone(cp.Messages)), Size: size})
	return cp, v, nil
}

// Save implements [loop.Store]: the checkpoint without its messages, the
// messages past kept, and the new version are written by one script if
// the stored version is expect, so a turn sends Redis the messages it
// added and not the transcript. An idle checkpoint expires after
// [WithIdleTTL], one awaiting approval after [WithAwaitingTTL], and a
// running one after its lease plus [WithIdleTTL] (so a thread whose holder
// died goes too), the lease read by Redis's clock.
func (s *Store) Save(ctx context.Context, cp *loop.Checkpoint, expect int64, kept int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if expect == 0 || kept < 0 || kept > len(cp.Messages) {
		kept = 0
	}
	bare := *cp
	bare.Messages = nil
	doc, err := loop.MarshalCheckpoint(&bare)
	if err != nil {
		return 0, err
	}
	var lease int64
	if cp.Status == loop.StatusRunning && !cp.LeaseUntil.IsZero() {
		lease = cp.LeaseUntil.UnixMilli()
	}
	args := []any{expect, doc, s.expiry(cp).Milliseconds(), lease, cp.Owner, len(cp.Messages), string(cp.Status)}
	var sent int64 // the bytes of the messages sent
	run := func(kept int) ([]any, error) {
		a := append(slices.Clip(args), kept)
		sent = 0
		for i, m := range cp.Messages[kept:] {
			if m == nil {
				return nil, fmt.Errorf("redisstore: message %d is nil", kept+i)
			}
			b, err := json.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("redisstore: message %d: %w", kept+i, err)
			}
			a = append(a, b)
			sent += int64(len(b))
		}
		res, err := saveScript.Run(ctx, s.client, []string{s.Key(cp.ThreadID)}, a...).Slice()
		if err != nil {
			return nil, s.fail(ctx, "save", err)
		}
		return res, nil
	}
	res, err := run(kept)
	if err == nil && kept > 0 && len(res) == 1 && res[0] == int64(-2) {
		// Redis holds fewer messages than kept: send them all.
		kept = 0
		res, err = run(0)
	}
	if err != nil {
		s.cache.Drop(cp.ThreadID)
		return 0, err
	}
	v, _ := res[0].(int64)
	if v == -1 {
		s.cache.Drop(cp.ThreadID)
		return 0, loop.ErrConflict
	}
	if len(res) != 4 {
		s.cache.Drop(cp.ThreadID)
		return 0, s.fail(ctx, "save", fmt.Errorf("save script answered %d values", len(res)))
	}
	// The Store knows the new version's transcript when it knew the
	// messages kept (as stored, whatever cp holds) or sent them all.
	switch t := s.cache.Get(cp.ThreadID); {
	case kept == 0:
		s.cache.Put(cp.ThreadID, &transcripts.Transcript{Version: v, Msgs: slices.Clip(slices.Clone(cp.Messages)), Size: sent})
	case t != nil && t.Version == expect && len(t.Msgs) == kept:
		msgs := slices.Clip(append(slices.Clip(t.Msgs), cp.Messages[kept:]...))
		s.cache.Put(cp.ThreadID, &transcripts.Transcript{Version: v, Msgs: msgs, Size: t.Size + sent})
	default:
		s.cache.Drop(cp.ThreadID)
	}
	u, _ := res[1].(int64)
	archived, _ := res[2].(int64)
	if prev, ok := res[3].(string); ok && prev != cp.Owner {
		if err := s.unindex(ctx, prev, cp.ThreadID); err != nil {
			return 0, err
		}
	}
	// The checkpoint is written: a failure to list it is reported as the
	// save's, and the thread is listed again at its next save.
	if err := s.index(ctx, cp.Owner, cp.ThreadID, u, archived == 1); err != nil {
		return 0, err
	}
	return v, nil
}

// expiry is how long a saved checkpoint lives unless saved again, not
// counting a running one's lease, which the save script adds; 0 is
// forever.
func (s *Store) expiry(cp *loop.Checkpoint) time.Duration {
	if cp.Status == loop.StatusAwaitingApproval {
		return s.cfg.awaitingTTL
	}
	return s.cfg.idleTTL
}

// nowScript reads Redis's clock on the node that holds KEYS[1].
var nowScript = redis.NewScript(`return redis.call('TIME')`)

// Now implements [loop.Store]: Redis's clock (TIME), read on the node
// that holds the thread's key, the one its saves run on.
func (s *Store) Now(ctx context.Context, threadID string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	t, err := nowScript.Run(ctx, s.client, []string{s.Key(threadID)}).Int64Slice()
	if err != nil {
		return time.Time{}, s.fail(ctx, "now", err)
	}
	if len(t) != 2 {
		return time.Time{}, s.fail(ctx, "now", fmt.Errorf("TIME answered %d values", len(t)))
	}
	return time.Unix(t[0], t[1]*1000), nil
}

// deleteScript deletes the thread's hash KEYS[1] and returns its owner
// (false for none).
var deleteScript = redis.NewScript(`
local owner = redis.call('HGET', KEYS[1], 'o')
redis.call('DEL', KEYS[1])
return owner
`)

// Delete implements [loop.Store]: the thread's hash, then its entry in
// its owner's lists.
func (s *Store) Delete(ctx context.Context, threadID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.cache.Drop(threadID)
	owner, err := deleteScript.Run(ctx, s.client, []string{s.Key(threadID)}).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return nil
	case err != nil:
		return s.fail(ctx, "delete", err)
	}
	return s.unindex(ctx, owner, threadID)
}

// fail wraps a client error: the context's error when ctx ended (or its
// deadline passed), ErrUnavailable otherwise.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return &opError{op: op, kind: ctx.Err(), err: err}
	}
	// The connection's deadline is ctx's, and may fire just before ctx
	// itself reports it.
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return &opError{op: op, kind: context.DeadlineExceeded, err: err}
	}
	return &opError{op: op, kind: ErrUnavailable, err: err}
}

// opError is a failed call: its message is the operation and kind only;
// errors.Is finds kind and the client's error.
type opError struct {
	op   string
	kind error
	err  error
}

func (e *opError) Error() string {
	if e.kind == ErrUnavailable {
		return "redisstore: " + e.op + ": redis unavailable"
	}
	return "redisstore: " + e.op + ": " + e.kind.Error()
}
func (e *opError) Unwrap() []error { return []error{e.kind, e.err} }
