// Package testfile holds what the tests of several packages do to files.
package testfile

import (
	"os"
	"testing"
)

// Append appends text to the file path, which exists, as a writer of a
// log does, failing tb on an error.
func Append(tb testing.TB, path, text string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		tb.Fatal(err)
	}
}
