//go:build unix

package output

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old, the file it replaces, when
// they are not the caller's: the replacement keeps the file's owner (as
// root; otherwise it cannot, and the file becomes the caller's).
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

// Owner returns the user ID that owns fi, and whether it is known.
func Owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
