// Package pglog keeps the logs of resumable runs (see
// [github.com/agui-go/agui/resume.Handler]) in PostgreSQL, so that a
// client can rejoin a run on any replica of a service and a replica's
// death does not leave its clients hanging.
//
// Quick start: give every replica the same database and route name, and
// its own replica id.
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	if err != nil { … }
//	if err := pglog.Migrate(ctx, pool); err != nil { … } // at start, from every replica: idempotent
//	lg, err := pglog.New(pool, pglog.WithRoute("chat"))
//	h, err := core.NewHandler(agent)
//	rh, err := resume.New(h, lg, resume.WithDetach(30*time.Second), resume.WithReplicaID(hostname))
//	// mount rh as resume.Handler says, or with ginagui.RegisterResumable(group, "/chat", rh)
//
// How it maps onto PostgreSQL ([Migrate] applies the embedded schema
// under an advisory lock and records its version in agui_schema_version,
// component "runlog"):
//
//   - a run is a row of agui_run_log_runs (route, run id, thread,
//     principal, owner, lease generation and expiry, last sequence
//     number, sealed, stopped, latest read, expiry), and its events rows
//     of agui_run_log_entries keyed by (route, run id, seq), so an event
//     can never be stored twice;
//   - an append is one transaction that locks the run's row, checks the
//     lease generation, inserts the entries not stored yet and sends a
//     NOTIFY; renew, seal, stop and takeover are each one conditional
//     UPDATE, so a replica that lost its lease cannot append, renew or
//     seal, and of many replicas taking an expired run over exactly one
//     wins;
//   - leases and expiry are on the database's clock (clock_timestamp()),
//     never a replica's;
//   - a thread's active run for a principal is its newest run, unless
//     sealed: an index on (route, thread, principal, began) finds it.
//
// # Following a run: LISTEN/NOTIFY
//
// A reader waiting for new events subscribes, looks, and sleeps until a
// notification for its run or [WithFollowWait]; each append notifies in
// its transaction, so the notification arrives once the entries are
// visible. One connection per [Log], taken out of the pool at the first
// wait, listens for all its readers, however many, until [Log.Close]
// (starting one for each wait would cost a connection at every event of
// a lone follower). A lost notification (the listening connection
// dropped; the next wait starts another) costs a reader at most the
// follow wait.
//
// An append is one call of a function the schema defines
// (agui_run_log_append, migration 2): the lease check, the entries, the
// run's progress and the notification in one round trip. Measured on one
// loopback PostgreSQL 15 on the shared 2-core machine, load average
// 13-14 (go test -run '^$' -bench . -benchtime 2s -count 3
// ./resume/pglog): an append takes 0.5-1.0 ms (BenchmarkAppend), and a
// waiting follower has its event 1.2-1.8 ms after the append began
// (BenchmarkFollowWake). Polling instead would cost each follower one
// look (0.27 ms and more, BenchmarkPoll) per interval and add half the
// interval to the latency on average (25 ms at a 50 ms interval, for 20
// queries a second per follower): the notification is both faster and
// cheaper with more than a handful of followers.
//
// Retention: a running run lives [WithIdleTTL] past its last renewal,
// and at least half of it past its last append, a sealed one
// [WithRetention] past its end; an expired run is gone for every call,
// and each Begin deletes up to 100 expired runs (and
// their events, by a cascading foreign key), so the tables hold the runs
// of the last retention time and the running ones without a job of
// their own. Size the database for about 1.2 × (runs per retention time)
// × (a run's event bytes), as for Redis.
//
// When the database cannot be reached a call fails with the code
// STORE_UNAVAILABLE: a new run is then served without resume, and a
// connection whose read failed ends with a coded RUN_ERROR.
package pglog
