// Package pgtest starts a real PostgreSQL server for tests: initdb in a
// temporary directory, postgres on a free loopback port with its Unix
// socket in that directory and fsync off, stopped by its process id and
// its directory removed when it is done.
//
// One server serves a whole test binary, and each test gets a database
// of its own, created from the server's template (CREATE DATABASE …
// TEMPLATE) and dropped when the test ends:
//
//	var pg = pgtest.NewShared()
//
//	func TestMain(m *testing.M) { pg.Main(m) } // runs the tests, stops the server, checks for leaked goroutines
//
//	func TestSomething(t *testing.T) {
//		url := pg.DB(t) // postgres://… of a fresh database; skips when postgres is missing (fails in CI)
//		pool, err := pgxpool.New(t.Context(), url)
//		…
//	}
//
// [Start] is a server of one test's own, for a test that stops or
// restarts it.
//
// The binaries come from Debian's postgresql package, whose programs
// live under /usr/lib/postgresql/<version>/bin rather than on PATH; the
// test command (test/all.sh) installs the package when it is missing.
// With CI=true in the environment a missing binary fails the test
// instead of skipping it. PostgreSQL refuses to run as root: under root
// the server runs as the postgres user the package creates.
package pgtest
