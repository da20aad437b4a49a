package output

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes what write produces to path atomically: to a
// temporary file in the same directory, synced, then renamed over path, so
// that an interrupted write leaves any old file intact and a reader never
// sees half a file.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
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
		return err
	}
	return os.Rename(tmp.Name(), path)
}
