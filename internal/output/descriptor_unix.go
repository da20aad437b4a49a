//go:build unix

package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// OpenDescriptor returns, when path names one of this process's own
// descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), a
// duplicate of it to write to, which the caller closes: what is written
// goes where the shell sent it, as written to standard output would,
// appended to a file opened with >>, at its offset otherwise, rather
// than to a file opened again (from its start) or replaced. ok is false
// for any other path.
func OpenDescriptor(path string) (f *os.File, ok bool, err error) {
	fd, ok := descriptorOf(path)
	if !ok {
		return nil, false, nil
	}
	dup, err := syscall.Dup(fd)
	if err != nil {
		return nil, true, &os.PathError{Op: "dup", Path: path, Err: err}
	}
	syscall.CloseOnExec(dup)
	return os.NewFile(uintptr(dup), path), true, nil
}

// descriptorOf returns the descriptor path names, if it names one.
func descriptorOf(path string) (int, bool) {
	switch path = filepath.Clean(path); path {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, ok := strings.CutPrefix(path, dir); ok {
			fd, err := strconv.Atoi(n)
			return fd, err == nil && fd >= 0 && strconv.Itoa(fd) == n
		}
	}
	return 0, false
}

// IsDescriptor reports whether path names one of this process's own
// descriptors (OpenDescriptor).
func IsDescriptor(path string) bool {
	_, ok := descriptorOf(path)
	return ok
}

// CheckDescriptor returns an error when path names a descriptor of this
// process that is not open for writing (/dev/fd/0 of a file read, or
// closed): written through, the output would fail at its end.
func CheckDescriptor(path string) error {
	fd, ok := descriptorOf(path)
	if !ok {
		return nil
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return fmt.Errorf("%s: descriptor %d is not open: %w", path, fd, err)
	}
	if mode := flags & unix.O_ACCMODE; mode != unix.O_WRONLY && mode != unix.O_RDWR {
		return fmt.Errorf("%s: descriptor %d is open for reading only", path, fd)
	}
	return nil
}
