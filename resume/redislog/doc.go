// Package redislog keeps the logs of resumable runs (see
// [github.com/agui-go/agui/resume.Handler]) on Redis, so that a
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
//	rh, err := resume.New(h, lg,
//		resume.WithDetach(30*time.Second), resume.WithReplicaID(hostname))
//	// mount rh as resume.Handler says, or with
//	// ginagui.RegisterResumable(group, "/chat", rh)
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
//     principal's run never hides or replaces another's; it is written and
//     deleted on its own (it is in the thread's slot, not the run's), and
//     ActiveRun checks it against the run, so a pointer left behind by a
//     failure is ignored; beside it, a set of every run the principal
//     began on the thread (<…>:runs), which DeleteThread deletes with
//     the runs it names;
//   - leases are on Redis's clock (TIME), never a replica's;
//   - a reader waits for new events with XREAD BLOCK, at most
//     [WithFollowWait] at a time; between waits it notices an expired
//     lease and ends the run with RUN_ERROR code RUN_LOST.
//
// Redis Cluster: every script touches the keys of one run, which share
// the hash tag {<runId>}, or a thread's key alone, so each runs in one
// slot, and runs spread over the cluster's slots; use a
// [github.com/redis/go-redis/v9.ClusterClient]. An id with a brace, an
// empty one or one starting with "~" is tagged by its hex instead, so that
// it cannot split a run's keys over two slots. TestLogOnRedisCluster runs
// the log on a three-node cluster.
//
// Every key has a TTL, set in the script that creates it: a running run's
// keys live [WithIdleTTL] after its last append or renewal, a sealed
// run's [WithRetention] after its end, a thread's pointer [WithIdleTTL]
// after its run's last renewal. Nothing is left by a client or a replica that goes away.
//
// Memory sizing: a retained run costs about 1.2 times its events' JSON
// (BENCHMARKS.md) plus its ids; Redis holds the runs started within the
// last retention time (and the running ones), so plan maxmemory at about
// 1.2 × (runs started per retention time) × (a run's log bytes), with
// headroom.
// Set maxmemory-policy noeviction: an evicting policy could delete half a
// run (its meta without its log, or a live run's lease), while with
// noeviction a full Redis refuses writes, which the log reports as
// LOG_FULL: a new run is then served without resume and a running one
// ends with a coded RUN_ERROR, and nothing stored is lost.
package redislog
