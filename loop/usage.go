package loop

import (
	"sync"

	"github.com/agui-go/agui"
)

// Usage counts the tokens a run spent; a plain value. Zero means none
// reported. InputTokens and OutputTokens are totals; ReasoningTokens is
// part of OutputTokens, and CachedInputTokens (read from the provider's
// prompt cache) and CacheWriteInputTokens (written to it) are disjoint
// parts of InputTokens.
type Usage struct {
	InputTokens           int64
	OutputTokens          int64
	ReasoningTokens       int64
	CachedInputTokens     int64
	CacheWriteInputTokens int64
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:           u.InputTokens + v.InputTokens,
		OutputTokens:          u.OutputTokens + v.OutputTokens,
		ReasoningTokens:       u.ReasoningTokens + v.ReasoningTokens,
		CachedInputTokens:     u.CachedInputTokens + v.CachedInputTokens,
		CacheWriteInputTokens: u.CacheWriteInputTokens + v.CacheWriteInputTokens,
	}
}

// IsZero reports whether no tokens were reported.
func (u Usage) IsZero() bool { return u == Usage{} }

// Token returns u as the AG-UI token usage carried on RUN_FINISHED. The
// reasoning and cached counts are left absent when zero, since most
// providers do not report them.
func (u Usage) Token() agui.TokenUsage {
	t := agui.TokenUsage{
		InputTokens:  new(int64(u.InputTokens)),
		OutputTokens: new(int64(u.OutputTokens)),
		TotalTokens:  new(int64(u.InputTokens + u.OutputTokens)),
	}
	if u.ReasoningTokens > 0 {
		t.ReasoningTokens = new(int64(u.ReasoningTokens))
	}
	if u.CachedInputTokens > 0 {
		t.CachedInputTokens = new(int64(u.CachedInputTokens))
	}
	if u.CacheWriteInputTokens > 0 {
		t.CacheWriteInputTokens = new(u.CacheWriteInputTokens)
	}
	return t
}

// usageBox collects the usage of delegated runs, which finish on tool
// goroutines. It is safe for concurrent use.
type usageBox struct {
	mu sync.Mutex
	u  Usage
}

func (b *usageBox) add(u Usage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.u = b.u.Add(u)
}

func (b *usageBox) total() Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.u
}
