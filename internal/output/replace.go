package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Refusal says why the existing file old is not replaced unless the user
// says so explicitly (--force for --out): "is read-only" or "belongs to
// another user (uid N)"; "" when it may be replaced.
func Refusal(old fs.FileInfo) string {
	if old.Mode().Perm()&0o222 == 0 {
		return "is read-only"
	}
	if uid, ok := Owner(old); ok && uid != os.Geteuid() {
		return fmt.Sprintf("belongs to another user (uid %d)", uid)
	}
	return ""
}

// CheckReplace looks at path, a file that a program writes at a name of
// its own (the dashboard's settings), not one the user named: it returns
// what is there (nil when nothing is), or why it must not be written: a
// symbolic link, which is not written through (it may point anywhere),
// anything but a regular file, or a file Refusal refuses.
func CheckReplace(path string) (fs.FileInfo, error) {
	old, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case old.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link: rewardlens does not write through it (remove it to write here)", path)
	case !old.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file: rewardlens does not replace it (remove it to write here)", path)
	}
	if why := Refusal(old); why != "" {
		return nil, fmt.Errorf("%s %s: rewardlens does not replace it (remove it to write here)", path, why)
	}
	return old, nil
}

// ReplaceFile writes what write produces to path atomically, as
// WriteFile does, where CheckReplace found old (nil: nothing), and
// without following a symbolic link: the temporary file is renamed over
// path itself, and only if path is still old (or still absent) then, so
// that a link or a file put there meanwhile is not written through nor
// replaced unasked. old's mode and owner are kept.
func ReplaceFile(path string, old fs.FileInfo, write func(io.Writer) error) error {
	unchanged := func() error {
		now, err := os.Lstat(path)
		switch {
		case old == nil && errors.Is(err, fs.ErrNotExist):
			return nil
		case old != nil && err == nil && SameFile(now, old):
			return nil
		}
		return fmt.Errorf("%s changed while it was written: not replaced", path)
	}
	return replaceFile(path, old, unchanged, write)
}

// SameFile reports whether a and b describe the same file as it was: the
// same file, of the same size and modification time.
func SameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}
