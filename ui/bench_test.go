package ui

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// newSyntheticSession returns a session on n trajectories of one batch,
// in groups of 8, with three objectives drawn uniformly (the pareto
// computer infers them from the metadata).
func newSyntheticSession(tb testing.TB, n int) *Session {
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
	s, err := openSession("synthetic", engine.Config{}, &loaders.Result{Trajectories: ts}, nil)
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
