//go:build unix

package main

import "syscall"

// raiseFileLimit lifts the soft limit on open files to the hard one, and
// both to 65,536 where the process may (as root): each open stream is a
// file descriptor here and in the server, and the server processes inherit
// the limit.
func raiseFileLimit() error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	if l.Max < 1<<16 {
		raised := syscall.Rlimit{Cur: 1 << 16, Max: 1 << 16}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			return nil
		}
	}
	l.Cur = l.Max
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
}
