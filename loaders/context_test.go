package loaders

import (
	"context"
	"errors"
	"testing"
	"time"
)

// slowReader is an endless stream, head then body again and again, that
// takes a while per read: a large file on a slow disk, or a pipe.
type slowReader struct {
	head, body string
	delay      time.Duration
	started    bool
}

func (s *slowReader) Read(p []byte) (int, error) {
	time.Sleep(s.delay)
	if !s.started {
		s.started = true
		return copy(p, s.head), nil
	}
	return copy(p, s.body), nil
}

// TestContextStopsTheLoad cancels a load from an endless slow stream: it
// stops at the next read, with the context's error, in every format.
func TestContextStopsTheLoad(t *testing.T) {
	for format, stream := range map[Format]*slowReader{
		JSONL: {body: `{"metadata":{"accuracy":1}}` + "\n"},
		JSON:  {head: "[", body: `{"metadata":{"accuracy":1}},`},
		CSV:   {head: "accuracy\n", body: "1\n"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		stream.delay = time.Millisecond
		done := make(chan error, 1)
		go func() {
			_, err := Load([]string{"-"}, Options{Format: format, Stdin: stream, Context: ctx})
			done <- err
		}()
		time.Sleep(50 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: error %v, want the context's", format, err)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: the load goes on after its context ended", format)
		}
	}
}
