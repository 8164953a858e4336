// Package ginagui serves AG-UI agents from Gin routes.
//
// [Register] mounts an agent on a router or group: POST <path> runs it and
// streams its events, GET <path>/capabilities describes it.
//
//	r := gin.New()
//	api := r.Group("/agents", authMiddleware) // auth is ordinary Gin middleware
//	if err := ginagui.Register(api, "/echo", echo); err != nil {
//		log.Fatal(err)
//	}
//
// [Handler] is the primitive when the app picks the method and path itself.
// Both are built on [github.com/agui-go/agui/core.Handler], which does the
// work for plain net/http too. [RegisterResumable] mounts a resumable route
// ([github.com/agui-go/agui/resume.Handler]) and its rejoin, stop and
// active-run routes, where a dropped connection loses nothing.
//
// # What the route does
//
// Before the stream nothing is written until the input is valid: POST only
// (405), Content-Type application/json (415), a body limit (413, 8 MiB by
// default), well-formed JSON (400), a valid RunAgentInput of protocol major
// version 1 (422); each refusal has a JSON body {"error", "code",
// "field"}. Then the stream goes out as SSE, or protobuf when a 1.x client
// asks for it, with Cache-Control: no-cache and X-Accel-Buffering: no;
// events already queued share one flush; an idle SSE stream gets ": ping"
// comments every 15 s; each write moves the connection's write deadline,
// so a server's WriteTimeout does not cut long runs. When the client goes
// away the run is cancelled at once. The handler returns only after the
// agent has, and then aborts the rest of the chain. A client that sends no
// protocolVersion gets the stream downgraded for pre-1.0 clients.
//
// # Logs, metrics and limits
//
// Every run has one log line, and every refused request one too; both name
// the Gin route the request matched (such as "/agents/:name") and the
// agent's name given with core.WithAgentName, which agents and
// transformers also read with core.RouteFrom. transformers.Metrics labels
// its runs with them, and core.WithRefusalHook counts refusals: package
// aguiprom does both for Prometheus. Per-route limits are options too:
// core.WithMaxConcurrentRuns (a JSON 429 with Retry-After over the cap)
// and core.WithRunTimeout (the run ends with RUN_ERROR DEADLINE_EXCEEDED).
//
// # Transformers are middleware
//
// [Transform] registers stream transformers on a router or group, and every
// agent route below it runs them. The outer middleware wraps the inner
// ones, as it does for responses: it sees the events last.
//
//	compat := r.Group("/compat", ginagui.Transform(
//		transformers.SubagentVisibility(transformers.VisibilityInline)))
//	ginagui.Register(compat, "/supervisor", supervisor)
//
// # Shutdown
//
// http.Server.Shutdown waits for open streams forever. Give every agent
// route one core.Gate and stop with [core.Shutdown], which refuses new runs with
// 503, ends in-flight ones with RUN_ERROR (CANCELLED) and shuts the server
// down, all within the caller's deadline.
//
// # Middleware to keep off agent routes
//
// Streaming needs every write to reach the client when it is flushed:
//   - gin-contrib/timeout buffers the whole response: never put it on an
//     agent route.
//   - gin-contrib/gzip before v1.2.0 holds events back, and WithMinLength
//     buffers them: exclude agent routes (gzip.WithExcludedPaths).
//   - A middleware that wraps c.Writer without an Unwrap method hides the
//     connection, so write deadlines cannot be set; the route logs this
//     once.
//
// The run input is on the request's context once it is decoded: by the
// route's handler (app middleware reads InputFrom(c) after c.Next), or
// earlier by the [Input] middleware, for middleware that needs it before the
// run, such as an authorization check on the thread. Agents and anything
// else holding the run's context use core.InputFrom(ctx).
package ginagui
