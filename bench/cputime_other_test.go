//go:build !unix

package bench

// cpuTime is not measured on this platform; cpu-ns/event then reads 0.
func cpuTime() int64 { return 0 }
