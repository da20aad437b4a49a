package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
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
