package loop

import "encoding/json"

// stateAccess is a run's shared state as the loop sees it.
type stateAccess interface {
	// snapshot returns the state's JSON, nil when there is none.
	snapshot() json.RawMessage
}
