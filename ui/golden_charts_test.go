package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/chart"
)

// selectTabTitled makes the tab titled title active, as its number key
// would: by title, so that renumbering the tabs leaves the test alone.
func selectTabTitled(t *testing.T, m *Model, title string) {
	t.Helper()
	for i, tab := range m.tabs {
		if tab.Title() == title {
			press(m, strconv.Itoa(i+1)) // through Update, as a person would
			return
		}
	}
	t.Fatalf("no tab titled %q", title)
}

// yLabels returns the rows and values of the tick labels left of the
// first ┤ of each line of view that has one within its first 12 columns.
func yLabels(t *testing.T, view string) (rows []int, values []float64) {
	t.Helper()
	for i, line := range strings.Split(view, "\n") {
		runes := []rune(line)
		j := slices.Index(runes, '┤')
		if j < 0 || j > 12 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(runes[:j])), 64)
		if err != nil {
			t.Fatalf("line %d: tick label %q: %v", i, string(runes[:j]), err)
		}
		rows, values = append(rows, i), append(values, v)
	}
	return rows, values
}

// TestScattersHaveNiceRegularTicks reads the y axis of the Pareto and
// Compare tabs off the screen at three sizes: at least two labels, equally
// many rows apart, decreasing by the same nice step, each written with the
// decimals of that step.
func TestScattersHaveNiceRegularTicks(t *testing.T) {
	for _, title := range []string{"Pareto", "Compare"} {
		for _, size := range goldenSizes {
			m := newTestModel(t, size[0], size[1])
			selectTabTitled(t, m, title)
			view := screen(m)
			rows, values := yLabels(t, view)
			if len(rows) < 2 {
				t.Fatalf("%s at %v: %d y labels:\n%s", title, size, len(rows), view)
			}
			step := values[0] - values[1]
			if !chart.IsNice(step) {
				t.Errorf("%s at %v: y step %v is not nice", title, size, step)
			}
			for k := 1; k < len(rows); k++ {
				if rows[k]-rows[k-1] != rows[1]-rows[0] || math.Abs(values[k-1]-values[k]-step) > 1e-9*step {
					t.Errorf("%s at %v: irregular y ticks %v at rows %v", title, size, values, rows)
					break
				}
			}
		}
	}
}
