package openctx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenFIFOEndsWithContext: opening a FIFO no one writes to waits until
// the context ends, then fails with its error; a regular file opens.
func TestOpenFIFOEndsWithContext(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	f, err := OpenFile(ctx, fifo, os.O_RDONLY, 0)
	if !errors.Is(err, context.Canceled) || f != nil {
		t.Errorf("FIFO without a writer: %v, %v", f, err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("waited %v after the context ended", waited)
	}
	regular := filepath.Join(dir, "file")
	if err := os.WriteFile(regular, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = OpenFile(ctx, regular, os.O_RDONLY, 0) // ctx ended: no wait to end
	if err != nil {
		t.Fatalf("regular file: %v", err)
	}
	f.Close()
}
