package loaders

import (
	"context"
	"io"
)

// contextReader is r failing with ctx's error once ctx is done, so that a
// long load stops at its next read when the user interrupts it (ctrl+c,
// SIGTERM) rather than reading on to the end. A read already blocked (a
// pipe with nothing to say) still waits for its data.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

// withContext returns r reading under ctx, or r itself when ctx is nil.
func withContext(ctx context.Context, r io.Reader) io.Reader {
	if ctx == nil {
		return r
	}
	return contextReader{ctx, r}
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
