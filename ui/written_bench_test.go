package ui

import (
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkFilterDroppedGroup1M measures a method switch with the group
// filter on (accuracy) over 1M trajectories in one batch while a dropped
// group is open: on the event loop, the recompute's message, the tab's
// refresh and the frame, then the written job's message and the frame
// ("ms-loop"); off it, the job of what compute writes of the dropped
// trajectories ("ms-written": the Prepare of the run without the filter
// that the group's first frame ran on the event loop before), and the
// first such job, on the evaluation as loaded ("ms-written-first", one a
// run: its median is over runs, -count).
func BenchmarkFilterDroppedGroup1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	if err := s.SetFilterGroups("accuracy"); err != nil {
		b.Fatal(err)
	}
	m := newBenchModel(s)
	// The job starts only once a tab shows a dropped trajectory's written
	// value: here, the dropped group opened.
	m.Update(common.ShowGroupMsg{Trajectory: slices.Index(s.Filter.Kept, false)})
	if m.writtenNext == nil {
		b.Fatal("no written job once a dropped group is open")
	}
	start := time.Now()
	m.Update(m.writtenNext())
	first := time.Since(start)
	m.Settle()
	var loop, written []time.Duration
	for b.Loop() {
		m.Update(uitest.KeyPress("m"))
		msg := m.rc.next()
		start := time.Now()
		m.Update(msg)
		_ = m.View()
		shown := time.Now()
		if m.writtenNext == nil {
			b.Fatal("no written job after the switch")
		}
		w := m.writtenNext()
		computed := time.Now()
		m.Update(w)
		_ = m.View()
		end := time.Now()
		loop, written = append(loop, shown.Sub(start)+end.Sub(computed)), append(written, computed.Sub(shown))
	}
	b.ReportMetric(median(loop), "ms-loop")
	b.ReportMetric(median(written), "ms-written")
	b.ReportMetric(float64(first)/float64(time.Millisecond), "ms-written-first")
}
