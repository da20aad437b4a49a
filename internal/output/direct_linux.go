package output

import (
	"os"

	"golang.org/x/sys/unix"
)

// openDirect opens the file at path for writing around the page cache
// (O_DIRECT), or returns nil where the filesystem does not allow it.
func openDirect(path string) *os.File {
	f, err := os.OpenFile(path, os.O_WRONLY|unix.O_DIRECT, 0)
	if err != nil {
		return nil
	}
	return f
}
