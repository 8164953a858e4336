//go:build unix

package bench

import "syscall"

// cpuTime returns the process's user and system CPU time in nanoseconds.
// On a shared machine it measures the work done, where wall time also
// counts the time spent waiting for a CPU.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
