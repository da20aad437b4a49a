// Package openctx opens files that may block in open(2) — a FIFO with no
// writer, or with no reader for writing — so that the first ctrl+c or
// SIGTERM (the end of a context) ends the wait.
package openctx

import (
	"context"
	"os"
)

// OpenFile is os.OpenFile(path, flag, perm) that gives up when ctx ends
// first, returning ctx's error; a file it opens after that is closed. A
// nil ctx waits as os.OpenFile does. Regular files never block in open,
// and are opened directly.
func OpenFile(ctx context.Context, path string, flag int, perm os.FileMode) (*os.File, error) {
	if ctx == nil {
		return os.OpenFile(path, flag, perm)
	}
	if st, err := os.Stat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return os.OpenFile(path, flag, perm)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, flag, perm)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() { // the open may still succeed: close what it gives
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}
