//go:build unix

package ginagui_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system, so
// benchmarks on a shared machine can report what contention distorts
// less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
