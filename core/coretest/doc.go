// Package coretest holds test helpers for AG-UI servers built on core.
//
// StandardFixture returns the standard benchmark run of peers.md §3: one
// run of 1,018 events (a 1,000-delta text message, a tool call streamed in
// 10 argument chunks with its result, a 2 KB state snapshot), built
// deterministically, so that encoders, transports and other SDKs can be
// measured on identical data:
//
//	buf := make([]byte, 0, 64<<10)
//	for _, ev := range coretest.StandardFixture() {
//		buf, _ = agui.AppendSSE(buf[:0], ev)
//		w.Write(buf)
//	}
//
// The Fixture… constants and functions expose the same data for builders
// that use another event model.
package coretest
