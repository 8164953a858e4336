// Package threadfixture builds the long agentic thread the benchmarks
// measure a request's history with: the module root's decoder benchmark
// and the bench module's thread-length sweep read the same bytes, so a
// figure from one explains the other.
//
//	raw := threadfixture.Messages(1000) // a JSON array of 1,000 messages
//
// It has no state; its functions are safe for concurrent use.
package threadfixture
