package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// benchmarkFirstVisit measures the first visit of the tab titled title
// on 1M trajectories in one batch (groups of 8): its key to its content
// drawn, every job it starts run to the end.
func benchmarkFirstVisit(b *testing.B, title string) {
	s := uitest.SyntheticSession(b, 1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := NewModel(s, true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
		m.Settle()
		b.StartTimer()
		for i, t := range m.tabs {
			if t.Title() == title {
				m.selectTab(i)
			}
		}
		m.Settle()
		_ = m.View()
	}
}

func BenchmarkCompareFirstVisit1M(b *testing.B) { benchmarkFirstVisit(b, "Compare") }
func BenchmarkParetoFirstVisit1M(b *testing.B)  { benchmarkFirstVisit(b, "Pareto") }
func BenchmarkPromptsFirstVisit1M(b *testing.B) { benchmarkFirstVisit(b, "Prompts") }
