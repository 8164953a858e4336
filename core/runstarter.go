package core

import "context"

// RunStarter is implemented by a [Transformer] that reads its run's context:
// the values the transport put there, such as the route and agent
// ([RouteFrom]), the input ([InputFrom]) or a trace span. The runner calls
// StartRun once, right after the factory built the transformer and before
// its first event, on the consumer's goroutine, with the run's context.
// StartRun must not keep ctx; it copies what it needs.
type RunStarter interface {
	StartRun(ctx context.Context)
}

// startRun hands t the run's context if it asks for it.
func startRun(ctx context.Context, t Transformer) {
	if s, ok := t.(RunStarter); ok {
		s.StartRun(ctx)
	}
}
