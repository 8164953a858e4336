package redisstore

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/loop"
)

// listKey returns the key of owner's list of threads, archived or not: a
// sorted set of thread ids scored by their last activity in microseconds
// of Redis's clock. Both lists of an owner share the hash tag {o:owner},
// so one script moves a thread between them on Redis Cluster; a thread's
// hash (prefix + "{") never collides with them (prefix + "threads:").
func (s *Store) listKey(owner string, archived bool) string {
	k := s.cfg.prefix + "threads:{o:" + owner + "}"
	if archived {
		return k + ":archived"
	}
	return k + ":live"
}

// indexScript puts ARGV[2] in the list KEYS[1] at score ARGV[1] unless it
// is there at a later one, and takes it out of KEYS[2] (the owner's other
// list). With ARGV[3] > 0 it drops entries older than that score (threads
// that expired long ago) and lets the list expire ARGV[4] ms after its
// last write; otherwise the list is kept forever, as its threads may be.
var indexScript = redis.NewScript(`
redis.call('ZADD', KEYS[1], 'GT', ARGV[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
if tonumber(ARGV[3]) > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  redis.call('PERSIST', KEYS[1])
end
return 1
`)

// listLife is how long after its last save a thread may still be kept
// (its longest TTL, plus an hour for a lease), 0 when some thread is kept
// forever: past it, a list entry is stale.
func (s *Store) listLife() time.Duration {
	if s.cfg.idleTTL == 0 || s.cfg.awaitingTTL == 0 {
		return 0
	}
	return max(s.cfg.idleTTL, s.cfg.awaitingTTL) + time.Hour
}

// index lists thread id in owner's list (archived or not) at activity u.
func (s *Store) index(ctx context.Context, owner, id string, u int64, archived bool) error {
	var cutoff, life int64
	if l := s.listLife(); l > 0 {
		cutoff, life = u-l.Microseconds(), l.Milliseconds()
	}
	keys := []string{s.listKey(owner, archived), s.listKey(owner, !archived)}
	if err := indexScript.Run(ctx, s.client, keys, u, id, cutoff, life).Err(); err != nil {
		return s.fail(ctx, "list", err)
	}
	return nil
}

// unindex takes thread id out of owner's lists.
func (s *Store) unindex(ctx context.Context, owner, id string) error {
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRem(ctx, s.listKey(owner, false), id)
		p.ZRem(ctx, s.listKey(owner, true), id)
		return nil
	})
	if err != nil {
		return s.fail(ctx, "list", err)
	}
	return nil
}

// summaryFields are the thread hash's fields a list entry reads, in the
// order [summaryOf] takes them.
var summaryFields = []string{"o", "a", "t", "c", "u", "n", "s", "l"}

// summaryOf decodes the values of summaryFields; ok is false for a hash
// that is gone (or was never listed).
func summaryOf(id string, vals []any, now time.Time) (sum loop.ThreadSummary, owner string, ok bool) {
	str := func(i int) string { v, _ := vals[i].(string); return v }
	num := func(i int) int64 { n, _ := strconv.ParseInt(str(i), 10, 64); return n }
	if len(vals) != len(summaryFields) || vals[0] == nil || vals[4] == nil {
		return sum, "", false
	}
	status := loop.Status(str(6))
	sum = loop.ThreadSummary{
		ID:               id,
		Title:            str(2),
		Archived:         str(1) == "1",
		Created:          time.UnixMicro(num(3)),
		Updated:          time.UnixMicro(num(4)),
		Messages:         int(num(5)),
		RunActive:        status == loop.StatusRunning && now.Before(time.UnixMilli(num(7))),
		InterruptPending: status == loop.StatusAwaitingApproval || status == loop.StatusAwaitingClient,
	}
	return sum, str(0), true
}

// Threads implements [loop.ThreadStore]: it reads the owner's list (a
// sorted set) a page at a time and each listed thread's summary fields
// (one pipelined HMGET a page), so a call costs the page, not the
// owner's threads. Entries of threads that expired or changed owner are
// dropped as it meets them.
func (s *Store) Threads(ctx context.Context, owner string, q loop.ThreadQuery) (loop.ThreadPage, error) {
	if err := ctx.Err(); err != nil {
		return loop.ThreadPage{}, err
	}
	cur, err := decodeCursor(q.Cursor)
	if err != nil {
		return loop.ThreadPage{}, err
	}
	key := s.listKey(owner, q.Archived)
	now, err := s.Now(ctx, "o:"+owner)
	if err != nil {
		return loop.ThreadPage{}, err
	}
	n := q.PageSize()
	maxScore := "+inf"
	if cur != nil {
		maxScore = strconv.FormatInt(cur.score, 10)
	}
	type entry struct {
		sum   loop.ThreadSummary
		score int64
	}
	var (
		found []entry
		stale []string
		moved []loop.ThreadSummary
	)
	for offset := int64(0); len(found) <= n; {
		batch := int64(n + 1 - len(found) + 8)
		zs, err := s.client.ZRevRangeByScoreWithScores(ctx, key, &redis.ZRangeBy{Max: maxScore, Min: "-inf", Offset: offset, Count: batch}).Result()
		if err != nil {
			return loop.ThreadPage{}, s.fail(ctx, "list", err)
		}
		offset += int64(len(zs))
		var cands []redis.Z
		for _, z := range zs {
			id, _ := z.Member.(string)
			if cur != nil && int64(z.Score) == cur.score && id >= cur.id {
				continue
			}
			cands = append(cands, z)
		}
		cmds := make([]*redis.SliceCmd, len(cands))
		if len(cands) > 0 {
			_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i, z := range cands {
					cmds[i] = p.HMGet(ctx, s.Key(z.Member.(string)), summaryFields...)
				}
				return nil
			})
			if err != nil {
				return loop.ThreadPage{}, s.fail(ctx, "list", err)
			}
		}
		for i, z := range cands {
			id := z.Member.(string)
			sum, o, ok := summaryOf(id, cmds[i].Val(), now)
			switch {
			case !ok || o != owner:
				stale = append(stale, id)
			case sum.Archived != q.Archived:
				// Archived while saved: its save listed it where it was.
				// It moves once the pages are read, which go by offset.
				moved = append(moved, sum)
			case len(found) <= n:
				found = append(found, entry{sum, int64(z.Score)})
			}
		}
		if int64(len(zs)) < batch {
			break
		}
	}
	for _, sum := range moved {
		if err := s.index(ctx, owner, sum.ID, sum.Updated.UnixMicro(), sum.Archived); err != nil {
			return loop.ThreadPage{}, err
		}
	}
	if len(stale) > 0 {
		// A thread created again since is listed again by its next save.
		if err := s.client.ZRem(ctx, key, stale).Err(); err != nil {
			return loop.ThreadPage{}, s.fail(ctx, "list", err)
		}
	}
	var page loop.ThreadPage
	if len(found) > n {
		found = found[:n]
		last := found[n-1]
		page.Next = encodeCursor(last.score, last.sum.ID)
	}
	page.Threads = make([]loop.ThreadSummary, len(found))
	for i, e := range found {
		page.Threads[i] = e.sum
	}
	return page, nil
}

// updateScript sets the title (ARGV[1] "1": to ARGV[2]) and the archived
// flag (ARGV[3] "1": to ARGV[4]) of the thread's hash KEYS[1], leaving its
// version and expiry as they are, and returns the summary fields and
// Redis's clock in Unix microseconds; false for no thread.
var updateScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or not redis.call('HGET', KEYS[1], 'u') then
  return false
end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 't', ARGV[2])
end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'a', ARGV[4])
end
local t = redis.call('TIME')
local r = redis.call('HMGET', KEYS[1], 'o', 'a', 't', 'c', 'u', 'n', 's', 'l')
table.insert(r, string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2])))
return r
`)

// UpdateThread implements [loop.ThreadStore]: one script on the thread's
// hash, then, when the archived flag changed, a move between its owner's
// lists.
func (s *Store) UpdateThread(ctx context.Context, threadID string, u loop.ThreadUpdate) (loop.ThreadSummary, error) {
	if err := ctx.Err(); err != nil {
		return loop.ThreadSummary{}, err
	}
	flag := func(set bool) string {
		if set {
			return "1"
		}
		return "0"
	}
	var title string
	if u.Title != nil {
		title = *u.Title
	}
	archived := u.Archived != nil && *u.Archived
	vals, err := updateScript.Run(ctx, s.client, []string{s.Key(threadID)},
		flag(u.Title != nil), title, flag(u.Archived != nil), flag(archived)).Slice()
	switch {
	case err == redis.Nil:
		return loop.ThreadSummary{}, loop.ErrNotFound
	case err != nil:
		return loop.ThreadSummary{}, s.fail(ctx, "update", err)
	case len(vals) != len(summaryFields)+1:
		return loop.ThreadSummary{}, s.fail(ctx, "update", fmt.Errorf("update script answered %d values", len(vals)))
	}
	nowS, _ := vals[len(summaryFields)].(string)
	us, _ := strconv.ParseInt(nowS, 10, 64)
	sum, owner, ok := summaryOf(threadID, vals[:len(summaryFields)], time.UnixMicro(us))
	if !ok {
		return loop.ThreadSummary{}, loop.ErrNotFound
	}
	if u.Archived != nil {
		if err := s.index(ctx, owner, threadID, sum.Updated.UnixMicro(), sum.Archived); err != nil {
			return loop.ThreadSummary{}, err
		}
	}
	return sum, nil
}

// cursor is the last entry of a page: its list score and thread id.
type cursor struct {
	score int64
	id    string
}

func encodeCursor(score int64, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(score, 10) + "." + id))
}

func decodeCursor(c string) (*cursor, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, loop.ErrBadCursor
	}
	sc, id, ok := strings.Cut(string(b), ".")
	n, err := strconv.ParseInt(sc, 10, 64)
	if !ok || err != nil || n < 0 {
		return nil, loop.ErrBadCursor
	}
	return &cursor{score: n, id: id}, nil
}
