package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newBenchModel returns the dashboard on s at 120x40, where the
// benchmarks start: initialised and sized but not settled, so that what
// runs after the first frame (health, the written job) is left to them.
func newBenchModel(s *session.Session) *Model {
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

// benchmarkRecomputeView measures what a method switch costs on the
// Rewards tab: the recompute, every tab's refresh, and the next frame.
func benchmarkRecomputeView(b *testing.B, n int) {
	m := newBenchModel(uitest.SyntheticSession(b, n))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		press(m, "m")
		_ = m.View()
	}
}

func BenchmarkRecomputeView10k(b *testing.B)  { benchmarkRecomputeView(b, 10_000) }
func BenchmarkRecomputeView100k(b *testing.B) { benchmarkRecomputeView(b, 100_000) }

// newParetoBench returns the dashboard at 120x40 on n trajectories of one
// batch in groups of 8, on the Pareto tab, its first frame drawn.
func newParetoBench(b *testing.B, n int) *Model {
	m := newBenchModel(uitest.SyntheticSession(b, n))
	for i, t := range m.tabs {
		if t.Title() == "Pareto" {
			m.selectTab(i)
		}
	}
	settle(m)
	_ = m.View()
	return m
}

// BenchmarkParetoRecomputeView1M measures a method switch on the Pareto
// tab with 1M trajectories in one batch, from the key to the new frame:
// the engine's recompute, the tab's refresh and the frame
// (benchmarkSwitchToScreen).
func BenchmarkParetoRecomputeView1M(b *testing.B) {
	benchmarkSwitchToScreen(b, newParetoBench(b, 1_000_000))
}

// BenchmarkSwitch1M measures a method switch at a million trajectories
// (one batch, groups of 8), as the dashboard does it: the recompute of the
// batch shown, the frame with the header naming the new method, then the
// rest (trends, health) as the background does it.
func BenchmarkSwitch1M(b *testing.B) {
	benchmarkSwitches(b, settledModel(uitest.SyntheticSession(b, 1_000_000)))
}

// settledModel returns the dashboard on s at 140x45, its first result's
// health computed (Settle).
func settledModel(s *session.Session) *Model { return openModel(s, 140, 45) }

// benchmarkSwitches measures method switches on m as it is: m, the
// recompute, the frame; the background work settled between them,
// untimed. loop-ns/op is the part on the event loop: the key, the
// recompute's result shown and the frame, without the recompute's
// command.
func benchmarkSwitches(b *testing.B, m *Model) {
	b.ReportAllocs()
	var loop time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		m.Update(uitest.KeyPress("m"))
		loop += time.Since(start)
		msg := m.rc.next()
		start = time.Now()
		m.Update(msg)
		_ = m.View()
		loop += time.Since(start)
		b.StopTimer()
		m.Settle()
		b.StartTimer()
	}
	b.ReportMetric(float64(loop.Nanoseconds())/float64(b.N), "loop-ns/op")
}

// BenchmarkFrame1M measures drawing a frame of the dashboard settled on a
// million trajectories (one batch, groups of 8) at 140x45, the Rewards
// tab shown: what every message that changes the screen costs on the
// event loop beside its own work. remeasured, the reference, measures
// the widest tab bar and draws the footer for each frame, as it once
// did.
func BenchmarkFrame1M(b *testing.B) {
	m := settledModel(uitest.SyntheticSession(b, 1_000_000))
	for _, remeasure := range []bool{false, true} {
		b.Run(map[bool]string{false: "cached", true: "remeasured"}[remeasure], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.frameValid = false
				if remeasure {
					m.tabBarWidest.measured, m.footer.drawn = false, false
				}
				_ = m.View()
			}
		})
	}
}
