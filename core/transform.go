package core

import "github.com/agui-go/agui"

// Transformer is the one extension point of the event stream: everything
// that observes or rewrites a run's events on their way to the client is a
// Transformer.
//
// Transform is called once per event, in stream order, and passes on zero
// or more events through emit. Finish is called once, just before the run's
// terminal event (RUN_FINISHED or RUN_ERROR) reaches Transform, and may emit
// what the transformer still holds. What a transformer emits is verified
// like anything else; an error from either method ends the run with a
// RUN_ERROR whose code is TRANSFORM_ERROR (or the code of the returned
// *Error). A panic in either method, or in a [TransformerFactory], is recovered,
// logged with its stack ([WithLogger]) and ends the run the same way.
//
// That final RUN_ERROR bypasses the transformer that failed and those
// before it in the chain, but the ones after it, which see events later,
// are finished and receive it, so every transformer after the failure
// still sees the run end. When the chain's output breaks a protocol rule
// no transformer is to blame and the RUN_ERROR bypasses the whole chain.
// When the consumer stops reading before the terminal event, every
// transformer is still finished and passed a RUN_ERROR (DISCONNECTED),
// whose output goes nowhere.
//
// A Transformer instance serves one run and is called from one goroutine at
// a time. Transformers registered once for many runs are registered as a
// TransformerFactory, which builds one instance per run.
type Transformer interface {
	Transform(ev agui.Event, emit func(agui.Event) error) error
	Finish(emit func(agui.Event) error) error
}

// TransformerFactory builds the [Transformer] for one run from that run's input.
// It must be safe for concurrent use: runs on one route start at the same
// time.
type TransformerFactory func(in *agui.RunAgentInput) Transformer

// TransformerFunc adapts a stateless function to a [Transformer] whose Finish
// emits nothing.
type TransformerFunc func(ev agui.Event, emit func(agui.Event) error) error

// Transform calls f.
func (f TransformerFunc) Transform(ev agui.Event, emit func(agui.Event) error) error {
	return f(ev, emit)
}

// Finish does nothing.
func (TransformerFunc) Finish(func(agui.Event) error) error { return nil }

// Stateless returns a [TransformerFactory] that hands every run the same
// transformer. Use it only for a [Transformer] that keeps no per-run state
// and is safe for concurrent use, such as a [TransformerFunc].
func Stateless(t Transformer) TransformerFactory {
	return func(*agui.RunAgentInput) Transformer { return t }
}
