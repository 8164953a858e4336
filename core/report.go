package core

import (
	"sync"

	"github.com/agui-go/agui"
)

// report is what the terminal event carries besides the outcome: the run's
// result and the tokens it spent.
type report struct {
	mu     sync.Mutex
	result any
	usage  []agui.TokenUsage
}

// SetResult sets the run's result, which RUN_FINISHED carries for a
// success outcome (a cancelled or interrupted run has none). nil, the
// default, omits it. The last call wins.
func (rc *RunContext[S]) SetResult(v any) {
	rc.report.mu.Lock()
	defer rc.report.mu.Unlock()
	rc.report.result = v
}

// AddUsage records tokens spent, subagents' included; the terminal event
// (RUN_FINISHED or RUN_ERROR) reports the total. Usage with the same
// provider and model is summed into one entry; a count no call reported
// stays absent rather than 0.
func (rc *RunContext[S]) AddUsage(usage ...agui.TokenUsage) {
	rc.report.mu.Lock()
	defer rc.report.mu.Unlock()
	for _, u := range usage {
		rc.report.usage = addUsage(rc.report.usage, u)
	}
}

func addUsage(list []agui.TokenUsage, u agui.TokenUsage) []agui.TokenUsage {
	for i := range list {
		t := &list[i]
		if t.Provider == u.Provider && t.Model == u.Model {
			t.InputTokens = sumTokens(t.InputTokens, u.InputTokens)
			t.OutputTokens = sumTokens(t.OutputTokens, u.OutputTokens)
			t.TotalTokens = sumTokens(t.TotalTokens, u.TotalTokens)
			t.ReasoningTokens = sumTokens(t.ReasoningTokens, u.ReasoningTokens)
			t.CachedInputTokens = sumTokens(t.CachedInputTokens, u.CachedInputTokens)
			t.CacheWriteInputTokens = sumTokens(t.CacheWriteInputTokens, u.CacheWriteInputTokens)
			return list
		}
	}
	return append(list, agui.TokenUsage{
		Provider:              u.Provider,
		Model:                 u.Model,
		InputTokens:           sumTokens(nil, u.InputTokens),
		OutputTokens:          sumTokens(nil, u.OutputTokens),
		TotalTokens:           sumTokens(nil, u.TotalTokens),
		ReasoningTokens:       sumTokens(nil, u.ReasoningTokens),
		CachedInputTokens:     sumTokens(nil, u.CachedInputTokens),
		CacheWriteInputTokens: sumTokens(nil, u.CacheWriteInputTokens),
	})
}

// sumTokens adds two optional counts into a fresh pointer, so the caller's
// values are never aliased; absent plus absent stays absent.
func sumTokens(a, b *int64) *int64 {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		return new(int64(*b))
	case b == nil:
		return new(int64(*a))
	}
	return new(int64(*a + *b))
}

// finished returns the result and usage for the terminal event.
func (rp *report) finished() (any, []agui.TokenUsage) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.result, rp.usage
}
