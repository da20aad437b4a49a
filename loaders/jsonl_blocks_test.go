// The race detector makes sync.Pool drop some of what is put back, at
// random, so the blocks this test counts on are not all kept under it.

//go:build !race

package loaders

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// TestJSONLReadingsReuseBlocks reads a JSONL text of a few blocks again
// and again, as a followed file's growth is read part after part, a
// reading each: a reading after the first makes no block anew, so it
// allocates less than the first by at least a block's text.
func TestJSONLReadingsReuseBlocks(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 4*jsonread.BlockBytes; i++ {
		fmt.Fprintf(&b, `{"id": "t%d", "group": "g%d", "response": "The answer is %d.", "metadata": {"o1": %d.25, "o2": 0.5}}`+"\n", i, i/8, i%97, i)
	}
	text := b.String()
	lines := strings.Count(text, "\n")
	pick := &scoring.Pick{Keys: []string{"o1", "o2"}}
	opts := Options{Pick: func(*scoring.Trajectory) *scoring.Pick { return pick }}
	// No collection meanwhile: it would empty the blocks kept.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	read := func() uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n := 0
		if _, err := read(strings.NewReader(text), "t.jsonl", 0, opts, 0, func(ts []scoring.Trajectory) error { n += len(ts); return nil }); err != nil || n != lines {
			t.Fatalf("%v: %d trajectories, want %d", err, n, lines)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	first := read()
	for range 3 {
		if got := read(); got+jsonread.BlockBytes > first {
			t.Errorf("a reading allocated %d bytes, the first %d: blocks made anew", got, first)
		}
	}
}
