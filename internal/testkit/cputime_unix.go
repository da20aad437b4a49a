//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime is the process's CPU time so far, every thread's: on a machine
// shared with other work, a benchmark's steadier measure than the wall
// time.
func CPUTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
