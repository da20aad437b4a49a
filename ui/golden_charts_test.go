package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// goldenSizes are the terminal sizes the chart tabs' golden views are
// taken at: the smallest usual terminal, a laptop's, a large screen's.
var goldenSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// selectTabTitled makes the tab titled title active, as its number key
// would: by title, so that renumbering the tabs leaves the test alone.
func selectTabTitled(t *testing.T, m *Model, title string) {
	t.Helper()
	for i, tab := range m.tabs {
		if tab.Title() == title {
			m.selectTab(i)
			settle(m)
			return
		}
	}
	t.Fatalf("no tab titled %q", title)
}

// TestGoldenCharts keeps the whole screen of each chart tab on the
// sample at three sizes (regenerate with go test ./ui -run
// TestGoldenCharts -update).
func TestGoldenCharts(t *testing.T) {
	for _, title := range []string{"Rewards", "Objectives", "Pareto", "Steps", "Compare"} {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", title, size[0], size[1]), func(t *testing.T) {
				m := newTestModel(t, size[0], size[1])
				selectTabTitled(t, m, title)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}
