package ui

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkParetoPrefetchedVisit1M measures the Pareto tab's first visit
// on 1M trajectories in one batch after the idle prefetch
// (prefetchTabs): its key to its content drawn.
func BenchmarkParetoPrefetchedVisit1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := settledModel(s)
		runCmds(m, m.prefetchTabs())
		b.StartTimer()
		for i, t := range m.tabs {
			if t.Title() == "Pareto" {
				m.selectTab(i)
			}
		}
		m.Settle()
		_ = m.View()
	}
}
