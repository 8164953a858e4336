package pglog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
)

// channel is the LISTEN/NOTIFY channel of every log: a notification's
// payload names its run (see notifier.key).
const channel = "agui_run_log"

// notifier wakes a Log's waiting readers when their run's appends
// commit. The first subscriber starts its listener, which holds one
// connection, listening, until stop: starting it for every wait would
// cost a connection for each, and a lone follower waits at every event.
// A listener that fails (its connection dropped) is replaced by the next
// subscriber; the readers waiting meanwhile fall back on their bounded
// wait, as do those of a stopped notifier. A notifier is safe for
// concurrent use.
type notifier struct {
	pool *pgxpool.Pool

	mu      sync.Mutex
	waiters map[string]map[*subscription]struct{}
	ln      *listener // nil: none running
	stopped bool
}

// listener is one listening connection's goroutine.
type listener struct {
	cancel context.CancelFunc
	ready  chan struct{} // closed once LISTEN is acknowledged, or the listener failed
	done   chan struct{} // closed when the goroutine has ended
}

// subscription is one waiting reader's: wake gets a value when its run's
// appends commit.
type subscription struct {
	nt   *notifier
	key  string
	wake chan struct{}
}

func newNotifier(pool *pgxpool.Pool) *notifier {
	return &notifier{pool: pool, waiters: map[string]map[*subscription]struct{}{}}
}

// key is the payload that names a run: route and run id, hashed when
// they would not fit NOTIFY's 8,000-byte payload.
func (nt *notifier) key(route, run string) string {
	k := route + "\x1f" + run
	if len(k) > 1000 {
		s := sha256.Sum256([]byte(k))
		return hex.EncodeToString(s[:])
	}
	return k
}

// subscribe registers a wait on key and returns once a listener is
// listening (or has failed, or ctx ended): a notification sent after
// subscribe returns reaches the subscription.
func (nt *notifier) subscribe(ctx context.Context, key string) *subscription {
	s := &subscription{nt: nt, key: key, wake: make(chan struct{}, 1)}
	nt.mu.Lock()
	m := nt.waiters[key]
	if m == nil {
		m = map[*subscription]struct{}{}
		nt.waiters[key] = m
	}
	m[s] = struct{}{}
	if nt.stopped {
		nt.mu.Unlock()
		return s
	}
	ln := nt.ln
	if ln == nil {
		lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		ln = &listener{cancel: cancel, ready: make(chan struct{}), done: make(chan struct{})}
		nt.ln = ln
		go nt.listen(lctx, ln) // joined by stop, or ends by itself when its connection fails
	}
	nt.mu.Unlock()
	select {
	case <-ln.ready:
	case <-ctx.Done():
	}
	return s
}

// close ends the subscription.
func (s *subscription) close() {
	nt := s.nt
	nt.mu.Lock()
	defer nt.mu.Unlock()
	m := nt.waiters[s.key]
	delete(m, s)
	if len(m) == 0 {
		delete(nt.waiters, s.key)
	}
}

// stop ends the listener, if one runs, and waits for it; no other starts.
func (nt *notifier) stop() {
	nt.mu.Lock()
	ln := nt.ln
	nt.ln, nt.stopped = nil, true
	nt.mu.Unlock()
	if ln != nil {
		ln.cancel()
		<-ln.done
	}
}

// listen holds one connection out of the pool (hijacked, so that a
// connection in LISTEN mode never serves another query) and wakes the
// subscribers of each notification's run until ctx ends or the
// connection fails.
func (nt *notifier) listen(ctx context.Context, ln *listener) {
	defer close(ln.done)
	readied := false
	defer func() {
		if !readied {
			close(ln.ready)
		}
		// A failed listener leaves its place to the next subscriber's.
		nt.mu.Lock()
		if nt.ln == ln {
			nt.ln = nil
		}
		nt.mu.Unlock()
	}()
	pc, err := nt.pool.Acquire(ctx)
	if err != nil {
		return
	}
	conn := pc.Hijack()
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return
	}
	close(ln.ready)
	readied = true
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		nt.mu.Lock()
		for s := range nt.waiters[n.Payload] {
			select {
			case s.wake <- struct{}{}:
			default:
			}
		}
		nt.mu.Unlock()
	}
}
