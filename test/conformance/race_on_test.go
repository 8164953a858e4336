//go:build race

package conformance_test

// raceEnabled builds the example app with the race detector too, so that
// the official client's runs also hunt for data races in the server.
const raceEnabled = true
