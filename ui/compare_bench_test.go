package ui

import (
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testkit"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// benchmarkFirstVisit measures the first visit of the tab titled title
// on 1M trajectories in one batch (groups of 8): its key to its content
// drawn, every job it starts run to the end; before (untimed) is run on
// the settled model first, when not nil.
func benchmarkFirstVisit(b *testing.B, title string, before func(m *Model)) {
	s := uitest.SyntheticSession(b, 1_000_000)
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		m := settledModel(s)
		if before != nil {
			before(m)
		}
		b.StartTimer()
		before := testkit.CPUTime()
		for i, t := range m.tabs {
			if t.Title() == title {
				m.selectTab(i)
			}
		}
		m.Settle()
		_ = m.View()
		cpu += testkit.CPUTime() - before
	}
	testkit.ReportCPU(b, cpu)
}

func BenchmarkCompareFirstVisit1M(b *testing.B) { benchmarkFirstVisit(b, "Compare", nil) }
func BenchmarkParetoFirstVisit1M(b *testing.B)  { benchmarkFirstVisit(b, "Pareto", nil) }
func BenchmarkPromptsFirstVisit1M(b *testing.B) { benchmarkFirstVisit(b, "Prompts", nil) }

// BenchmarkCompareSwitch1M measures a switch of method A (m) while the
// Compare tab is shown, on 1M trajectories in one batch, B grpo: the key
// to the tab's content drawn, the recompute of A and the tab's job run to
// the end (the health, computed after, is not timed). Each op is three
// switches from pareto, to the next three methods m cycles to
// (engine.MethodsFor's order).
func BenchmarkCompareSwitch1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	m := settledModel(s)
	for i, t := range m.tabs {
		if t.Title() == "Compare" {
			m.selectTab(i)
		}
	}
	m.Settle()
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		s.Options.Method = engine.Pareto
		m.recompute()
		m.Settle()
		b.StartTimer()
		for range 3 {
			before := testkit.CPUTime()
			m.Update(tea.KeyPressMsg{Code: 'm', Text: "m"})
			m.runForeground()
			_ = m.View()
			cpu += testkit.CPUTime() - before
			b.StopTimer()
			m.Settle()
			b.StartTimer()
		}
	}
	testkit.ReportCPU(b, cpu)
}

// BenchmarkComparePrefetchedVisit1M measures the Compare tab's first
// visit on 1M trajectories in one batch after its prefetch (prefetch.go:
// method B's result, the comparison and its ranking computed hidden): its
// key to its content drawn, on the event loop.
func BenchmarkComparePrefetchedVisit1M(b *testing.B) {
	benchmarkFirstVisit(b, "Compare", func(m *Model) { runCmds(m, m.prefetchOnce()) })
}
