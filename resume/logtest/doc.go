// Package logtest is the conformance kit of the
// [github.com/agui-go/agui/resume.Log] contract: any run log, in memory or
// on a server, runs it from its own tests.
//
//	func TestConformance(t *testing.T) {
//		logtest.Run(t, func(t *testing.T) resume.Log {
//			return mylog.New(…) // a fresh, empty log for each subtest
//		})
//	}
//
// [Run] checks that a run's entries are stored once, in order and byte for
// byte (Append copies them, so the caller may reuse its buffer), and read
// back after any cursor in pages; that a retried batch is
// accepted and a gap refused; the refusals a handler maps to statuses
// (unknown run, cursor ahead, run exists); that Read waits for an append
// and wakes when one comes; leases: only the current one appends, renews
// or seals, a live one cannot be taken over, an expired one is taken over
// by exactly one of many replicas at once, and a sealed run by none;
// stops; a thread's active run per principal, and deleting a thread's runs of
// one principal; readers' presence; and
// finally a resumable route on the log, whose rejoin from a cursor gets
// exactly the rest of the run, and whose every connection gets what the
// plain route serves its own client (AG-UI 1.1, 1.0 or older), whichever
// client started the run. [Entries] builds entries as the checks do,
// for a log's tests of its own limits.
package logtest
