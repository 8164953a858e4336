// Package sse reads the server-sent event streams model providers answer
// with (the text/event-stream format of the HTML Living Standard, section
// 9.2), one event at a time, without an allocation per event: the
// provider packages (loop/openai, loop/anthropic) read their model's
// tokens with it, where the SDKs' own decoders cost more per token than
// the rest of a token's path (BENCHMARKS.md, issue 26).
//
//	r := sse.NewReader(resp.Body)
//	for r.Next() {
//		handle(r.Type(), r.Data()) // valid until the next call to Next
//	}
//	if err := r.Err(); err != nil {
//		// a read error, or a line over MaxLine
//	}
package sse
