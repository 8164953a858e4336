package loop

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Threads implements [ThreadStore]: the store keeps each owner's threads
// in the order of their last save (a save moves its thread to the head),
// so a page walks the owner's newest threads, skipping the ones before
// the cursor and those of the other archived state: a first page costs
// its own threads, a later one the threads before it too, and never
// another owner's.
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
	n := q.PageSize()
	// The page's entries and one more, which says there is a next page.
	var found []*memoryEntry
	if o := s.owned[owner]; o != nil {
		for el := o.Front(); el != nil && len(found) <= n; {
			e := el.Value.(*memoryEntry)
			el = el.Next() // before live may remove e
			if (after > 0 && e.version >= after) || e.archived != q.Archived || s.live(e.cp.ThreadID, now) == nil {
				continue
			}
			found = append(found, e)
		}
	}
	var page ThreadPage
	if len(found) > n {
		found = found[:n]
		page.Next = encodeMemoryCursor(found[n-1].version)
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

// A memory cursor is the version of a page's last entry: versions grow
// with every save of the store, so the entries after it in an owner's
// list are those with lesser versions.
func encodeMemoryCursor(version int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("v" + strconv.FormatInt(version, 10)))
}

func decodeMemoryCursor(c string) (int64, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, ErrBadCursor
	}
	vs, ok := strings.CutPrefix(string(b), "v")
	v, err := strconv.ParseInt(vs, 10, 64)
	if !ok || err != nil || v <= 0 {
		return 0, ErrBadCursor
	}
	return v, nil
}
