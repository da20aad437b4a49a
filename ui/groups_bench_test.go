package ui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// reportMedian reports the median of the iterations' times, in ms: the
// bound the dashboard's frames are held to.
func reportMedian(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "ms/median")
}

// BenchmarkGroupsRecomputeView1M measures a method switch on the Groups
// tab with 1M trajectories in one batch, in groups of 8 (125,000 groups):
// the recompute, the tab's rebuild (engine.GroupSummaries, the sort, the
// columns' widths) and the next frame. m walks through every method.
func BenchmarkGroupsRecomputeView1M(b *testing.B) {
	m := NewModel(newSyntheticSession(b, 1_000_000), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "2")
	var times []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		press(m, "m")
		_ = m.View()
		times = append(times, time.Since(start))
	}
	reportMedian(b, times)
}

// BenchmarkGroupsRefreshView1M measures what a recompute costs the event
// loop on the Groups tab, on the same data: the tab's rebuild (the sort,
// the columns' widths) and the next frame; the result and its group
// summaries, which the recompute computes off the event loop, are not
// timed.
func BenchmarkGroupsRefreshView1M(b *testing.B) {
	s := newSyntheticSession(b, 1_000_000)
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "2")
	var times []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		s.Recompute()
		prepareGroups(s.Result, s.Batch) // as a recompute does, off the event loop
		m.frameValid = false
		b.StartTimer()
		start := time.Now()
		m.Update(SessionChangedMsg{}) // to the active tab
		_ = m.View()
		times = append(times, time.Since(start))
	}
	reportMedian(b, times)
}
