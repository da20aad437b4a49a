//go:build unix

package loaders

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestLoadFIFOWithoutWriterEndsOnInterrupt: a FIFO no one writes to blocks
// the load in open; the end of the context (the first ctrl+c) ends it
// with the context's error, and looking at the inputs' layout does not
// open it (issue 16).
func TestLoadFIFOWithoutWriterEndsOnInterrupt(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "rollouts.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if fields, err := Peek([]string{fifo}, Options{Context: ctx}); err != nil || len(fields) != 0 {
		t.Errorf("Peek on a FIFO: %v, %v; want it left alone", fields, err)
	}
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err := Load([]string{fifo}, Options{Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Load: %v, want the context's error", err)
	}
	// A writer at last lets the abandoned open return, and close its file.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	goleak.VerifyNone(t)
}

// loadFIFO loads a FIFO called name into which a writer writes text and
// closes it, failing t when the load does not return; path is the FIFO's.
func loadFIFO(t *testing.T, name, text string) (path string, res *Result, err error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.WriteString(text)
		w.Close()
	}()
	type loaded struct {
		res *Result
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		res, err := Load([]string{fifo}, Options{})
		done <- loaded{res, err}
	}()
	select {
	case l := <-done:
		return fifo, l.res, l.err
	case <-time.After(10 * time.Second):
		t.Fatal("the load of a FIFO read to its end did not return")
		return fifo, nil, nil
	}
}

// TestLoadFIFOEnds: a FIFO whose writer writes records and closes is read
// to its end and the load returns them: nothing opens it again after
// (the check of a CSV's last row opens regular files only).
func TestLoadFIFOEnds(t *testing.T) {
	_, res, err := loadFIFO(t, "rollouts.jsonl", `{"id":"a","group":"g","metadata":{"x":1}}`+"\n"+`{"id":"b","group":"g","metadata":{"x":2}}`+"\n")
	if err != nil || len(res.Trajectories) != 2 {
		t.Fatalf("Load: %v, %v; want the 2 records", res, err)
	}
}

// TestLoadFIFOUnterminatedCSV: a CSV FIFO whose last row has no line end
// is named as a regular file is, found as it is read (it cannot be
// opened again).
func TestLoadFIFOUnterminatedCSV(t *testing.T) {
	fifo, res, err := loadFIFO(t, "rollouts.csv", "id,group,x\na,g,1\nb,g,1000")
	if want := []Unterminated{{fifo, 3}}; err != nil || !slices.Equal(res.Unterminated, want) {
		t.Fatalf("Load: %v, %v; want %v", res, err, want)
	}
}
