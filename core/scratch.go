package core

import (
	"sync"

	"github.com/agui-go/agui"
)

// runScratch is what a run's stream and driver grow while streaming, kept
// by a Handler (in a sync.Pool) for its next run: the queue's two slices,
// the stock of reusable text deltas and the size check's buffer. Without
// it every run would grow them anew, and the collector would run that much
// more often.
type runScratch struct {
	queued, batch []item
	free, freed   []*agui.TextMessageContent
	size          agui.EventSizer
}

// adoptScratch gives the run, which reuses its deltas, what an earlier run
// of the same handler left in pool. Called before the agent starts.
func (d *Consumer) adoptScratch(pool *sync.Pool) {
	d.pool = pool
	sc, _ := pool.Get().(*runScratch)
	if sc == nil {
		return
	}
	d.sc = sc
	d.s.queued, d.s.free, d.s.size = sc.queued, sc.free, sc.size
	d.batch, d.freed = sc.batch, sc.freed
}

// releaseScratch hands the run's grown slices to the handler's next run.
// It is called once the agent has been joined and the run has ended, so no
// emit can queue or take a reusable delta any more (an emitter that
// outlives the agent finds the stream ended, under mu, and builds its
// event anew). Undelivered events are dropped, not reused.
func (d *Consumer) releaseScratch() {
	if pool := d.pool; pool != nil {
		if sc := d.collectScratch(); sc != nil {
			pool.Put(sc)
		}
	}
}

// collectScratch is releaseScratch without the pool: it returns the
// scratch to pass on, or nil when the run did not end cleanly.
func (d *Consumer) collectScratch() *runScratch {
	d.pool = nil
	if d.taking {
		return nil
	}
	s := d.s
	s.mu.Lock()
	if !s.ended {
		s.mu.Unlock()
		return nil
	}
	next, size := s.next, s.size
	s.next, s.size = nil, agui.EventSizer{}
	s.mu.Unlock()
	s.qmu.Lock()
	queued, free := s.queued, s.free
	s.queued, s.free = nil, nil
	s.qmu.Unlock()

	free = append(free, d.freed[:min(len(d.freed), max(0, maxFree-len(free)))]...)
	if next != nil && len(free) < maxFree {
		free = append(free, next)
	}
	clear(queued)
	clear(d.batch)
	clear(d.freed)
	sc := d.sc
	if sc == nil {
		sc = new(runScratch)
	}
	*sc = runScratch{queued: queued[:0], batch: d.batch[:0], free: free, freed: d.freed[:0], size: size}
	d.sc, d.batch, d.freed = nil, nil, nil
	return sc
}
