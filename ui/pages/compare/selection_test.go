package compare

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestCompareSelectionFollowsAReload: the point chosen is the same
// trajectory after follow mode read a file again, wherever the reload
// put it (uitest.SelectionFollowsAReload).
func TestCompareSelectionFollowsAReload(t *testing.T) {
	selected := func(tab common.Tab) int {
		ct := tab.(*compareTab)
		if ct.selected >= len(ct.cmp.Index) {
			return -1
		}
		return ct.cmp.Index[ct.selected]
	}
	uitest.SelectionFollowsAReload(t, New, func(tab common.Tab, i int) {
		n := tab.(*compareTab).cmp.N
		for range n {
			tab.Update(uitest.KeyPress("left"))
		}
		for range n {
			if selected(tab) == i {
				return
			}
			tab.Update(uitest.KeyPress("right"))
		}
	}, selected)
}
