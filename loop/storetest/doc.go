// Package storetest is the conformance kit of the
// [github.com/agui-go/agui/loop.Store] contract: any store, in memory or on
// a server, runs it from its own tests.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) loop.Store {
//			return mystore.New(…) // a fresh, empty store for each subtest
//		})
//	}
//
// [Run] checks versioned saves and their conflicts, that a loaded checkpoint
// is the saved one (every field and message), that of 100 goroutines
// claiming one thread exactly one wins, the store's clock (Now, which
// never goes back), lease expiry and renewal as the loop does them by
// that clock (a store keeps LeaseUntil; the version check makes
// takeovers exclusive), delete, that a thread deleted and created again
// never repeats a version of its earlier life (no ABA overwrite), a 1 MB checkpoint, saves whose
// kept appends to, rewrites, shortens or trims the stored transcript
// (and a kept past it), a 1,000-turn thread ([LongThread], which a store
// shared by processes also runs with a second store on its backend;
// [WithLongThreadTurns] shortens it), that a cancelled
// context fails every call with no effect, the thread list of
// [github.com/agui-go/agui/loop.ThreadStore] (a principal's threads
// newest first by cursor pages of bounded size, run and interrupt flags,
// titles and archiving that never change a checkpoint's version, delete,
// an owner's claim; a store that is no ThreadStore fails those checks),
// and finally the loop itself on
// the store: an approval paused by one agent and resumed by another on the
// same store, and concurrent resumes that run the tool exactly once.
//
// [BenchTurns] measures a turn's save at turn 10 and turn 1,000 of one
// thread, and [BenchThreads] the thread list, the same way on every
// store.
package storetest
