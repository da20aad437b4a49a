package ui

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newSyntheticSession returns a session on n trajectories of one batch,
// in groups of 8, with three objectives drawn uniformly (the pareto
// computer infers them from the metadata).
func newSyntheticSession(tb testing.TB, n int) *session.Session {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	ts := make([]engine.Trajectory, n)
	for i := range ts {
		ts[i] = engine.Trajectory{
			ID:    fmt.Sprint(i),
			Group: fmt.Sprintf("p%d", i/8),
			Done:  true,
			Metadata: map[string]any{
				"accuracy": float64(rng.IntN(2)),
				"safety":   rng.Float64(),
				"length":   float64(100 + rng.IntN(900)),
			},
		}
	}
	s, err := session.Open("synthetic", engine.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// benchmarkRecomputeView measures what a method switch costs on the
// Rewards tab: the recompute, every tab's refresh, and the next frame.
func benchmarkRecomputeView(b *testing.B, n int) {
	m := NewModel(newSyntheticSession(b, n), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
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
	m := NewModel(newSyntheticSession(b, n), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
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

// newParetoTabBench returns the Pareto tab alone at 120x40 on n
// trajectories of one batch in groups of 8, and two results to swap in,
// what a recompute hands the tab: the session's and grpo's, with scope
// batch when scopeSwitch.
func newParetoTabBench(b *testing.B, n int, scopeSwitch bool) (common.Tab, *session.Session, [2]*engine.Result) {
	s := newSyntheticSession(b, n)
	other := s.Options
	other.Method = engine.GRPO
	if scopeSwitch {
		other.Scope = engine.ScopeBatch
	}
	results := [2]*engine.Result{s.Result, s.Evaluation.Compute(other)}
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := newParetoTab(c)
	tab.SetSize(120, 40)
	tab.Update(common.SessionChangedMsg{})
	_ = tab.View()
	return tab, s, results
}

// BenchmarkParetoTabRecomputeView1M measures the Pareto tab's part of a
// method switch with 1M trajectories in one batch: its refresh on the new
// result (the plot kept as drawn and rendered: the values and the ranking
// are the same) and its view.
func BenchmarkParetoTabRecomputeView1M(b *testing.B) { benchmarkParetoTabRecompute(b, false) }

// BenchmarkParetoTabScopeView1M is BenchmarkParetoTabRecomputeView1M
// switching between scope group and scope batch: ranks, groups and the
// density recounted.
func BenchmarkParetoTabScopeView1M(b *testing.B) { benchmarkParetoTabRecompute(b, true) }

func benchmarkParetoTabRecompute(b *testing.B, scopeSwitch bool) {
	tab, s, results := newParetoTabBench(b, 1_000_000, scopeSwitch)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		s.Result = results[i%2]
		tab.Update(common.SessionChangedMsg{})
		_ = tab.View()
		i++
	}
}

// BenchmarkParetoTabMoveView1M measures moving the selection on the
// Pareto tab with 1M trajectories (the density cached) and its view.
func BenchmarkParetoTabMoveView1M(b *testing.B) {
	tab, _, _ := newParetoTabBench(b, 1_000_000, false)
	keys := []string{"right", "down", "left", "up"}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		pressKeys(tab, keys[i%len(keys)])
		_ = tab.View()
		i++
	}
}

// BenchmarkParetoTabZoomView1M measures a zoom on the Pareto tab with 1M
// trajectories (every point recounted in the new cells) and its view.
func BenchmarkParetoTabZoomView1M(b *testing.B) {
	tab, _, _ := newParetoTabBench(b, 1_000_000, false)
	keys := []string{"+", "-"}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		pressKeys(tab, keys[i%len(keys)])
		_ = tab.View()
		i++
	}
}

// BenchmarkSwitch1M measures a method switch at a million trajectories
// (one batch, groups of 8), as the dashboard does it: the recompute of the
// batch shown, the frame with the header naming the new method, then the
// rest (trends, health) as the background does it.
func BenchmarkSwitch1M(b *testing.B) {
	m := NewModel(newSyntheticSession(b, 1_000_000), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m.Settle()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(keyPress("m"))
		m.Update(m.rc.next())
		_ = m.View()
		b.StopTimer()
		m.Settle()
		b.StartTimer()
	}
}
