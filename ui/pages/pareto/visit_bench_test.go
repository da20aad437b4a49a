package pareto

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkParetoTabFirstVisit1M measures the Pareto tab's first visit
// with 1M trajectories in one batch, alone: a new tab told of the
// session, its projection job run, the job's message drawn and viewed.
func BenchmarkParetoTabFirstVisit1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	b.ReportAllocs()
	for b.Loop() {
		tab := New(c)
		tab.SetSize(120, 40)
		tab.Update(common.SessionChangedMsg{})
		if job := tab.(common.Worker).Job(); job != nil {
			tab.Update(job())
		}
		_ = tab.View()
	}
}
