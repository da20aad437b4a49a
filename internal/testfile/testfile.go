// Package testfile holds what the tests of several packages do to files.
package testfile

import (
	"os"
	"strings"
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

// ReplaceFirst replaces the first old in the file path by new, failing
// tb on an error or when the file holds no old.
func ReplaceFirst(tb testing.TB, path, old, new string) {
	tb.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	replaced := strings.Replace(string(text), old, new, 1)
	if replaced == string(text) {
		tb.Fatalf("no %q in %s", old, path)
	}
	if err := os.WriteFile(path, []byte(replaced), 0o644); err != nil {
		tb.Fatal(err)
	}
}
