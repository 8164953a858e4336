//go:build race

package dojo_test

// raceEnabled builds examples/dojo with the race detector too, so that
// the official client's runs also hunt for data races in the server.
const raceEnabled = true
