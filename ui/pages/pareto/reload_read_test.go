package pareto

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestParetoReadFollowsAReload: a trajectory open when follow mode reads
// a file again is shown where it is now, or closed when gone
// (uitest.ReloadReads).
func TestParetoReadFollowsAReload(t *testing.T) {
	uitest.ReloadReads(t, New, func(tab common.Tab, i int) {
		p := tab.(*paretoTab)
		p.selected = slices.Index(p.points.proj.Index, i)
		tab.Update(uitest.KeyPress("enter"))
	}, func(tab common.Tab) (bool, string) {
		p := tab.(*paretoTab)
		return p.reader.reading, p.reader.Opened.Full.ID
	})
}
