//go:build unix

package output

import (
	"errors"
	"syscall"
)

// processGone reports whether no process has the ID pid: signal 0 to it
// fails with ESRCH. A process this one may not signal (another user's)
// exists.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
