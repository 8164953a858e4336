// Package replicas proves that two processes of the example app on one
// Redis, or on one PostgreSQL, share the loop route's threads: an
// approval paused on one replica is resumed on the other, concurrent
// resumes over both run the tool once, a replica killed in the middle of
// a tool leaves its thread to the other after the lease, and a store
// that is down fails runs cleanly. Each scenario runs on both backends
// (TestTwoReplicasOneRedis, TestTwoReplicasOnePostgres).
//
// It builds examples/gin-app, starts a real redis-server
// (internal/redistest) or postgres (internal/pgtest) and the app processes on free loopback ports, and
// drives them over HTTP: with plain requests whose SSE stream it reads with
// the SDK's decoder, and with the official @ag-ui/client 1.0.0 under
// Node.js (official.mjs, and takeover.mjs, whose resume is cut by the
// replica's SIGKILL and retried through the other; its packages are pinned by package-lock.json and
// installed by npm ci when missing, as in test/conformance):
//
//	go test ./test/replicas
package replicas
