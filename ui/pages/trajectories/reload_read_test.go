package trajectories

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestTrajectoriesReadFollowsAReload: a trajectory open when follow mode
// reads a file again is shown where it is now, or closed when gone
// (uitest.ReloadReads).
func TestTrajectoriesReadFollowsAReload(t *testing.T) {
	uitest.ReloadReads(t, New, func(tab common.Tab, i int) {
		tt := tab.(*trajectoriesTab)
		tt.list.Table.SetCursor(tt.rows.position(i))
		tab.Update(uitest.KeyPress("enter"))
	}, func(tab common.Tab) (bool, string) {
		tt := tab.(*trajectoriesTab)
		return tt.mode == reading, tt.list.Opened.Full.ID
	})
}
