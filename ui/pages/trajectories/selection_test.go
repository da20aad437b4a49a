package trajectories

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestTrajectoriesCursorFollowsAReload: the row under the cursor is the
// same trajectory after follow mode read a file again, wherever the
// reload put it (uitest.SelectionFollowsAReload).
func TestTrajectoriesCursorFollowsAReload(t *testing.T) {
	uitest.SelectionFollowsAReload(t, New, func(tab common.Tab, i int) {
		tt := tab.(*trajectoriesTab)
		for range tt.rows.len() {
			if tt.rows.at(tt.list.Table.Cursor()) == i {
				return
			}
			tab.Update(uitest.KeyPress("down"))
		}
	}, func(tab common.Tab) int {
		tt := tab.(*trajectoriesTab)
		return tt.rows.at(tt.list.Table.Cursor())
	})
}
