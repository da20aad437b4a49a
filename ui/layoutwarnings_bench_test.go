package ui

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// scanningWarnings is a layout's warnings (session.Session.LayoutWarnings)
// that reads every row of the batches asked, as the layouts' NaN groups
// do: one warning, how many valid rows have a first objective above 0.5.
func scanningWarnings(res *engine.Result, batches []int) []string {
	above := 0
	for _, bi := range batches {
		for _, g := range res.Ranking.Batches[bi].Groups {
			for _, i := range g.Members {
				if res.Evaluation.Valid[i] && res.Evaluation.Row(i)[0] > 0.5 {
					above++
				}
			}
		}
	}
	return []string{fmt.Sprintf("%d rows above 0.5", above)}
}

// BenchmarkLayoutWarningsSwitch1M measures what a method switch costs the
// event loop at a million trajectories (one batch, groups of 8) with a
// layout's warnings that scan the run ("scanning") and without
// ("none", the reference): the key and the recompute's result landing,
// then the frame ("ms-loop", the median); the recompute itself and the
// background work between switches are not timed.
func BenchmarkLayoutWarningsSwitch1M(b *testing.B) {
	for _, c := range []struct {
		name string
		warn func(*engine.Result, []int) []string
	}{{"none", nil}, {"scanning", scanningWarnings}} {
		b.Run(c.name, func(b *testing.B) {
			s := uitest.SyntheticSession(b, 1_000_000)
			s.LayoutWarnings = c.warn
			m := settledModel(s)
			runtime.GC() // the sessions of the runs before are garbage
			var loop []time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				m.Update(uitest.KeyPress("m"))
				keyed := time.Since(start)
				b.StopTimer()
				msg := m.rc.next()
				b.StartTimer()
				start = time.Now()
				m.Update(msg)
				_ = m.View()
				loop = append(loop, keyed+time.Since(start))
				b.StopTimer()
				m.Settle()
				b.StartTimer()
			}
			b.ReportMetric(median(loop), "ms-loop")
		})
	}
}
