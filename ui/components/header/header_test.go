package header

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
)

func TestShortenStart(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"sample", 10, "sample"},
		{"abcdefghij", 5, "…ghij"},
		{"abcdefghij", 6, "…fghij"},
		{"../sample_data/trl/completions", 17, "…/trl/completions"},
		{"軌跡軌跡軌跡", 5, "…軌跡"},
	} {
		if got := shortenStart(tc.s, tc.width); got != tc.want || ansi.StringWidth(got) > tc.width {
			t.Errorf("shortenStart(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestNameWidthsSkipWhatCannotFit: the goals' widths are tried from the
// longest name down to "a…", and not at all when not even "a… ↑" a goal
// fits: a thousand objectives cost no sweep on every frame.
func TestNameWidthsSkipWhatCannotFit(t *testing.T) {
	objs := []engine.Objective{{Name: "accuracy"}, {Name: "len"}}
	if got := nameWidths(objs, 80); !slices.Equal(got, []int{8, 7, 6, 5, 4, 3, 2}) {
		t.Errorf("nameWidths = %v, want 8 down to 2", got)
	}
	many := make([]engine.Objective, 1000)
	for k := range many {
		many[k].Name = fmt.Sprintf("objective_%d", k)
	}
	if got := nameWidths(many, 200); got != nil {
		t.Errorf("nameWidths of 1000 objectives in 200 cells = %v, want none", got)
	}
}

// TestFeasibleText: a share just under 1 does not read as 100%, and a
// batch without valid trajectories has no share.
func TestFeasibleText(t *testing.T) {
	st := common.NewStyles(true, true)
	for share, want := range map[float64]string{0.874: "87% feasible", 0.999: ">99% feasible", 1: "100% feasible", 0: "0% feasible", math.NaN(): "– feasible"} {
		if got := ansi.Strip(feasibleText(st, share)); got != want {
			t.Errorf("feasibleText(%v) = %q, want %q", share, got, want)
		}
	}
}
