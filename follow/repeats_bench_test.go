package follow

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testkit"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/duplicates"
)

// BenchmarkRepeats notes a million IDs, in updates of 4096 (a followed
// run's lines), against duplicates.Count of the same IDs at once (what
// stats does of a whole reading), the reference in the same run.
func BenchmarkRepeats(b *testing.B) {
	const n, update = 1 << 20, 4096
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: fmt.Sprintf("s%d-g%d-c%d", i/256, i/8%32, i%8), Batch: int64(i / 256), LoaderState: scoring.LoaderState{Source: "run.jsonl"}}
	}
	b.Run("follow.Repeats", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r Repeats
			for lo := 0; lo < n; lo += update {
				r.Add(ts[lo : lo+update])
				r.TakeWarning()
			}
		}
	})
	b.Run("duplicates.Count", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			duplicates.Count(n, func(i int) string { return ts[i].ID })
		}
	})
}

// BenchmarkSeedFirstReading notes the IDs of a first reading of a million
// trajectories as the dashboard opening a followed run does: Seed giving
// the opening's warning its count (one pass over the IDs), against
// duplicates.Count for the warning then Seed for the updates (two
// passes, the reference in the same run). cpu-ms/op is the process's
// CPU time, every thread's (the collector's too).
func BenchmarkSeedFirstReading(b *testing.B) {
	const n = 1 << 20
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: fmt.Sprintf("s%d-g%d-c%d", i/256, i/8%32, i%8), Batch: int64(i / 256), LoaderState: scoring.LoaderState{Source: "run.jsonl"}}
	}
	at := func(i int) *scoring.Trajectory { return &ts[i] }
	run := func(name string, count bool) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := testkit.CPUTime()
			for b.Loop() {
				if count {
					duplicates.Count(n, func(i int) string { return ts[i].ID })
				}
				var r Repeats
				r.Seed(n, at)
			}
			testkit.ReportCPU(b, testkit.CPUTime()-cpu)
		})
	}
	run("Seed", false)
	run("Count+Seed", true)
}
