package compare

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestCompareReadFollowsAReload: a trajectory open when follow mode reads
// a file again is shown where it is now, or closed when gone
// (uitest.ReloadReads).
func TestCompareReadFollowsAReload(t *testing.T) {
	uitest.ReloadReads(t, New, func(tab common.Tab, i int) {
		ct := tab.(*compareTab)
		ct.selected = slices.Index(ct.cmp.Index, i)
		tab.Update(uitest.KeyPress("enter"))
	}, func(tab common.Tab) (bool, string) {
		ct := tab.(*compareTab)
		return ct.reading, ct.read.Opened.Full.ID
	})
}
