// Package samples builds AG-UI events for tests that compare encodings:
// every one of the 31 event types at least once, with the fields that make
// an encoding interesting (content parts of every kind and source, every
// outcome, subagent attribution, usage, nulls, metadata, raw events,
// escaping).
//
// Quick start:
//
//	for _, ev := range samples.Events() {
//		frame, err := agui.AppendProto(nil, ev)
//		// compare frame with another encoder's output for ev …
//	}
//
// Events returns fresh values on every call, so a test may modify them. The
// package only builds values and is safe for concurrent use.
package samples
