package live

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// BenchmarkLeavingManySources finds which of the sources an update read
// again have rows (Leaving, as the dashboard and stats --follow ask it
// before Update asks it again): 2^20 rows from 256 files of 4,096 each,
// every file read again (a directory's files rotated), the newest file's
// rows last.
func BenchmarkLeavingManySources(b *testing.B) {
	const n, files = 1 << 20, 256
	s := enginetest.OneObjectiveScorer(b)
	ts := make([]scoring.Trajectory, n)
	replaced := make([]string, files)
	for f := range files {
		replaced[f] = fmt.Sprintf("run-%03d.jsonl", f)
	}
	for i := range ts {
		ts[i] = enginetest.Traj(int64(i/4096), "g", "x", float64(i%7))
		ts[i].Source = replaced[i/(n/files)]
	}
	l := New(s, engine.Evaluate(s, ts), ts)
	b.ResetTimer()
	for b.Loop() {
		if l.Leaving(replaced) == nil {
			b.Fatal("no row leaving")
		}
	}
}
