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

// openDescriptor returns, when path names one of this process's own
// descriptors (/dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N, or a symbolic link to one of those names), a
// duplicate of it to write to, which the caller closes: what is written
// goes where the shell sent it, as written to standard output would,
// appended to a file opened with >>, at its offset otherwise, rather
// than to a file opened again (from its start) or replaced. ok is false
// for any other path.
func openDescriptor(path string) (f *os.File, ok bool, err error) {
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

// maxLinkHops is how many symbolic links descriptorOf follows.
const maxLinkHops = 8

// descriptorOf returns the descriptor path names, if it names one, by its
// name or through symbolic links to such a name (/dev/stdin is one to
// /proc/self/fd/0; a user's link to /dev/stdout another). A link is
// followed one hop at a time: /proc/self/fd/N is itself a link, to the
// file the descriptor has open, which must not be reached.
func descriptorOf(path string) (int, bool) {
	for range maxLinkHops {
		if fd, ok := descriptorName(path); ok {
			return fd, true
		}
		target, err := os.Readlink(path)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return 0, false
}

// descriptorName returns the descriptor path's name is of, if it is one.
func descriptorName(path string) (int, bool) {
	switch path = filepath.Clean(path); path {
	case "/dev/stdin":
		return 0, true
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
// descriptors (openDescriptor).
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
