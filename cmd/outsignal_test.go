package cmd

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSignalDuringWriteCommitsNothing: a signal (the context ending) while
// the output is written stops it before it is committed: the old file
// stays, no temporary file is left, and the error is the context's, which
// Main turns into status 130 or 143 (issue 16).
func TestSignalDuringWriteCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err := writeOutput(ctx, path, nil, io.Discard, func(w io.Writer) error {
		for i := range 1000 {
			if i == 10 {
				cancel() // the signal, in the middle of the write
			}
			if _, err := w.Write(make([]byte, 1<<16)); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("the old output was replaced: %d bytes", len(b))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	// A signal that came before the write: nothing is started.
	if err := writeOutput(ctx, path, nil, io.Discard, func(io.Writer) error {
		t.Error("write called after the signal")
		return nil
	}); !errors.Is(err, context.Canceled) {
		t.Errorf("after the signal: %v", err)
	}
}
