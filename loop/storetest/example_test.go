package storetest_test

import (
	"fmt"
	"strings"

	"github.com/agui-go/agui/loop/storetest"
)

// The checks Run runs, each a subtest: a store's own test calls
// storetest.Run(t, func(t *testing.T) loop.Store { return newEmptyStore(t) }).
func ExampleNames() {
	fmt.Println(strings.Join(storetest.Names(), "\n"))
	// Output:
	// VersionedSave
	// RoundTrip
	// Isolation
	// ConcurrentClaims
	// Clock
	// LeaseRenewal
	// LeaseExpiry
	// Delete
	// VersionsNeverRepeat
	// LargeCheckpoint
	// CancelledContext
	// AppendPath
	// LongThread
	// ThreadList
	// ThreadStatus
	// ThreadUpdate
	// ThreadDelete
	// ThreadPageBounds
	// ThreadOwnerChange
	// ThreadCancelledContext
	// AgentApprovalAcrossAgents
	// AgentConcurrentResumes
}
