package output

import (
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openSocket opens path, the socket st (os.Stat's), for writing. open(2)
// refuses a socket, even one reached through /dev/stdout, /dev/fd/N or
// /proc/self/fd/N (standard output under systemd is one): the descriptor
// of this process that holds the same socket is duplicated instead. A
// socket no descriptor holds gets open's error.
func openSocket(path string, st fs.FileInfo) (*os.File, error) {
	f, openErr := os.OpenFile(path, os.O_WRONLY, 0)
	if openErr == nil {
		return f, nil
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, openErr
	}
	for _, e := range fds {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if held, err := os.Stat("/proc/self/fd/" + e.Name()); err != nil || !os.SameFile(held, st) {
			continue
		}
		dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(dup), path), nil
	}
	return nil, openErr
}
