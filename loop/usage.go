package loop

import "github.com/agui-go/agui/core"

// Usage counts the tokens a run spent. Zero means none reported.
type Usage struct {
	InputTokens       int64
	OutputTokens      int64
	ReasoningTokens   int64
	CachedInputTokens int64
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:       u.InputTokens + v.InputTokens,
		OutputTokens:      u.OutputTokens + v.OutputTokens,
		ReasoningTokens:   u.ReasoningTokens + v.ReasoningTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens,
	}
}

// IsZero reports whether no tokens were reported.
func (u Usage) IsZero() bool { return u == Usage{} }

// Token returns u as the AG-UI token usage carried on RUN_FINISHED.
func (u Usage) Token() core.TokenUsage {
	return core.TokenUsage{
		InputTokens:       core.Tokens(u.InputTokens),
		OutputTokens:      core.Tokens(u.OutputTokens),
		TotalTokens:       core.Tokens(u.InputTokens + u.OutputTokens),
		ReasoningTokens:   core.Tokens(u.ReasoningTokens),
		CachedInputTokens: core.Tokens(u.CachedInputTokens),
	}
}
