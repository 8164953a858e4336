// Package redistest starts a real redis-server for a test: on a free
// loopback port, with its own temporary directory, stopped by its process
// id when the test ends.
//
//	srv := redistest.Start(t)                       // skips when redis-server is missing (fails in CI)
//	client := redis.NewClient(&redis.Options{Addr: srv.Addr()})
//
// The test command (test/all.sh) installs Debian's redis-server when it is
// missing; with CI=true in the environment a missing binary fails the test
// instead of skipping it.
package redistest
