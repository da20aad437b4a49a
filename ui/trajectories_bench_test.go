package ui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newTrajectoriesBench returns the dashboard at 140x45 on 1M trajectories
// in one batch (groups of 8), its first frame drawn and its health
// computed, with method B's result computed as the idle dashboard's
// prefetch computes it (prefetch.go) before the tab's first visit.
func newTrajectoriesBench(b *testing.B, s *Model) *Model {
	s.Init()
	s.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	s.Settle()
	sess := s.common.Session
	if opts, ok := sess.CompareNeeded(sess.Result.Options); ok {
		if !sess.SetCompare(sess.Evaluation.Compute(opts)) {
			b.Fatal("method B's result not taken")
		}
	}
	_ = s.View()
	return s
}

// showTrajectories makes the Trajectories tab active, and returns the
// command that left (the sort of the whole order).
func showTrajectories(m *Model) tea.Cmd {
	for i, t := range m.tabs {
		if t.Title() == "Trajectories" {
			return m.selectTab(i)
		}
	}
	return nil
}

// BenchmarkTrajectoriesFirstVisit1M measures the Trajectories tab's first
// visit on 1M trajectories in one batch: its key to its table drawn,
// method B's result already computed (by the idle prefetch). The
// command the visit leaves (the sort of the whole order, off the event
// loop) is not run.
func BenchmarkTrajectoriesFirstVisit1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := newTrajectoriesBench(b, NewModel(s, true))
		b.StartTimer()
		showTrajectories(m)
		_ = m.View()
	}
}

// BenchmarkTrajectoriesSwitch1M measures a method switch while the
// Trajectories tab is shown, 1M trajectories in one batch: m, the
// recompute, the tab's rebuild and the frame.
func BenchmarkTrajectoriesSwitch1M(b *testing.B) {
	m := newTrajectoriesBench(b, NewModel(uitest.SyntheticSession(b, 1_000_000), true))
	runCmds(m, showTrajectories(m))
	m.Settle()
	_ = m.View()
	benchmarkSwitches(b, m)
}

// BenchmarkTrajectoriesSortFinish1M measures s onto the finish column on
// 1M trajectories in one batch whose records have a finish_reason: the
// key to its frame, the tab saying it is sorting. The command it leaves
// (reading every record, off the event loop) is not run.
func BenchmarkTrajectoriesSortFinish1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	s.Fields = append(s.Fields, "finish_reason")
	m := newTrajectoriesBench(b, NewModel(s, true))
	runCmds(m, showTrajectories(m))
	m.Settle()
	_ = m.View()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for !strings.Contains(m.View().Content, "sorted by crowding") { // the column before finish_reason
			_, cmd := m.Update(uitest.KeyPress("s"))
			runCmds(m, cmd)
		}
		b.StartTimer()
		m.Update(uitest.KeyPress("s"))
		v := m.View()
		b.StopTimer()
		if !strings.Contains(v.Content, "sorting by finish_reason") {
			b.Fatalf("s from crowding does not sort by finish_reason:\n%s", v.Content)
		}
		b.StartTimer()
	}
}

// zeroSpreadSession returns a session under grpo on steps batches of
// perStep trajectories in groups of 8, SyntheticSession's objectives,
// every fourth group's scores all equal (zero spread: its rewards are
// settled, engine.Result.Settled).
func zeroSpreadSession(b *testing.B, steps, perStep int) *session.Session {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 13))
	ts := make([]scoring.Trajectory, steps*perStep)
	for i := range ts {
		md := map[string]any{"accuracy": float64(rng.IntN(2)), "safety": rng.Float64(), "length": float64(100 + rng.IntN(900))}
		if i/8%4 == 0 {
			md = map[string]any{"accuracy": 1.0, "safety": 0.9369000000000001, "length": 300.0}
		}
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(i / perStep), Group: fmt.Sprintf("p%d", i/8), Done: true, Metadata: md}
	}
	s, err := session.Open("zero-spread", setup.Config{Method: "grpo"}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkTrajectoriesSwitch1000Batches measures a switch between grpo
// and rloo while the Trajectories tab is shown, on 1,000 batches of
// 1,024 trajectories with groups of zero spread: m's recompute (of the
// batch shown), the tab's rebuild and the frame. The other batches'
// rewards, which the dashboard computes off the event loop, are not.
func BenchmarkTrajectoriesSwitch1000Batches(b *testing.B) {
	m := newTrajectoriesBench(b, NewModel(zeroSpreadSession(b, 1000, 1024), true))
	runCmds(m, showTrajectories(m))
	m.Settle()
	_ = m.View()
	s := m.common.Session
	b.ReportAllocs()
	for b.Loop() {
		if s.Options.Method == engine.GRPO {
			s.Options.Method = engine.RLOO
		} else {
			s.Options.Method = engine.GRPO
		}
		m.recompute()
		m.Update(m.rc.next())
		v := m.View()
		b.StopTimer()
		if s.Result.Options.Method != s.Options.Method || !strings.Contains(v.Content, "score  "+string(s.Options.Method)) {
			b.Fatalf("the switch to %s not shown:\n%s", s.Options.Method, v.Content)
		}
		m.Settle()
		b.StartTimer()
	}
}
