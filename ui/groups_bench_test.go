package ui

import (
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// median returns the median of times in ms.
func median(times []time.Duration) float64 {
	if len(times) == 0 {
		return 0
	}
	slices.Sort(times)
	return float64(times[len(times)/2]) / float64(time.Millisecond)
}

// reportMedian reports the median of the iterations' times, in ms: the
// bound the dashboard's frames are held to.
func reportMedian(b *testing.B, times []time.Duration) {
	b.ReportMetric(median(times), "ms/median")
}

// BenchmarkGroupsRecomputeView1M measures a method switch on the Groups
// tab with 1M trajectories in one batch, in groups of 8 (125,000 groups),
// m walking through every method: the recompute, which runs off the event
// loop (the result, its group summaries and trends: "ms-recompute"), then
// on the event loop the tab's rebuild and the next frame ("ms-loop"), and
// both ("ms/median").
func BenchmarkGroupsRecomputeView1M(b *testing.B) {
	m := newBenchModel(uitest.SyntheticSession(b, 1_000_000))
	press(m, "2")
	benchmarkSwitchToScreen(b, m)
}

// benchmarkSwitchToScreen times m walking through every method, from the
// key to the new frame: the recompute, off the event loop
// ("ms-recompute"), then the tab's refresh and the frame on it
// ("ms-loop"), and their sum's median. The health job that a switch
// starts after the screen changed (background.go) is not run.
func benchmarkSwitchToScreen(b *testing.B, m *Model) {
	var total, recompute, loop []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		m.Update(uitest.KeyPress("m"))
		msg := m.rc.next()
		computed := time.Now()
		m.Update(msg)
		_ = m.View()
		end := time.Now()
		total, recompute, loop = append(total, end.Sub(start)), append(recompute, computed.Sub(start)), append(loop, end.Sub(computed))
	}
	b.ReportMetric(median(recompute), "ms-recompute")
	b.ReportMetric(median(loop), "ms-loop")
	reportMedian(b, total)
}

// BenchmarkGroupsRefreshView1M measures what a recompute costs the event
// loop on the Groups tab, on the same data: the tab's rebuild (the sort,
// the columns' widths) and the next frame; the result and its group
// summaries, which the recompute computes off the event loop, are not
// timed.
func BenchmarkGroupsRefreshView1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	m := newBenchModel(s)
	press(m, "2")
	var times []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		s.Recompute()
		m.tabs[m.active].(common.Preparer).Prepare(s.Result, s.Batch) // as a recompute does, off the event loop
		m.frameValid = false
		b.StartTimer()
		start := time.Now()
		m.Update(common.SessionChangedMsg{}) // to the active tab
		_ = m.View()
		times = append(times, time.Since(start))
	}
	reportMedian(b, times)
}
