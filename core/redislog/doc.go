// Package redislog keeps the logs of resumable runs (see
// [github.com/agui-go/agui/core.ResumableHandler]) on Redis, so that a
// client can rejoin a run on any replica of a service and a replica's death
// does not leave its clients hanging.
//
// Quick start: give every replica the same Redis and its own replica id.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	lg, err := redislog.New(rdb, redislog.WithPrefix("agui:chat:"))
//	if err != nil { … }
//	h, err := core.NewHandler(agent)
//	if err != nil { … }
//	rh, err := core.NewResumableHandler(h, lg,
//		core.WithDetach(30*time.Second), core.WithReplicaID(hostname))
//	// mount rh as core.ResumableHandler says, or with
//	// ginagui.RegisterResumable(group, "/chat", agent, lg, ropts)
//
// How it maps onto Redis (7.0 or later):
//
//   - a run's events are a stream, <prefix>{<runId>}:log, with explicit
//     ids 0-1, 0-2, …: XADD itself refuses an id at or below the stream's
//     top, so an event can never be stored twice or out of order;
//   - its state is a hash, <prefix>{<runId>}:meta (owner, lease
//     generation and expiry, last id, sealed, stopped, time of the latest
//     read); every write is a Lua script that checks the generation, so a
//     replica that lost its lease (it stalled, or was taken for dead)
//     cannot append, renew or seal any more;
//   - a thread's active run for a principal is a string,
//     <prefix>thread:{<threadId>}:<hex of the principal>, so one
//     principal's run never hides or replaces another's;
//   - leases are on Redis's clock (TIME), never a replica's;
//   - a reader waits for new events with XREAD BLOCK, at most FollowWait
//     at a time; between waits it notices an expired lease and ends the
//     run with RUN_ERROR code RUN_LOST.
//
// Keys expire by themselves: a running run's IdleTTL after its last
// append or renewal, a sealed run's Retention after its end. Memory is
// about 1.2 times the events' JSON per retained run (BENCHMARKS.md). The
// run's keys share the hash tag {runId}; the thread key does not, so in a
// Redis Cluster use a prefix and runs whose thread and run land in one
// slot, or a single node.
package redislog
