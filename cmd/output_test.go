package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/output"
)

// TestWriteChunksInOrder checks that the parallel writer writes every
// chunk once, in order, whatever the chunk size.
func TestWriteChunksInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 10_000} {
		for _, chunk := range []int{1, 3, 64, 20_000} {
			var want, got bytes.Buffer
			for i := range n {
				fmt.Fprintf(&want, "%d\n", i)
			}
			err := writeChunks(&got, n, chunk, func(buf []byte, lo, hi int) []byte {
				for i := lo; i < hi; i++ {
					buf = strconv.AppendInt(buf, int64(i), 10)
					buf = append(buf, '\n')
				}
				return buf
			})
			if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("n=%d chunk=%d: err %v, output differs", n, chunk, err)
			}
		}
	}
}

type failingWriter struct{ left int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.left == 0 {
		return 0, errors.New("disk full")
	}
	w.left--
	return len(p), nil
}

// TestWriteChunksStopsOnError checks that a write error is returned and
// ends the writing without blocking.
func TestWriteChunksStopsOnError(t *testing.T) {
	err := writeChunks(&failingWriter{left: 3}, 100_000, 10, func(buf []byte, lo, hi int) []byte {
		return append(buf, 'x')
	})
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("err = %v, want disk full", err)
	}
}

// benchResult returns the IDs of n trajectories in groups of 8 with two
// objectives, and their pareto rewards.
func benchResult(b *testing.B, n int) (*idList, *engine.Result) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID:       fmt.Sprintf("t%d", i),
			Group:    fmt.Sprintf("g%d", i/8),
			Done:     true,
			Metadata: map[string]any{"o1": rng.Float64(), "o2": rng.Float64()},
		}
	}
	cfg, err := setup.Config{}.InferObjectives(&ts[0])
	if err != nil {
		b.Fatal(err)
	}
	c, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ids := &idList{}
	for i := range ts {
		ids.add(ts[i].ID)
	}
	return ids, c.Compute(ts, engine.Pareto)
}

// BenchmarkWriteRewards formats compute's JSONL output of 1M trajectories
// with two objectives (about 190 MB) and discards it.
func BenchmarkWriteRewards(b *testing.B) {
	ids, res := benchResult(b, 1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		parts := output.StartRecordParts(res.Evaluation, ids.at, rewardChunk)
		if err := writeRewards(io.Discard, "jsonl", ids, parts, res, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
