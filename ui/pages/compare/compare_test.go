package compare

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

func TestGoldenCompare(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	golden.RequireEqual(t, uitest.Plain(tab))
}
