package loop

import (
	"context"
	"encoding/json"
)

// scope is what a running tool's context carries about its call, so that a
// delegation tool can open its subagent under the right parent and count
// its depth.
type scope struct {
	sink       sink
	line       lineage
	toolCallID string
	messageID  string
	thread     string
	// store is the run's checkpoint store, where a background task
	// delivers its result (see [Background]).
	store Store
	// delegated receives the usage of runs the call delegates to.
	delegated *usageBox
	// call is what CallFrom returns.
	call CallInfo
	// st is the run's shared state (nil without one).
	st stateAccess
	// answer is the user's answer to a question tool's call (nil: none).
	answer json.RawMessage
}

type scopeKey struct{}

func withScope(ctx context.Context, s scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

func scopeOf(ctx context.Context) (scope, bool) {
	s, ok := ctx.Value(scopeKey{}).(scope)
	return s, ok
}

// lineage is where a run sits in a delegation tree: its depth (0 for a
// top-level run) and the limit set by the top-level agent.
type lineage struct{ depth, maxDepth int }
