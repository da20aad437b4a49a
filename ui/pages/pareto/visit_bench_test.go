package pareto

import (
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkParetoTabFirstVisit1M measures the Pareto tab's first visit
// with 1M trajectories in one batch, alone: a new tab told of the
// session, its projection job run (ms-job), the job's message drawn and
// viewed (ms-loop, what the event loop spends on it).
func BenchmarkParetoTabFirstVisit1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	b.ReportAllocs()
	var job, loop time.Duration
	for b.Loop() {
		tab := New(c)
		tab.SetSize(120, 40)
		tab.Update(common.SessionChangedMsg{})
		start := time.Now()
		msg := tab.(common.Worker).Job()()
		landed := time.Now()
		tab.Update(msg)
		_ = tab.View()
		job, loop = job+landed.Sub(start), loop+time.Since(landed)
	}
	b.ReportMetric(float64(job.Microseconds())/1000/float64(b.N), "ms-job")
	b.ReportMetric(float64(loop.Microseconds())/1000/float64(b.N), "ms-loop")
}
