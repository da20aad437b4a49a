package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

func TestGoldenSteps(t *testing.T) {
	tab, s := newSampleTab(t, newStepsTab)
	showBatch(tab, s, 24)
	golden.RequireEqual(t, plain(tab))
}

// markerColumn returns the column of the current batch's marker on the
// first chart's top line, under the legend and the chart's title.
func markerColumn(t *testing.T, tab Tab) int {
	t.Helper()
	lines := strings.Split(plain(tab), "\n")
	i := strings.IndexRune(lines[2], '┊')
	if i < 0 {
		t.Fatalf("no marker on the first chart:\n%s", plain(tab))
	}
	return ansi.StringWidth(lines[2][:i])
}

func TestStepsMarksTheCurrentBatch(t *testing.T) {
	tab, s := newSampleTab(t, newStepsTab)
	first := markerColumn(t, tab)
	trends := &tab.(*stepsTab).trends[0]
	showBatch(tab, s, 30)
	view := plain(tab)
	if n := strings.Count(view, "◆ step 30:"); n != 9 {
		t.Errorf("%d chart titles say the current step is 30, want all 9:\n%s", n, view)
	}
	if markerColumn(t, tab) <= first {
		t.Errorf("the marker did not move right from batch 0 to batch 30:\n%s", view)
	}
	if &tab.(*stepsTab).trends[0] != trends {
		t.Error("a batch change recomputed the trends of an unchanged result")
	}
}

func TestStepsFollowTheResult(t *testing.T) {
	tab, s := newSampleTab(t, newStepsTab)
	before := plain(tab)
	s.Options.Normalize = false
	s.Recompute()
	tab.Update(SessionChangedMsg{})
	if plain(tab) == before {
		t.Error("the charts did not change with the result")
	}
}
