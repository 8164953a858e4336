//go:build !unix

package ginagui_test

import "time"

// cpuTime is unknown here; benchmarks then report 0 cpu-ns/event.
func cpuTime() time.Duration { return 0 }
