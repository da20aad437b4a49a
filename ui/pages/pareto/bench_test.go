package pareto

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newParetoTabBench returns the Pareto tab alone at 120x40 on n
// trajectories of one batch in groups of 8, and two results to swap in,
// what a recompute hands the tab: the session's and grpo's, with scope
// batch when scopeSwitch.
func newParetoTabBench(b *testing.B, n int, scopeSwitch bool) (common.Tab, *session.Session, [2]*engine.Result) {
	s := uitest.SyntheticSession(b, n)
	other := s.Options
	other.Method = engine.GRPO
	if scopeSwitch {
		other.Scope = engine.ScopeBatch
	}
	results := [2]*engine.Result{s.Result, s.Evaluation.Compute(other)}
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c)
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
		uitest.PressKeys(tab, keys[i%len(keys)])
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
		uitest.PressKeys(tab, keys[i%len(keys)])
		_ = tab.View()
		i++
	}
}
