//go:build !linux

package output

import (
	"io/fs"
	"os"
)

// openSocket opens path, the socket st, for writing: where /dev/fd/N is
// not a link to /proc, opening it duplicates descriptor N, a socket's too.
func openSocket(path string, _ fs.FileInfo) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY, 0)
}
