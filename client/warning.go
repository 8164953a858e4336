package client

import "github.com/agui-go/agui"

// Warning is something the agent sent that the client did not take as
// sent, while the run went on: an event type from a newer protocol
// (dropped), an unknown value in an optional place (stripped, named by its
// JSON Pointer), a state patch that does not apply (the state is kept), a
// producer declaring a protocol version newer than the client's, a
// rejoin after a dropped connection. Values are immutable.
type Warning struct {
	// Event is the type of the event concerned, "" when there is none (a
	// rejoin, a field the request to an older agent leaves out).
	Event agui.EventType
	// Message says what happened, naming the JSON Pointer or id concerned.
	Message string
}
