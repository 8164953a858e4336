// Package load is a load generator for AG-UI agent routes: it opens N
// concurrent streaming runs over loopback and reports runs/s, events/s,
// the 50th and 99th percentile of time to first event (TTFE), failures,
// and, when it serves the runs itself, the server's heap per open stream.
//
// Quick start (in-process server, 500 streams):
//
//	res, err := load.Run(ctx, load.Config{Streams: 500})
//	if err != nil { … }
//	fmt.Println(res)
//
// With Config.URL empty, Run serves a ticker agent through ginagui on a
// loopback listener of its own: each run streams a delta every Interval
// and holds its stream open until every stream has received its first
// event and the heap has been measured, then sends MinDeltas more at most
// and finishes. With Config.URL set, Run targets that route instead (for
// example examples/gin-app's /agents/echo) and reads each run to its end;
// for a long route such as /agents/slow, Config.Leave has each stream go
// once all are open, and Config.AllOpen is the moment to sample the
// server's memory.
//
// Every run is bounded by Config.Deadline, and the client side speaks
// HTTP/1.1 over raw connections with small buffers, so its own memory per
// stream stays small next to the server's (see Result.HeapPerStream).
//
// The command ./cmd/agui-load sweeps N; TestLoadShort is the short mode
// that CI runs.
package load
