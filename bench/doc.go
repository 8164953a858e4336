// Package bench measures AG-UI SSE encoders on the standard fixture of
// (aguitest.StandardFixture): this SDK, the Go community SDK
// and the floor, json.Marshal of plain structs framed into a reused
// buffer. It is its own module so that the main module does not depend on
// the community SDK.
//
// Run it from this directory:
//
//	go test -run '^$' -bench BenchmarkSSE -benchmem -count 5 -cpu 1 .
//
// Each implementation runs in two modes: prebuilt (events built once, only
// encoding, framing and writing timed) and build (each event constructed
// inside the loop, as a server does per token). Every run reports
// ns/event (wall time), cpu-ns/event (the process's CPU time, which a
// machine shared with other work inflates less), B/event and allocs/event.
package bench
