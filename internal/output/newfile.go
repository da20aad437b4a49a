package output

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// maxNewFileTries bounds the names WriteNewFile tries: path, then -2 up to
// this suffix.
const maxNewFileTries = 10000

// WriteNewFile writes what write produces to a file that did not exist:
// path, or when it exists the first free one of path-2, path-3... (the
// suffix goes before the extension: out-2.jsonl). It never replaces a
// file, even one another process creates meanwhile, and a reader never
// sees half a file: the data goes to a temporary file, synced, which is
// then hard-linked to the name, a step that fails rather than replace an
// existing file. Where hard links are not allowed, the name is created with
// O_EXCL and written in place. It returns the name it wrote. Its errors
// name path (or the name tried), never the temporary file.
func WriteNewFile(path string, write func(io.Writer) error) (string, error) {
	tmp, err := createTemp(path)
	if err != nil {
		return "", namedError(err, "", path)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
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
	if err != nil {
		return "", namedError(err, tmp.Name(), path)
	}
	for n := 1; n <= maxNewFileTries; n++ {
		name := numberedName(path, n)
		err := os.Link(tmp.Name(), name)
		switch {
		case err == nil:
			return name, nil
		case errors.Is(err, fs.ErrExist):
			continue
		case errors.Is(err, fs.ErrPermission) || isNotSupported(err):
			return writeExclusive(path, n, tmp.Name())
		default:
			return "", namedError(err, tmp.Name(), name)
		}
	}
	return "", &fs.PathError{Op: "create", Path: path, Err: errors.New("every name up to -" + strconv.Itoa(maxNewFileTries) + " exists")}
}

// writeExclusive copies the file src to the first free name from the n-th
// on, each created with O_EXCL so that none is replaced.
func writeExclusive(path string, n int, src string) (string, error) {
	for ; n <= maxNewFileTries; n++ {
		name := numberedName(path, n)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		in, err := os.Open(src)
		if err == nil {
			_, err = io.Copy(f, in)
			in.Close()
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", namedError(err, src, name)
		}
		return name, nil
	}
	return "", &fs.PathError{Op: "create", Path: path, Err: errors.New("every name up to -" + strconv.Itoa(maxNewFileTries) + " exists")}
}

// numberedName returns path for n = 1, and path with -n before its
// extension otherwise.
func numberedName(path string, n int) string {
	if n == 1 {
		return path
	}
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	if ext == base { // a dot file, such as .env
		ext = ""
	}
	return dir + strings.TrimSuffix(base, ext) + "-" + strconv.Itoa(n) + ext
}

// isNotSupported reports whether err says the filesystem has no hard
// links.
func isNotSupported(err error) bool {
	return errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EXDEV) || errors.Is(err, syscall.EMLINK)
}
