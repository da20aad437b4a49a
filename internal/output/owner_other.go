//go:build !unix

package output

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}

// Owner reports that fi's owner is not known.
func Owner(fs.FileInfo) (int, bool) { return 0, false }
