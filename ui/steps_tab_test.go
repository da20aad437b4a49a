package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
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

// newStepsTabOf returns the Steps tab on the sample's first n batches, at
// width x 40, without colour.
func newStepsTabOf(t *testing.T, n, width int) (Tab, *Session) {
	t.Helper()
	cfg, res := sampletest.Read(t)
	var ts []engine.Trajectory
	for _, tr := range res.Trajectories {
		if tr.Batch < int64(n) {
			ts = append(ts, tr)
		}
	}
	res.Trajectories = ts
	s, err := openSession("sample", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Common{Width: width, Height: 40, Styles: NewStyles(true, true), Session: s}
	tab := newStepsTab(c)
	tab.SetSize(width, 40)
	tab.Update(SessionChangedMsg{})
	return tab, s
}

// axisLabel is a label under a chart's x axis and its first column.
type axisLabel struct {
	start int
	text  string
}

// chartAxis returns, on the cth chart of the first row, the column of the
// current batch's marker and the labels under the x axis.
func chartAxis(t *testing.T, tab Tab, c int) (marker int, labels []axisLabel) {
	t.Helper()
	view := plain(tab)
	_, _, w, _ := tab.(*stepsTab).layout()
	lines := strings.Split(view, "\n")
	marker = -1
	for i := 2; i+1 < len(lines); i++ { // under the legend and the title
		row := []rune(lines[i])[c*w : (c+1)*w]
		if j := slices.IndexFunc(row, func(r rune) bool { return r == '┊' || r == '◆' }); j >= 0 && marker < 0 {
			marker = j
		}
		if !slices.Contains(row, '└') {
			continue
		}
		for j, r := range []rune(lines[i+1])[c*w : (c+1)*w] {
			switch {
			case r == ' ':
			case len(labels) > 0 && labels[len(labels)-1].start+len(labels[len(labels)-1].text) == j:
				labels[len(labels)-1].text += string(r)
			default:
				labels = append(labels, axisLabel{j, string(r)})
			}
		}
		if marker < 0 {
			t.Fatalf("no marker on chart %d:\n%s", c, view)
		}
		return marker, labels
	}
	t.Fatalf("no x axis on chart %d:\n%s", c, view)
	return 0, nil
}

// TestStepsLabelTheirPoints: each step's label on the x axis is centred on
// the column of its points, which the current batch's marker shows; with
// many steps, every kth is labelled, without overlap.
func TestStepsLabelTheirPoints(t *testing.T) {
	for _, tc := range []struct{ batches, width, stride int }{
		{1, 120, 1}, {2, 120, 1}, {3, 120, 1}, {7, 120, 1}, {7, 80, 1}, {40, 120, 5}, {40, 80, 5}, {40, 60, 10},
	} {
		t.Run(fmt.Sprintf("%d batches at %d columns", tc.batches, tc.width), func(t *testing.T) {
			tab, s := newStepsTabOf(t, tc.batches, tc.width)
			trends := tab.(*stepsTab).trends
			if len(trends) != tc.batches {
				t.Fatalf("%d batches, want %d", len(trends), tc.batches)
			}
			cols, _, _, _ := tab.(*stepsTab).layout()
			for c := range cols {
				checkStepLabels(t, tab, s, c, tc.stride)
			}
		})
	}
}

// checkStepLabels checks the labels of the cth chart of the first row:
// every strideth step's, each centred on the column of its points.
func checkStepLabels(t *testing.T, tab Tab, s *Session, c, stride int) {
	t.Helper()
	trends := tab.(*stepsTab).trends
	_, labels := chartAxis(t, tab, c)
	var want []string
	for b := 0; b < len(trends); b += stride {
		want = append(want, strconv.FormatInt(trends[b].Step, 10))
	}
	var got []string
	for _, l := range labels {
		got = append(got, l.text)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("chart %d: x labels %q, want %q:\n%s", c, got, want, plain(tab))
	}
	for j, l := range labels {
		showBatch(tab, s, j*stride)
		marker, _ := chartAxis(t, tab, c)
		if centre := l.start + (len(l.text)-1)/2; centre != marker {
			t.Errorf("chart %d: step %s labelled around column %d, its points are in column %d:\n%s", c, l.text, centre, marker, plain(tab))
		}
	}
}
