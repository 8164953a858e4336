// Package resume serves an agent on a resumable route: a run is a log,
// and a client whose connection dropped loses nothing.
//
//	h, err := core.NewHandler(agent, core.WithPrincipal(userOf))
//	if err != nil { … }
//	lg, err := resume.NewMemoryLog()
//	if err != nil { … }
//	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
//	if err != nil { … }
//	defer rh.Close(ctx) // after Gate.Shutdown
//	mux.Handle("POST /chat", rh)
//	mux.Handle("GET /chat/runs/{runId}", rh)
//	mux.Handle("DELETE /chat/runs/{runId}", rh)
//	mux.Handle("GET /chat/threads/{threadId}/run", rh)
//	caps, err := core.NewCapabilitiesHandler(rh.Capabilities(), h.InputReader())
//	if err != nil { … }
//	mux.Handle("GET /chat/capabilities", caps)
//
// A POST starts the run on a goroutine of its own (its owner), which
// numbers the run's events and stores them in a [Log]; every connection,
// the first one included, follows the log from its cursor, so a client
// that reconnects with Last-Event-ID gets exactly the events it missed
// (see [Handler]). The log keeps the events as AG-UI 1.1 has them
// ([core.DeliverLatest]), and each connection shapes them for its own
// client as a plain route would ([core.Conn.DowngradeJSON]). A run costs 2 goroutines (its agent
// and its owner) plus 1 per connection, and 1 hand-off per event
// ([core.Runner.Start]).
//
// [MemoryLog] is the bounded in-process log; package redislog keeps runs
// in Redis so that any replica serves a rejoin, and package logtest checks
// any other [Log]. [WithDetach] lets a run outlive its connections for a
// grace period; the route's principal hook ([core.WithPrincipal]) ties a
// run to the principal that started it. The route's other settings (its
// limits, gate, heartbeat, write timeout, logger) are the [core.Handler]'s
// it is built on: resume is an ordinary client of core's transport
// surface ([core.Handler.Accept], [core.Conn]).
//
// Package ginagui mounts a Handler on Gin routes with RegisterResumable.
package resume
