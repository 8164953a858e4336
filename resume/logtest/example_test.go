package logtest_test

import (
	"fmt"
	"strings"

	"github.com/agui-go/agui/resume/logtest"
)

// The checks Run runs, each a subtest: a log's own test calls
// logtest.Run(t, func(t *testing.T) resume.Log { return newEmptyLog(t) }).
func ExampleNames() {
	fmt.Println(strings.Join(logtest.Names(), "\n"))
	// Output:
	// AppendRead
	// RetriedBatch
	// AppendCopies
	// Pages
	// Refusals
	// ReadWaitsForAppend
	// Fencing
	// ConcurrentTakeover
	// Stop
	// ActiveRunPerPrincipal
	// DeleteThread
	// Presence
	// LargeEntry
	// ResumableRoute
	// Dialects
}
