package e2e

import "github.com/agui-go/agui/aguitest"

// The routes every server of the comparison serves (POST, a RunAgentInput
// body).
const (
	// PathFixture streams the standard fixture: FixtureEvents events.
	PathFixture = "/fixture"
	// PathIdle streams RUN_STARTED and then holds the stream open until
	// the client leaves.
	PathIdle = "/idle"
	// PathDeltas streams one message of one-byte deltas (Go servers only;
	// how many is the server's -deltas flag): DeltaEvents(n) events.
	PathDeltas = "/deltas"
)

// FixtureEvents is the number of events one fixture stream carries.
const FixtureEvents = aguitest.FixtureEvents

// DeltaEvents is the number of events a PathDeltas stream of n deltas
// carries: RUN_STARTED, TEXT_MESSAGE_START, the deltas, TEXT_MESSAGE_END
// and RUN_FINISHED.
func DeltaEvents(n int) int { return n + 4 }

// fixtureStrings returns the fixture's text deltas and argument chunks.
// Servers compute them once: they build events per request, not the
// strings inside them, which a model would hand over.
func fixtureStrings() (deltas, args []string) {
	deltas = make([]string, aguitest.FixtureDeltas)
	for i := range deltas {
		deltas[i] = aguitest.FixtureDelta(i)
	}
	args = make([]string, aguitest.FixtureArgChunks)
	for i := range args {
		args[i] = aguitest.FixtureArgChunk(i)
	}
	return deltas, args
}
