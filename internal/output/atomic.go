package output

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rewardlens/rewardlens/internal/openctx"
)

// WriteFile writes what write produces to path, by what path names:
//   - one of this process's descriptors (openDescriptor: /dev/stdout,
//     /dev/fd/N, a link to one): through a duplicate of it, wherever the
//     shell sent it (a file opened with >> is appended to);
//   - something other than a regular file (a terminal, a pipe, /dev/null):
//     in place, as there is no file to replace (renaming over it would put
//     a regular file in its stead); opening a named pipe waits for its
//     reader until ctx ends;
//   - a regular file, or nothing: atomically, to a temporary file in the
//     same directory, synced, then renamed over path, so that an
//     interrupted write leaves any old file intact and a reader never sees
//     half a file. The file gets the permissions of the file it replaces,
//     or those os.Create gives (0666 less the umask). A symbolic link is
//     followed: the file it names is replaced, and the link stays a link.
func WriteFile(ctx context.Context, path string, write func(io.Writer) error) error {
	f, isDescriptor, err := openDescriptor(path)
	if err != nil {
		return err
	}
	if !isDescriptor {
		old, statErr := os.Stat(path)
		if statErr != nil || old.Mode().IsRegular() {
			return replaceFile(Target(path), old, nil, write) // old: nil when there is none
		}
		if f, err = openInPlace(ctx, path, old); err != nil {
			return err
		}
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceFile writes what write produces to a temporary file beside path,
// synced, then renamed over path: the file old (nil when there was none)
// replaced, its mode and owner kept. before, when not nil, is asked just
// before the rename whether it may go ahead.
func replaceFile(path string, old fs.FileInfo, before func() error, write func(io.Writer) error) error {
	tmp, err := createTemp(path)
	if err != nil {
		return namedError(err, "", path)
	}
	temporaries.Store(tmp.Name(), true)
	defer func() {
		os.Remove(tmp.Name()) // a no-op once renamed
		temporaries.Delete(tmp.Name())
	}()
	if old != nil {
		if err := tmp.Chmod(old.Mode().Perm()); err != nil {
			tmp.Close()
			return namedError(err, tmp.Name(), path)
		}
		keepOwner(tmp, old)
	}
	w := bufio.NewWriterSize(&writeback{f: tmp}, 1<<16)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && before != nil {
		err = before()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return namedError(err, tmp.Name(), path)
}

// temporaries holds the names of the temporary files being written, for
// RemoveTemporaries.
var temporaries sync.Map

// RemoveTemporaries removes the temporary files of the writes under way:
// for a process about to end at once (a second ctrl+c), so that no
// half-written file is left behind.
func RemoveTemporaries() {
	temporaries.Range(func(name, _ any) bool {
		os.Remove(name.(string))
		return true
	})
}

// Target returns the file that writing path replaces: path, or the file
// its chain of symbolic links names, even when that file does not exist
// yet (a dangling link is followed to create its target, not replaced by
// a file).
func Target(path string) string {
	for range 40 { // as the kernel's limit on links followed
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		link, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return path
}

// CheckWritable reports whether a file can be created beside path (as
// WriteFile will), by creating and removing one: before a long load,
// not after it.
func CheckWritable(path string) error {
	path = Target(path)
	tmp, err := createTemp(path)
	if err != nil {
		return namedError(err, "", path)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// namedError returns err with the temporary file tmp's name, which means
// nothing to the user, replaced by path's ("" tmp: any path error).
func namedError(err error, tmp, path string) error {
	var le *os.LinkError
	if errors.As(err, &le) && le.Old == tmp {
		return &fs.PathError{Op: "write", Path: path, Err: le.Err}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && (tmp == "" || pe.Path == tmp) {
		return &fs.PathError{Op: "write", Path: path, Err: pe.Err}
	}
	return err
}

// openInPlace opens path for writing, the existing file st (os.Stat's,
// following links) that is not a regular one: a device or a pipe by its
// path, a named pipe waiting for its reader until ctx ends; a socket as
// the descriptor of this process that holds it, when opening it fails.
func openInPlace(ctx context.Context, path string, st fs.FileInfo) (*os.File, error) {
	if st.Mode()&fs.ModeSocket != 0 {
		return openSocket(path, st)
	}
	return openctx.OpenFile(ctx, path, os.O_WRONLY, 0)
}

// createTemp creates a new file next to path, named after it and this
// process (tempPrefix), with the permissions os.Create gives
// (os.CreateTemp's are 0600). It first removes the temporary files of
// path that processes now gone left (removeStale).
func createTemp(path string) (*os.File, error) {
	removeStale(path)
	prefix := tempPrefix(path) + strconv.Itoa(os.Getpid()) + "-"
	for {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// tempPrefix is how the temporary files of path begin: beside it, hidden,
// .NAME.tmp-, then the writing process's ID, a dash and a random number.
func tempPrefix(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".tmp-")
}

// removeStale removes the temporary files of path (tempPrefix) whose
// process is gone: what a run killed at once (SIGKILL, a crash) left
// behind. A live process's, another user's that this one cannot signal,
// and a name that does not hold a process ID, stay.
func removeStale(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	d, err := os.Open(dir)
	if err != nil {
		return // createTemp says why, if it matters
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	prefix := "." + base + ".tmp-"
	for _, name := range names {
		rest, ours := strings.CutPrefix(name, prefix)
		pid, random, ok := strings.Cut(rest, "-")
		if !ours || !ok || random == "" || strings.Trim(pid, "0123456789") != "" {
			continue // not path's, or not a process ID and a number
		}
		if n, err := strconv.Atoi(pid); err == nil && n > 0 && n != os.Getpid() && processGone(n) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// writeback writes to f and has the kernel start writing each writebackStep
// bytes to disk as soon as they are written, so that the fsync at the end
// waits for the last step only, not for the whole file.
type writeback struct {
	f                *os.File
	written, started int64 // bytes written; bytes whose writeback started
}

// writebackStep is how many bytes are written between two writeback hints.
const writebackStep = 1 << 22

func (w *writeback) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writebackStep {
		startWriteback(w.f, w.started, w.written-w.started)
		w.started = w.written
	}
	return n, err
}
