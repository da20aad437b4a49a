package groups

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestGroupsCursorFollowsAReload: in an open group, the completion under
// the cursor is the same trajectory after follow mode read a file again,
// wherever the reload put it (uitest.SelectionFollowsAReload).
func TestGroupsCursorFollowsAReload(t *testing.T) {
	uitest.SelectionFollowsAReload(t, New, func(tab common.Tab, i int) {
		tab.(*groupsTab).ShowGroup(i)
	}, func(tab common.Tab) int { return tab.(*groupsTab).group.selected() })
}
