package loop

import (
	"cmp"
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Threads implements [ThreadStore]: it sorts the owner's threads, which
// the store indexes by owner, so a call costs the owner's thread count,
// never the store's.
func (s *MemoryStore) Threads(ctx context.Context, owner string, q ThreadQuery) (ThreadPage, error) {
	if err := ctx.Err(); err != nil {
		return ThreadPage{}, err
	}
	after, err := decodeMemoryCursor(q.Cursor)
	if err != nil {
		return ThreadPage{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var found []*memoryEntry
	for id, e := range s.owned[owner] {
		if s.live(id, now) == nil || e.archived != q.Archived {
			continue
		}
		if after != nil && !memoryBefore(e, after) {
			continue
		}
		found = append(found, e)
	}
	slices.SortFunc(found, func(a, b *memoryEntry) int {
		// By the wall clock, as cursors compare them.
		if c := cmp.Compare(b.saved.UnixNano(), a.saved.UnixNano()); c != 0 {
			return c
		}
		return cmp.Compare(b.cp.ThreadID, a.cp.ThreadID)
	})
	var page ThreadPage
	n := q.PageSize()
	if len(found) > n {
		found = found[:n]
		last := found[n-1]
		page.Next = encodeMemoryCursor(last.saved, last.cp.ThreadID)
	}
	page.Threads = make([]ThreadSummary, len(found))
	for i, e := range found {
		page.Threads[i] = e.summary(now)
	}
	return page, nil
}

// UpdateThread implements [ThreadStore].
func (s *MemoryStore) UpdateThread(ctx context.Context, threadID string, u ThreadUpdate) (ThreadSummary, error) {
	if err := ctx.Err(); err != nil {
		return ThreadSummary{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	e := s.live(threadID, now)
	if e == nil {
		return ThreadSummary{}, ErrNotFound
	}
	if u.Title != nil {
		e.title = *u.Title
	}
	if u.Archived != nil {
		e.archived = *u.Archived
	}
	return e.summary(now), nil
}

func (e *memoryEntry) summary(now time.Time) ThreadSummary {
	sum := ThreadSummary{Title: e.title, Created: e.created, Updated: e.saved, Archived: e.archived}
	summarize(&sum, &e.cp, now)
	return sum
}

// memoryCursor is the last entry of a page: the next page holds the
// entries after it in list order.
type memoryCursor struct {
	saved time.Time
	id    string
}

// memoryBefore reports whether e comes after c in list order (older
// activity first, then lesser id).
func memoryBefore(e *memoryEntry, c *memoryCursor) bool {
	if n, m := e.saved.UnixNano(), c.saved.UnixNano(); n != m {
		return n < m
	}
	return e.cp.ThreadID < c.id
}

func encodeMemoryCursor(saved time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(saved.UnixNano(), 10) + "." + id))
}

func decodeMemoryCursor(c string) (*memoryCursor, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, ErrBadCursor
	}
	ns, id, ok := strings.Cut(string(b), ".")
	n, err := strconv.ParseInt(ns, 10, 64)
	if !ok || err != nil {
		return nil, ErrBadCursor
	}
	return &memoryCursor{saved: time.Unix(0, n), id: id}, nil
}
