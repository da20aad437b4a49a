package pareto

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestParetoSelectionFollowsAReload: the point selected is the same
// trajectory after follow mode read a file again, wherever the reload
// put it (uitest.SelectionFollowsAReload).
func TestParetoSelectionFollowsAReload(t *testing.T) {
	uitest.SelectionFollowsAReload(t, New, func(tab common.Tab, i int) {
		p := tab.(*paretoTab)
		n := len(p.points.proj.Index)
		for range n {
			tab.Update(uitest.KeyPress("left"))
		}
		for range n {
			if p.selectedTrajectory() == i {
				return
			}
			tab.Update(uitest.KeyPress("right"))
		}
	}, func(tab common.Tab) int { return tab.(*paretoTab).selectedTrajectory() })
}
