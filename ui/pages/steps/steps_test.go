package steps

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/plot"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestGoldenSteps(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	uitest.ShowBatch(tab, s, 24)
	golden.RequireEqual(t, uitest.Plain(tab))
}

// markerColumn returns the column of the current batch's marker on the
// first chart's top line, under the legend and the chart's title.
func markerColumn(t *testing.T, tab common.Tab) int {
	t.Helper()
	lines := strings.Split(uitest.Plain(tab), "\n")
	i := strings.IndexRune(lines[2], '┊')
	if i < 0 {
		t.Fatalf("no marker on the first chart:\n%s", uitest.Plain(tab))
	}
	return ansi.StringWidth(lines[2][:i])
}

func TestStepsMarksTheCurrentBatch(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	first := markerColumn(t, tab)
	trends := &tab.(*stepsTab).trends[0]
	uitest.ShowBatch(tab, s, 30)
	view := uitest.Plain(tab)
	if n, drawn := strings.Count(view, "◆ step 30:"), len(tab.(*stepsTab).charts); n != drawn {
		t.Errorf("%d chart titles say the current step is 30, want all %d:\n%s", n, drawn, view)
	}
	if markerColumn(t, tab) <= first {
		t.Errorf("the marker did not move right from batch 0 to batch 30:\n%s", view)
	}
	if &tab.(*stepsTab).trends[0] != trends {
		t.Error("a batch change recomputed the trends of an unchanged result")
	}
}

func TestStepsFollowTheResult(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	before := uitest.Plain(tab)
	s.Options.Normalize = false
	s.Recompute()
	uitest.Refresh(tab, s)
	if uitest.Plain(tab) == before {
		t.Error("the charts did not change with the result")
	}
}

// stepsTabOn returns the Steps tab on s at width x height, without colour.
func stepsTabOn(s *session.Session, width, height int) *stepsTab {
	c := &common.Common{Width: width, Height: height, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c)
	tab.SetSize(width, height)
	uitest.Refresh(tab, s)
	return tab.(*stepsTab)
}

// sampleBatches returns a session on the sample's first n batches.
func sampleBatches(t *testing.T, n int) *session.Session {
	t.Helper()
	cfg, res := sampletest.Read(t)
	var ts []scoring.Trajectory
	for _, tr := range res.Trajectories {
		if tr.Batch < int64(n) {
			ts = append(ts, tr)
		}
	}
	res.Trajectories = ts
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// noisySession returns a session of batches batches of 64 trajectories
// in groups of 8 whose objectives are noise.
func noisySession(t *testing.T, batches int) *session.Session {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 9))
	var ts []scoring.Trajectory
	for b := range batches {
		for i := range 64 {
			ts = append(ts, scoring.Trajectory{
				ID: fmt.Sprintf("b%d-%d", b, i), Group: fmt.Sprintf("p%d", i/8), Batch: int64(b), Done: true,
				Metadata: map[string]any{"accuracy": float64(rng.IntN(2)), "safety": rng.Float64(), "length": float64(100 + rng.IntN(900))},
			})
		}
	}
	s, err := session.Open("noisy", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// isBraille reports whether r is a braille pattern.
func isBraille(r rune) bool { return r >= 0x2800 && r <= 0x28FF }

// checkPointsDrawn checks that every finite point of every drawn chart
// falls in its plotting area, above the x axis' row, on a braille dot or
// the current batch's marker, and that the plotting area holds nothing
// but those, the current batch's dotted line and blanks.
func checkPointsDrawn(t *testing.T, tab *stepsTab) {
	t.Helper()
	if len(tab.frames) == 0 {
		t.Fatal("no chart drawn")
	}
	for j, f := range tab.frames {
		s := tab.series[j]
		for b, v := range s.values {
			if math.IsNaN(v) {
				continue
			}
			p, ok := f.Point(float64(tab.trends[b].Step), v)
			if !ok || p.Y >= f.Grid.Y.Cells {
				t.Fatalf("%s: step %d's %v is outside the plotting area (cell %v):\n%s", s.title, tab.trends[b].Step, v, p, f.View())
			}
			if r := f.Canvas.Cell(p).Rune; !isBraille(r) && r != currentRune {
				t.Errorf("%s: step %d's %v shows %q, not a dot:\n%s", s.title, tab.trends[b].Step, v, r, f.View())
			}
		}
		for col := range f.Grid.X.Cells {
			for row := range f.Grid.Y.Cells {
				r := f.Canvas.Cell(f.CellPoint(col, row)).Rune
				if r != 0 && r != ' ' && r != '┊' && r != currentRune && !isBraille(r) {
					t.Errorf("%s: the plot holds %q at column %d, row %d:\n%s", s.title, r, col, row, f.View())
				}
			}
		}
	}
}

// TestStepsDrawEveryPointAboveTheAxis: the sample's collapses (reward std
// after step 33, length mean after 31, step_count from 32) reach the
// bottom of their charts; each point is drawn, none on the axis row.
func TestStepsDrawEveryPointAboveTheAxis(t *testing.T) {
	s := uitest.SampleSession(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		tab := stepsTabOn(s, size[0], size[1])
		for j := range tab.series {
			tab.selected, tab.full = j, true
			tab.draw()
			checkPointsDrawn(t, tab)
		}
	}
}

// TestStepsNoisyBatchesAreBrailleLines: 50 batches of noise make braille
// lines, no box-drawing connectors.
func TestStepsNoisyBatchesAreBrailleLines(t *testing.T) {
	tab := stepsTabOn(noisySession(t, 50), 120, 40)
	checkPointsDrawn(t, tab)
	for _, line := range strings.Split(uitest.Plain(tab), "\n") {
		if strings.Contains(line, "└") {
			continue // the x axis' ┬ ticks
		}
		if strings.ContainsAny(line, "┬┴┼╵╷╭╮╯╰") {
			t.Errorf("a connector glyph in %q", line)
		}
	}
}

// checkYTicks checks that a chart's y ticks are nice, regular and
// distinct, and that a non-negative series shows no negative value.
func checkYTicks(t *testing.T, s stepSeries, f *plot.Frame) {
	t.Helper()
	y := f.Grid.Y
	ticks := y.Ticks()
	if !chart.IsNice(y.Step) || len(ticks) == 0 {
		t.Errorf("%s: y step %v, %d ticks", s.title, y.Step, len(ticks))
	}
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if len(slices.Compact(slices.Clone(labels))) != len(labels) {
		t.Errorf("%s: repeated labels %q", s.title, labels)
	}
	if s.nonNegative && y.Min < 0 {
		t.Errorf("%s: a non-negative series on an axis from %v", s.title, y.Min)
	}
}

// TestStepsOneBatch: a single batch makes one point per chart in the
// middle of a sensible axis: nice ticks, no negative range for a
// non-negative quantity, a constant in the middle (0 of a non-negative
// quantity at the bottom).
func TestStepsOneBatch(t *testing.T) {
	tab := stepsTabOn(sampleBatches(t, 1), 120, 60)
	if len(tab.frames) != len(tab.series) {
		t.Fatalf("%d charts drawn of %d", len(tab.frames), len(tab.series))
	}
	checkPointsDrawn(t, tab)
	for j, f := range tab.frames {
		s := tab.series[j]
		checkYTicks(t, s, f)
		v := s.values[0]
		row := f.Grid.Y.Cell(v)
		middle := (f.Grid.Y.Cells - 1) / 2
		if s.nonNegative && !s.integer && v == 0 {
			middle = 0
		}
		if row < middle-1 || row > middle+1 {
			t.Errorf("%s: the constant %v on row %d of %d, want the middle (%d):\n%s", s.title, v, row, f.Grid.Y.Cells, middle, f.View())
		}
		col := f.Grid.X.Cell(float64(tab.trends[0].Step))
		if col < f.Grid.X.Cells/2-1 || col > f.Grid.X.Cells/2+1 {
			t.Errorf("%s: the one step in column %d of %d, not the middle", s.title, col, f.Grid.X.Cells)
		}
		// The step alone is labelled: no step that does not exist.
		lines := strings.Split(ansi.Strip(f.View()), "\n")
		if labels := strings.Fields(lines[len(lines)-1]); len(labels) != 1 || labels[0] != fmt.Sprint(tab.trends[0].Step) {
			t.Errorf("%s: the x axis reads %q, want the one step %d", s.title, labels, tab.trends[0].Step)
		}
	}
	if v := uitest.Plain(tab); strings.Count(v, string(currentRune)) < 2*len(tab.series) { // title and point
		t.Errorf("not every chart marks its point:\n%s", v)
	}
}

// TestStepsTicksAreNice checks every chart's axes on the sample and on
// noise at three sizes.
func TestStepsTicksAreNice(t *testing.T) {
	for _, s := range []*session.Session{uitest.SampleSession(t), noisySession(t, 50)} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			tab := stepsTabOn(s, size[0], size[1])
			for j, f := range tab.frames {
				checkYTicks(t, tab.series[j], f)
				if x := f.Grid.X; !chart.IsNice(x.Step) || x.Step < 1 {
					t.Errorf("%s: x step %v", tab.series[j].title, x.Step)
				}
			}
		}
	}
}

// TestStepsShareTheScreen: at 200x60 every chart is drawn, taller than
// the minimum, filling the height; at 80x24 they scroll to the selected
// chart, and enter shows it alone until esc.
func TestStepsShareTheScreen(t *testing.T) {
	s := uitest.SampleSession(t)
	big := stepsTabOn(s, 200, 60)
	l := big.layout()
	if len(big.charts) != len(big.series) || l.shown != l.rows || l.cellHeight <= minStepsChartHeight ||
		l.cellHeight*l.rows < big.chartsHeight()-l.rows {
		t.Errorf("at 200x60: %d of %d charts, layout %+v for %d rows", len(big.charts), len(big.series), l, big.chartsHeight())
	}

	small := stepsTabOn(s, 80, 24)
	l = small.layout()
	if l.shown >= l.rows {
		t.Fatalf("at 80x24 every chart fits (%+v): nothing to scroll", l)
	}
	if v := uitest.Plain(small); !strings.Contains(v, fmt.Sprintf("charts 1–%d of %d", l.shown*l.cols, len(small.series))) {
		t.Errorf("the legend does not say which charts are shown:\n%s", v)
	}
	for j := 1; j < len(small.series); j++ {
		uitest.PressKeys(small, "down")
		v := uitest.Plain(small)
		// A title too long is cut in its name, after a word, never in its
		// value.
		name, value := small.series[j].title, common.FormatValue(small.series[j].values[s.Batch])
		words := strings.Fields(name)
		shown := strings.Join(words[:min(len(words), 2)], " ")
		if len(words[0]) > 12 { // a word too long alone is cut within it
			shown = words[0][:12]
		}
		if small.selected != j || !strings.Contains(v, "▸ "+shown) || !strings.Contains(strings.ReplaceAll(v, "\n", " \n"), ": "+value+" ") {
			t.Fatalf("after %d × down: selected %d, view:\n%s", j, small.selected, v)
		}
	}
	uitest.PressKeys(small, "down")
	if small.selected != len(small.series)-1 {
		t.Error("down went past the last chart")
	}
	last := small.series[len(small.series)-1].title
	uitest.PressKeys(small, "enter")
	v := uitest.Plain(small)
	if strings.Count(v, "◆ step") != 1 || !strings.Contains(v, last) || !strings.Contains(v, "esc: all charts") {
		t.Errorf("enter does not show %q alone:\n%s", last, v)
	}
	f := small.frames[small.selected]
	if f.Canvas.Width() != 80 || f.Grid.Y.Cells < 8 {
		t.Errorf("the full-screen chart is %dx%d", f.Canvas.Width(), f.Grid.Y.Cells)
	}
	uitest.PressKeys(small, "esc")
	if v := uitest.Plain(small); strings.Count(v, "◆ step") != l.shown*l.cols-1 && strings.Count(v, "◆ step") != l.shown*l.cols {
		t.Errorf("esc does not go back to the grid:\n%s", v)
	}
	for range len(small.series) - 3 {
		uitest.PressKeys(small, "up")
	}
	small.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	small.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if v := uitest.Plain(small); small.selected != 0 || small.top != 0 || !strings.Contains(v, "▸ score mean") {
		t.Errorf("up and the wheel do not scroll back to the first chart:\n%s", v)
	}
}

// TestStepsYAxesHaveThreeTicks: every chart of a range has at least three
// y ticks at each size, on the sample and on its first two batches (where
// the safety mean moves by 0.0013): one tick made such a move read as a
// fall from the top of the chart to the bottom.
func TestStepsYAxesHaveThreeTicks(t *testing.T) {
	for _, s := range []*session.Session{uitest.SampleSession(t), sampleBatches(t, 2)} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			tab := stepsTabOn(s, size[0], size[1])
			for j := range tab.series {
				if tab.frames[j] == nil { // scroll to it
					tab.selected = j
					tab.draw()
				}
				lo, hi := finiteRange(tab.series[j].values)
				if n := len(tab.frames[j].Grid.Y.Ticks()); lo < hi && n < minYTicks {
					t.Errorf("%d batches at %dx%d: %s (%v..%v) has %d y ticks:\n%s", len(tab.trends), size[0], size[1], tab.series[j].title, lo, hi, n, tab.frames[j].View())
				}
			}
		}
	}
}

// TestStepsShareOneXAxis: the charts of the grid have one x axis, the
// same cells and the same steps, which start at the same column of their
// cells, whatever the width of their y labels.
func TestStepsShareOneXAxis(t *testing.T) {
	for _, s := range []*session.Session{uitest.SampleSession(t), sampleBatches(t, 2)} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			tab := stepsTabOn(s, size[0], size[1])
			l := tab.layout()
			var first chart.Axis
			column := -1
			for j := range tab.charts {
				x := tab.frames[j].Grid.X
				// The y axis' column in the chart's cell: its corner.
				lines := strings.Split(ansi.Strip(tab.charts[j]), "\n")
				corner := ansi.StringWidth(lines[len(lines)-2][:strings.Index(lines[len(lines)-2], "└")])
				if column < 0 {
					first, column = x, corner
				}
				if x.Cells != first.Cells || x.Min != first.Min || x.Unit != first.Unit || corner != column {
					t.Errorf("%d batches at %dx%d: %s's x axis is %d cells from %v by %v at column %d, the first chart's %d from %v by %v at %d",
						len(tab.trends), size[0], size[1], tab.series[j].title, x.Cells, x.Min, x.Unit, corner, first.Cells, first.Min, first.Unit, column)
				}
				if w := ansi.StringWidth(lines[len(lines)-2]); w > l.cellWidth-1 {
					t.Errorf("%s: the chart is %d wide in a cell of %d", tab.series[j].title, w, l.cellWidth)
				}
			}
		}
	}
}

// TestStepsChartTheScoreWhenTheRewardMeanIsZero: normalised, every batch's
// reward mean is 0, and the first chart is the score's mean, which the
// legend says; without normalisation, pareto's rewards 1 - rank/(R - 1)
// have a mean of their own, charted.
func TestStepsChartTheScoreWhenTheRewardMeanIsZero(t *testing.T) {
	s := uitest.SampleSession(t)
	tab := stepsTabOn(s, 120, 40)
	first := tab.series[0]
	// The score is linear in the objectives: its batch mean is the
	// weighted sum of their means, 0.6 × 0.234375 (accuracy) + 0.3 ×
	// 0.9434296875 (safety) − 0.1 × 0.6101015625 (length, minimised) =
	// 0.36264375 at step 0.
	if first.title != "score mean" || math.Abs(first.values[0]-0.36264375) > 1e-12 {
		t.Errorf("normalised: the first chart is %q, %v at step 0; want the score mean, 0.36264375", first.title, first.values[0])
	}
	if v := uitest.Plain(tab); !strings.Contains(strings.Split(v, "\n")[0], "score mean: the reward mean is 0 in every batch") {
		t.Errorf("the legend does not say why the score is charted:\n%s", v)
	}
	s.Options.Normalize = false
	s.Recompute()
	uitest.Refresh(tab, s)
	if first = tab.series[0]; first.title != "reward mean" || first.values[0] == 0 {
		t.Errorf("not normalised: the first chart is %q, %v at step 0; want the reward mean", first.title, first.values[0])
	}
	if v := uitest.Plain(tab); strings.Contains(v, "the reward mean is 0") {
		t.Errorf("the legend explains a score chart not drawn:\n%s", v)
	}
}

// TestStepsFewStepsSpanTheWidth: two or five batches spread over the
// x axis, the first step in its first quarter and the last in its last,
// rather than crowd at its left (steps 0 and 1 drew on an axis to 6).
func TestStepsFewStepsSpanTheWidth(t *testing.T) {
	for _, n := range []int{2, 5} {
		s := sampleBatches(t, n)
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			tab := stepsTabOn(s, size[0], size[1])
			x := tab.frames[0].Grid.X
			first, last := x.Cell(float64(tab.trends[0].Step)), x.Cell(float64(tab.trends[n-1].Step))
			if first > x.Cells/4 || last < x.Cells*3/4 || last >= x.Cells {
				t.Errorf("%d batches at %dx%d: steps %d..%d in columns %d..%d of %d:\n%s", n, size[0], size[1],
					tab.trends[0].Step, tab.trends[n-1].Step, first, last, x.Cells, tab.frames[0].View())
			}
		}
	}
}

// TestStepsFillTheWidth: the sample's 40 steps fill 4/5 of every x
// axis at least, in the grid and alone: 0 to 39 drew on an axis to 50 at 80
// columns.
func TestStepsFillTheWidth(t *testing.T) {
	s := uitest.SampleSession(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		tab := stepsTabOn(s, size[0], size[1])
		for _, full := range []bool{false, true} {
			tab.full = full
			tab.draw()
			x := tab.frames[0].Grid.X
			if last := x.Cell(float64(tab.trends[len(tab.trends)-1].Step)); last < x.Cells*4/5 || last >= x.Cells {
				t.Errorf("at %dx%d (alone: %v): the last step in column %d of %d:\n%s", size[0], size[1], full, last, x.Cells, tab.frames[0].View())
			}
		}
	}
}

// TestStepsChartsKeepAGap: at 80 columns, two charts a row, a column of
// blanks parts them on every line of the grid, titles that fill their
// width (step 29's, the third row selected) included: the selected
// chart's "▸" met the value before it.
func TestStepsChartsKeepAGap(t *testing.T) {
	s := uitest.SampleSession(t)
	tab := stepsTabOn(s, 80, 24)
	uitest.ShowBatch(tab, s, 29)
	uitest.PressKeys(tab, "j", "j", "j", "j", "j")
	l := tab.layout()
	if l.cols != 2 {
		t.Fatalf("%d charts a row at 80 columns, the test expects 2", l.cols)
	}
	lines := strings.Split(uitest.Plain(tab), "\n")
	for _, line := range lines[:l.shown*l.cellHeight] {
		if gap := []rune(line); len(gap) >= l.cellWidth && gap[l.cellWidth-1] != ' ' {
			t.Errorf("no gap in column %d:\n%s", l.cellWidth-1, line)
		}
	}
}

// TestStepsGrowToShowAll: scrolled down at 80x24, the tab grown to 200x60
// shows every chart from the first, the grid not scrolled past its end.
func TestStepsGrowToShowAll(t *testing.T) {
	tab := stepsTabOn(uitest.SampleSession(t), 80, 24)
	uitest.PressKeys(tab, "j", "j", "j", "j", "j")
	if tab.top == 0 {
		t.Fatal("j five times did not scroll the grid at 80x24")
	}
	tab.SetSize(200, 60)
	if l := tab.layout(); l.shown < l.rows || tab.top != 0 {
		t.Errorf("at 200x60: rows %d..%d shown of %d", tab.top, tab.top+l.shown, l.rows)
	}
	if v := uitest.Plain(tab); !strings.Contains(v, tab.series[0].title) {
		t.Errorf("the first chart is not shown:\n%s", v)
	}
}

// TestStepsHealthTitleNeverCut: the Steps tab's health title, at every
// width from 60 to 200, the sample's four findings counted whole, in
// fewer words on a narrower tab, never cut.
func TestStepsHealthTitleNeverCut(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	for width := 60; width <= 200; width++ {
		tab.SetSize(width, 40)
		var title string
		for _, l := range strings.Split(uitest.Plain(tab), "\n") {
			if strings.HasPrefix(l, "health ") {
				title = strings.TrimRight(l, " ")
			}
		}
		if !strings.Contains(title, "4 findings") || strings.HasSuffix(title, "…") || ansi.StringWidth(title) > width {
			t.Errorf("at %d cells the health title: %q", width, title)
		}
	}
}

// TestAlertsListedFirst: a WARN at an earlier step than an ALERT is
// listed after it, so a short screen that lists one finding lists the
// ALERT; each level keeps its step order.
func TestAlertsListedFirst(t *testing.T) {
	findings := []health.Finding{
		{Check: health.CheckConstraint, Level: health.Warn, Step: 0},
		{Check: health.CheckZeroSpread, Level: health.Alert, Step: 4},
		{Check: health.CheckLengthDrift, Level: health.Warn, Step: 2},
		{Check: health.CheckZeroSpread, Level: health.Alert, Step: 1},
	}
	got := common.AlertsFirst(findings)
	want := []int64{1, 4, 0, 2} // the steps, ALERTs first
	for i, f := range got {
		if f.Step != want[i] {
			t.Fatalf("listed %+v, want steps in order %v", got, want)
		}
	}
	if findings[0].Step != 0 {
		t.Error("alertsFirst reordered its input")
	}
}

// TestGoldenStepsAt80x24: on the sample's Steps tab in a terminal of
// 80x24 (the tab has 20 lines, under the header and the tab bar, over
// the status line and the help), the length_drift ALERT does not fit
// padded: it is shown with its level's symbol alone, its -5.9 sd whole.
func TestGoldenStepsAt80x24(t *testing.T) {
	tab := stepsTabOn(uitest.SampleSession(t), 80, 20)
	view := uitest.Plain(tab)
	if !strings.Contains(view, "✖ step 26 length_drift: mean step_count 5.6, baseline 7.96 ± 0.398: -5.9 sd") {
		t.Errorf("the length_drift ALERT is not whole at 80 columns:\n%s", view)
	}
	golden.RequireEqual(t, view)
}

// TestFindingsCutAfterAWord: at every width, a finding that does not fit
// is shown compact (its level's symbol alone, unpadded), then cut where
// a word of it ends, with "…", the measure its message ends in kept
// whole ("…: -5.9 sd").
func TestFindingsCutAfterAWord(t *testing.T) {
	s := uitest.SampleSession(t)
	stepsTabOn(s, 80, 20) // computes the health, as the root does
	st := common.NewStyles(true, true)
	padding := regexp.MustCompile(`^(✖|⚠) (?:ALERT|WARN ) (step \d+) +`)
	cuts, measures := 0, 0
	for _, f := range s.Findings() {
		full := padding.ReplaceAllString(ansi.Strip(common.FindingLine(st, f, math.MaxInt, true)), "$1 $2 ")
		measure := ""
		if m := regexp.MustCompile(`: [-+]?\d[^:]*$`).FindString(full); m != "" {
			measure = m
			measures++
		}
		for width := 30; width <= 100; width++ {
			line := ansi.Strip(common.FindingLine(st, f, width, true))
			if w := ansi.StringWidth(line); w > width {
				t.Fatalf("width %d: %q takes %d cells", width, line, w)
			}
			kept, rest, cut := strings.Cut(line, "…")
			if !cut {
				continue
			}
			cuts++
			if !strings.HasPrefix(full, kept) || !strings.HasSuffix(full, rest) {
				t.Fatalf("width %d: %q is not %q cut", width, line, full)
			}
			if next := full[len(kept)]; next != ' ' && !strings.ContainsRune(",:;", rune(next)) {
				t.Errorf("width %d: %q cuts a word of %q", width, line, full)
			}
			if measure != "" && rest != measure && width >= ansi.StringWidth("✖ step 26 length_drift…"+measure) {
				t.Errorf("width %d: %q cuts the measure %q of %q", width, line, measure, full)
			}
		}
	}
	if cuts == 0 || measures == 0 {
		t.Fatalf("%d findings cut, %d with a measure: the test checks nothing", cuts, measures)
	}
}

// TestFitYFlatBelowShownDigits: a series whose spread is under its
// fourth significant digit (TRL's reward std, 0.93526 to 0.93529) gets
// the axis of its constant, the points on one row, not an axis that
// spreads them over the chart; a spread the captions show keeps its own.
func TestFitYFlatBelowShownDigits(t *testing.T) {
	noise := stepSeries{values: []float64{0.9352911, 0.9352713, 0.9352799, 0.9352645}}
	a := fitY(noise, 10)
	if span := a.Unit * float64(a.Cells); span < 1e-2 {
		t.Errorf("the axis spans %g from %g: the fifth digit's noise fills the chart", span, a.Min)
	}
	real := stepSeries{values: []float64{0.93, 0.94, 0.95}}
	if b := fitY(real, 10); b.Unit*float64(b.Cells) > 0.1 {
		t.Errorf("a spread of 0.02 is drawn on an axis of %g", b.Unit*float64(b.Cells))
	}
}

// TestGoldenStepsFindingsOfOneForm: under grpo the sample's findings
// include a correlation_flip whose padded line does not fit 100 columns
// beside ALERTs whose do: the list is of one form, every line compact
// ("✖ step 26 ...") where one must be, padded where all fit. At the
// Steps tab of terminals of 100x30, 140x45 and 200x60, the last charts.
func TestGoldenStepsFindingsOfOneForm(t *testing.T) {
	padded := regexp.MustCompile(`^(✖ ALERT|⚠ WARN ) step `)
	compact := regexp.MustCompile(`^(✖|⚠) step \d+ `)
	for _, size := range [][2]int{{100, 30}, {140, 45}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := uitest.SampleSession(t)
			s.Options.Method = engine.GRPO
			s.Recompute()
			tab := stepsTabOn(s, size[0], size[1]-4) // under the header and the tab bar, over the status line and the help
			uitest.PressKeys(tab, "end")
			view := uitest.Plain(tab)
			forms := map[bool]int{}
			for _, line := range strings.Split(view, "\n") {
				switch {
				case padded.MatchString(line):
					forms[true]++
				case compact.MatchString(line):
					forms[false]++
				}
			}
			if len(forms) != 1 {
				t.Errorf("%d padded finding lines beside %d compact ones:\n%s", forms[true], forms[false], view)
			}
			golden.RequireEqual(t, view)
		})
	}
}

// TestGoldenStepsObjectiveNamedReward: an objective named reward
// (open-instruct's), whose mean is charted while the legend says the
// computed reward's mean is 0 in every batch, is charted as the
// objective's, not under the computed reward's title.
func TestGoldenStepsObjectiveNamedReward(t *testing.T) {
	var text strings.Builder
	for step := 1; step <= 3; step++ {
		for prompt := range 2 {
			for k := range 4 {
				reward := float64((step + prompt + k) % 3 * 5)
				fmt.Fprintf(&text, `{"id":"%d-%d-%d","batch":%d,"group":"p%d","metadata":{"reward":%g}}`+"\n", step, prompt, k, step, prompt, reward)
			}
		}
	}
	s := uitest.TextSessionWith(t, text.String(), setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "reward", Expr: "metadata.reward"}}})
	tab := stepsTabOn(s, 200, 60)
	view := uitest.Plain(tab)
	if !strings.Contains(view, "score mean: the reward mean is 0 in every batch") || !strings.Contains(view, "objective reward mean (max) ·") {
		t.Errorf("the legend and the objective's chart:\n%s", view)
	}
	golden.RequireEqual(t, view)
}
