package pareto

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestGoldenPareto(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	golden.RequireEqual(t, uitest.Plain(tab))
}

func TestParetoCyclesAxes(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	steps := []struct{ key, title string }{
		// The default axes: the two objectives with a spread, not the
		// 0/1 accuracy (defaultAxes).
		{"", "length (min) against safety (max)"},
		// x skips length, which is on y.
		{"x", "length (min) against accuracy (max)"},
		// y skips accuracy, now on x.
		{"y", "safety (max) against accuracy (max)"},
	}
	for _, s := range steps {
		if s.key != "" {
			uitest.PressKeys(tab, s.key)
		}
		view := uitest.Plain(tab)
		// An axis's label says that lower is better for a minimised
		// objective: its arrow, up or right, would read as higher.
		label := strings.NewReplacer("(min)", "(min: lower is better)")
		y, x, _ := strings.Cut(s.title, " against ")
		if !strings.Contains(view, "Pareto ranks: "+s.title) || !strings.Contains(view, "↑ "+label.Replace(y)) || !strings.Contains(view, label.Replace(x)+" →") {
			t.Errorf("after %q, want the axes %q:\n%s", s.key, s.title, view)
		}
	}
}

// cellRune returns the rune the plot shows at point j of the projection.
func cellRune(t *testing.T, p *paretoTab, j int) rune {
	t.Helper()
	pt, ok := p.drawn.frame.Point(p.points.proj.X[j], p.points.proj.Y[j])
	if !ok {
		t.Fatalf("point %d (%v, %v) is not in view", j, p.points.proj.X[j], p.points.proj.Y[j])
	}
	return p.drawn.frame.Canvas.Cell(pt).Rune
}

// TestParetoLeftRightWalkTheGroupByX: left and right stay in the selected
// group and visit its points in ascending x; up and down go to the
// neighbouring groups in the batch's order.
func TestParetoLeftRightWalkTheGroupByX(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	group := p.selectedGroup()
	members := s.CurrentBatch().Groups[group].Members
	var visited []int
	for range len(members) + 2 {
		visited = append(visited, p.selected)
		uitest.PressKeys(tab, "right")
	}
	visited = slices.Compact(visited)
	if len(visited) != len(members) {
		t.Fatalf("right visited %d points, the group has %d valid", len(visited), len(members))
	}
	for k, j := range visited {
		if !slices.Contains(members, p.points.proj.Index[j]) {
			t.Errorf("right left the group: point %d", j)
		}
		if k > 0 && p.points.proj.X[j] < p.points.proj.X[visited[k-1]] {
			t.Errorf("right went from x = %v back to x = %v", p.points.proj.X[visited[k-1]], p.points.proj.X[j])
		}
	}
	if visited[0] == p.selected {
		t.Fatal("right did not move")
	}
	uitest.PressKeys(tab, "left")
	if p.selected != visited[len(visited)-2] {
		t.Errorf("left from the last point went to %d, want %d", p.selected, visited[len(visited)-2])
	}
	uitest.PressKeys(tab, "down")
	if got := p.selectedGroup(); got != group+1 {
		t.Errorf("down went to group %d, want %d", got, group+1)
	}
	uitest.PressKeys(tab, "up", "up")
	if got := p.selectedGroup(); got != group-1 {
		t.Errorf("up up went to group %d, want %d", got, group-1)
	}
	if !strings.Contains(uitest.Plain(tab), "id         "+s.Trajectories.At(p.selectedTrajectory()).ID) {
		t.Errorf("the panel does not show the selected point:\n%s", uitest.Plain(tab))
	}
}

// TestParetoDimsTheOtherGroups: with scope group, rank markers are only
// where the selected group's points are, the other groups dimmed; a
// hides them and shows them again.
func TestParetoDimsTheOtherGroups(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	st := p.common.Styles
	ranked := func(r rune) bool { return slices.Contains(st.RankMarkers[:], r) }
	dimmed := func(r rune) bool { return r == dimmedRune || slices.Contains(densityRunes[:], r) }
	check := func(wantDimmed bool) {
		t.Helper()
		group := p.groupPoints(p.selectedGroup())
		for j := range p.points.proj.Index {
			r := cellRune(t, p, j)
			inGroup := slices.Contains(group, int32(j))
			switch {
			case j == p.selected:
				if r != selectedRune {
					t.Errorf("the selected point shows %q", r)
				}
			case inGroup && !ranked(r) && r != selectedRune:
				t.Errorf("point %d of the selected group shows %q, not a rank marker", j, r)
			case !inGroup && ranked(r):
				// Another group's point may share a cell with one of the
				// selected group's; otherwise it must not look ranked.
				if !slices.ContainsFunc(group, func(g int32) bool { return sameCell(p, g, int32(j)) }) {
					t.Errorf("point %d of another group shows the rank marker %q", j, r)
				}
			case !inGroup && !wantDimmed && dimmed(r):
				t.Errorf("point %d of another group is still drawn (%q) with a", j, r)
			}
		}
	}
	if s.Result.Options.Scope != engine.ScopeGroup {
		t.Fatalf("the sample's scope is %s, want group", s.Result.Options.Scope)
	}
	check(true)
	if v := uitest.Plain(tab); !strings.Contains(v, "other groups, by density") {
		t.Errorf("the legend does not explain the dimmed groups:\n%s", v)
	}
	uitest.PressKeys(tab, "a")
	check(false)
	if v := uitest.Plain(tab); !strings.Contains(v, "other groups hidden") {
		t.Errorf("a does not say the other groups are hidden:\n%s", v)
	}
	uitest.PressKeys(tab, "a")
	check(true)
}

func sameCell(p *paretoTab, a, b int32) bool {
	ca, ra, _ := p.drawn.frame.Grid.Cell(p.points.proj.X[a], p.points.proj.Y[a])
	cb, rb, _ := p.drawn.frame.Grid.Cell(p.points.proj.X[b], p.points.proj.Y[b])
	return ca == cb && ra == rb
}

// TestParetoBatchScopeRanksTheBatch: with scope batch the tab's ranks are
// the batch's: rank 0 exactly for the points no other point of the batch
// dominates (brute force), and every point drawn ranked.
func TestParetoBatchScopeRanksTheBatch(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	s.Options.Scope = engine.ScopeBatch
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	p := tab.(*paretoTab)
	res := s.Result
	better := func(a, b int) (weakly, strictly bool) { // a is at least as good as b everywhere, better somewhere
		weakly = true
		for k, o := range res.Objectives {
			va, vb := res.Evaluation.Values[a*res.Evaluation.M+k], res.Evaluation.Values[b*res.Evaluation.M+k]
			if o.Goal == scoring.Minimize {
				va, vb = -va, -vb
			}
			if va < vb {
				weakly = false
			}
			if va > vb {
				strictly = true
			}
		}
		return weakly, strictly
	}
	for j, i := range p.points.proj.Index {
		dominated := false
		for _, o := range p.points.proj.Index {
			if w, st := better(o, i); w && st {
				dominated = true
			}
		}
		if (p.points.rank[j] == 0) == dominated {
			t.Errorf("trajectory %d: rank %d, dominated by another of the batch: %v", i, p.points.rank[j], dominated)
		}
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "ranks within the batch") || strings.Contains(v, "other groups") {
		t.Errorf("the legend does not say ranks are the batch's:\n%s", v)
	}
}

// batchScopeTab returns the tab at 120x40, in colour, on 20,000
// trajectories ranked in one batch (scope batch).
func batchScopeTab(t *testing.T) (common.Tab, *paretoTab) {
	s := uitest.SyntheticSession(t, 20_000)
	s.Options.Scope = engine.ScopeBatch
	s.Recompute()
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c)
	tab.SetSize(120, 40)
	tab.Update(common.SessionChangedMsg{})
	return tab, tab.(*paretoTab)
}

// TestParetoDrawsDensity: on 20,000 points in one batch (scope batch), a
// cell several points share shows a shade, a lone point its rank's
// marker, and a darker shade means more points.
func TestParetoDrawsDensity(t *testing.T) {
	_, p := batchScopeTab(t)
	g := p.drawn.frame.Grid
	counts, best := make([]int32, g.X.Cells*g.Y.Cells), make([]int32, g.X.Cells*g.Y.Cells)
	chart.Density(counts, best, g, p.points.proj.X, p.points.proj.Y, p.points.rank, nil)
	most := slices.Max(counts)
	if most < 10 {
		t.Fatalf("the fullest cell holds %d points: not a dense plot", most)
	}
	shades := 0
	for cell, n := range counts {
		col, row := cell%g.X.Cells, cell/g.X.Cells
		pt := p.drawn.frame.CellPoint(col, row)
		r := p.drawn.frame.Canvas.Cell(pt).Rune
		if r == selectedRune {
			continue
		}
		switch {
		case n == 1 && r != p.common.Styles.RankMarkers[rankBucket(int(best[cell]))]:
			t.Errorf("a lone point of rank %d shows %q", best[cell], r)
		case n > 1:
			want := densityRunes[chart.Level(n, most, len(densityRunes)+1)-1]
			if r != want {
				t.Errorf("a cell of %d points (most %d) shows %q, want %q", n, most, r, want)
			}
			shades++
		}
	}
	if shades == 0 {
		t.Error("no shaded cell")
	}
}

// TestParetoZoomKeepsTheSelection: + zooms in on the selected point, which
// stays on screen at every level, and says the zoom; - zooms out; h, l,
// j, k and shift+arrows pan; 0 resets.
func TestParetoZoomKeepsTheSelection(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	// The rightmost point of the last group: far from the centre.
	for range 20 {
		uitest.PressKeys(tab, "down")
	}
	for range 10 {
		uitest.PressKeys(tab, "right")
	}
	full := p.drawn.frame.Grid
	for level := 1; level <= 5; level++ {
		uitest.PressKeys(tab, "+")
		if cellRune(t, p, p.selected) != selectedRune {
			t.Fatalf("zoom %d: the selection is not drawn", level)
		}
		if want := "zoom ×" + []string{"", "2", "4", "8", "16", "32"}[level]; !strings.Contains(uitest.Plain(tab), want) {
			t.Errorf("zoom %d: the title does not say %q:\n%s", level, want, uitest.Plain(tab))
		}
	}
	zoomed := p.drawn.frame.Grid
	if span := zoomed.X.Max() - zoomed.X.Min; span >= (full.X.Max()-full.X.Min)/8 {
		t.Errorf("after 5 zooms the x range is %v, the full one %v", span, full.X.Max()-full.X.Min)
	}
	for _, k := range []string{"l", "shift+right"} {
		before := p.drawn.frame.Grid.X.Min
		tab.Update(uitest.KeyPress(k))
		if p.drawn.frame.Grid.X.Min <= before {
			t.Errorf("%s does not pan right: the view starts at %v, was %v", k, p.drawn.frame.Grid.X.Min, before)
		}
	}
	for _, k := range []string{"k", "shift+up"} {
		before := p.drawn.frame.Grid.Y.Min
		tab.Update(uitest.KeyPress(k))
		if p.drawn.frame.Grid.Y.Min <= before {
			t.Errorf("%s does not pan up: the view starts at %v, was %v", k, p.drawn.frame.Grid.Y.Min, before)
		}
	}
	before := p.drawn.frame.Grid.X.Min
	uitest.PressKeys(tab, "h", "h")
	if p.drawn.frame.Grid.X.Min >= before {
		t.Error("h does not pan left")
	}
	uitest.PressKeys(tab, "-")
	if got := p.drawn.frame.Grid.X.Max() - p.drawn.frame.Grid.X.Min; got <= zoomed.X.Max()-zoomed.X.Min {
		t.Errorf("- does not zoom out: x range %v", got)
	}
	uitest.PressKeys(tab, "0")
	if p.zoomed() || p.drawn.frame.Grid != full || strings.Contains(uitest.Plain(tab), "zoom ×") {
		t.Errorf("0 does not reset the view: %+v, want %+v", p.drawn.frame.Grid, full)
	}
	tab.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if !p.zoomed() || cellRune(t, p, p.selected) != selectedRune {
		t.Error("the mouse wheel does not zoom in on the selection")
	}
}

// TestParetoZoomShowsNoValueTheDataCannotHave zooms on the point of least
// x and least y, whose objectives are never negative: neither the full
// view (at any size) nor a zoom level nor a pan shows a negative tick, nor
// leaves the points' range by more than the view's margin.
func TestParetoZoomShowsNoValueTheDataCannotHave(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	if p.points.data[0] < 0 || p.points.data[2] < 0 {
		t.Fatalf("the sample's objectives have negative values: %v", p.points.data)
	}
	least := 0
	for i := range p.points.proj.X {
		if p.points.proj.X[i]+p.points.proj.Y[i] < p.points.proj.X[least]+p.points.proj.Y[least] {
			least = i
		}
	}
	p.selected = least
	check := func(when string) {
		t.Helper()
		x0, x1, y0, y1 := p.viewRange()
		if x0 < p.points.data[0]-chart.WindowMargin*(x1-x0)*1.0001 || y0 < p.points.data[2]-chart.WindowMargin*(y1-y0)*1.0001 {
			t.Errorf("%s: the view %v..%v × %v..%v goes beyond the points' %v by more than its margin", when, x0, x1, y0, y1, p.points.data)
		}
		for _, a := range []chart.Axis{p.drawn.frame.Grid.X, p.drawn.frame.Grid.Y} {
			for _, tk := range a.Ticks() {
				if tk.Value < 0 {
					t.Errorf("%s: a tick at %s", when, tk.Label)
				}
			}
		}
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		p.SetSize(size[0], size[1])
		check(fmt.Sprintf("the full view at %dx%d", size[0], size[1]))
	}
	for level := 1; level <= maxParetoZoom; level++ {
		uitest.PressKeys(tab, "+")
		if cellRune(t, p, p.selected) != selectedRune {
			t.Fatalf("zoom %d: the selection is not drawn", level)
		}
		check(fmt.Sprintf("zoom %d", level))
	}
	uitest.PressKeys(tab, "h", "h", "j", "j")
	check("panned left and down")
}

// TestParetoClickSelectsTheNearestPoint clicks on the cell of points and
// next to them.
func TestParetoClickSelectsTheNearestPoint(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	for _, j := range []int{5, 40, len(p.points.proj.Index) - 1} {
		pt, _ := p.drawn.frame.Point(p.points.proj.X[j], p.points.proj.Y[j])
		// The canvas starts under the title and the y axis name.
		tab.Update(tea.MouseClickMsg{X: pt.X, Y: pt.Y + 2, Button: tea.MouseLeft})
		if !sameCell(p, int32(p.selected), int32(j)) {
			t.Errorf("a click on point %d's cell selected point %d in another cell", j, p.selected)
		}
	}
	// A click on an empty cell: the nearest point on screen, by brute force.
	col, row := 0, p.drawn.frame.Grid.Y.Cells-1
	pt := p.drawn.frame.CellPoint(col, row)
	tab.Update(tea.MouseClickMsg{X: pt.X, Y: pt.Y + 2, Button: tea.MouseLeft})
	g := p.drawn.frame.Grid
	x, y := g.X.Value(float64(col)), g.Y.Value(float64(row))
	dist := func(j int) float64 {
		dx, dy := (p.points.proj.X[j]-x)/g.X.Unit, 2*(p.points.proj.Y[j]-y)/g.Y.Unit
		return dx*dx + dy*dy
	}
	for j := range p.points.proj.Index {
		if dist(j) < dist(p.selected) {
			t.Fatalf("a click at the top left selected point %d, but %d is nearer", p.selected, j)
		}
	}
	// A click on the axis labels selects nothing new.
	before := p.selected
	tab.Update(tea.MouseClickMsg{X: 0, Y: 3, Button: tea.MouseLeft})
	if p.selected != before {
		t.Error("a click outside the plot changed the selection")
	}
}

// TestParetoEnterOpensTheTrajectory: enter shows the selected
// trajectory's detail, with its response; esc goes back to the plot.
func TestParetoEnterOpensTheTrajectory(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	uitest.PressKeys(tab, "down", "right")
	tr := s.Trajectories.At(p.selectedTrajectory())
	uitest.PressKeys(tab, "enter")
	view := uitest.Plain(tab)
	if !strings.Contains(view, tr.ID) || !strings.Contains(view, "response") || !strings.Contains(view, "computed (pareto)") {
		t.Fatalf("enter does not open %s:\n%s", tr.ID, view)
	}
	if strings.Contains(view, "Pareto ranks:") {
		t.Errorf("the plot is still shown under the detail:\n%s", view)
	}
	uitest.PressKeys(tab, "esc")
	if view := uitest.Plain(tab); !strings.Contains(view, "Pareto ranks:") || !strings.Contains(view, "id         "+tr.ID) {
		t.Errorf("esc does not go back to the plot with the same selection:\n%s", view)
	}
}

func TestParetoSaysWhatItHides(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	if view := uitest.Plain(tab); !strings.Contains(view, "ranks are over 3 objectives") || strings.Contains(view, "hidden") {
		t.Errorf("batch 0 (3 objectives, all valid):\n%s", view)
	}
	// Batch 5 holds one of the sample's invalid trajectories.
	uitest.ShowBatch(tab, s, 5)
	if view := uitest.Plain(tab); !strings.Contains(view, "1 invalid trajectory hidden") {
		t.Errorf("batch 5 does not say that a trajectory is hidden:\n%s", view)
	}
}

// TestParetoReadingFollowsTheSession: a recompute shows the opened
// trajectory's new reward; another batch closes it.
func TestParetoReadingFollowsTheSession(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "enter")
	s.Options.Method = engine.GRPO
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	if v := uitest.Plain(tab); !strings.Contains(v, "computed (grpo)") {
		t.Errorf("the opened trajectory does not show the new method's values:\n%s", v)
	}
	uitest.ShowBatch(tab, s, 3)
	if v := uitest.Plain(tab); !strings.Contains(v, "Pareto ranks:") {
		t.Errorf("another batch does not close the trajectory of the previous one:\n%s", v)
	}
}

// TestParetoBatchWithoutValidPoints: a batch whose every trajectory is
// invalid draws empty axes, says so, and takes every key and click.
func TestParetoBatchWithoutValidPoints(t *testing.T) {
	var ts []scoring.Trajectory
	for b := range 2 {
		for i := range 16 {
			md := map[string]any{"accuracy": float64(i % 2), "safety": float64(i) / 16}
			if b == 1 {
				delete(md, "accuracy")
			}
			ts = append(ts, scoring.Trajectory{ID: fmt.Sprintf("b%d-%d", b, i), Group: fmt.Sprintf("p%d", i/8), Batch: int64(b), Done: true, Metadata: md})
		}
	}
	s, err := session.Open("partly invalid", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c)
	tab.SetSize(120, 40)
	tab.Update(common.SessionChangedMsg{})
	uitest.ShowBatch(tab, s, 1)
	uitest.PressKeys(tab, "right", "left", "down", "up", "+", "l", "0", "a", "enter", "x")
	tab.Update(tea.MouseClickMsg{X: 20, Y: 10, Button: tea.MouseLeft})
	if v := uitest.Plain(tab); !strings.Contains(v, "no valid trajectory in this batch") || !strings.Contains(v, "16 invalid trajectories hidden") {
		t.Errorf("an all-invalid batch:\n%s", v)
	}
}

// TestParetoPlotAfterSwitches checks the plot that a switch of method,
// weights or scope leaves on screen (kept as drawn for the first two,
// drawn again for the scope) against a tab opened on those options.
func TestParetoPlotAfterSwitches(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	changes := append([]uitest.OptionChange{uitest.ScopeChange(engine.ScopeBatch)}, uitest.EveryMethod()...)
	changes = append(changes, uitest.WeightChange, uitest.ScopeChange(engine.ScopeGroup))
	for _, c := range changes {
		fresh := uitest.SwitchOptions(t, tab, s, c, uitest.SampleSession, New)
		if got, want := uitest.Plain(tab), uitest.Plain(fresh); got != want {
			t.Fatalf("after %s the plot is not that of a tab opened on it:\n%s\nwant:\n%s", c.Name, got, want)
		}
	}
}

// TestParetoZoomStopsAtItsLimit: + pressed past the limit stays at ×256.
func TestParetoZoomStopsAtItsLimit(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	for range 20 {
		uitest.PressKeys(tab, "+")
	}
	view := uitest.Plain(tab)
	if !strings.Contains(view, "zoom ×256 (0 resets)") || strings.Contains(view, "×512") {
		t.Errorf("20 presses of + do not stop at zoom ×256:\n%s", view)
	}
}

// TestParetoLegendWithoutValidTrajectory: with no valid trajectory no
// group is selected, and the legend says the ranks are within each group
// (it read "ranks within group batch").
func TestParetoLegendWithoutValidTrajectory(t *testing.T) {
	s := uitest.TextSession(t, `{"id":"a","group":"g0","metadata":{"b":1}}
{"id":"b","group":"g1","metadata":{"b":2}}
`)
	tab := uitest.TabOn(s, New)
	if v := uitest.Plain(tab); !strings.Contains(v, "legend ranks within each group") || strings.Contains(v, "group batch") {
		t.Errorf("the legend does not say the ranks are within each group:\n%s", v)
	}
}

// TestParetoReadsTheOpenedTrajectoryOffTheEventLoop: enter on a point
// reads its trajectory in a job (uitest.ReadsOffTheLoop).
func TestParetoReadsTheOpenedTrajectoryOffTheEventLoop(t *testing.T) {
	uitest.ReadsOffTheLoop(t, New, func(tab common.Tab) int { return tab.(*paretoTab).selectedTrajectory() })
}

// noticeOf is the status line's notice a command asks for, "" for none.
func noticeOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	if n, ok := cmd().(common.NoticeMsg); ok {
		return n.Text
	}
	return ""
}

// TestParetoSaysWhyAKeyDoesNothing: a under scope batch (one group: no
// other group to hide) and a pan of the whole plot (nothing beyond it)
// change nothing on screen, the title no zoom, and say why in the status
// line; zoomed in, the pan pans and says nothing.
func TestParetoSaysWhyAKeyDoesNothing(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	s.Options.Scope = engine.ScopeBatch
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	before := uitest.Plain(tab)
	_, cmd := tab.Update(uitest.KeyPress("a"))
	if got := noticeOf(cmd); got != onlyGroupUnderBatch || uitest.Plain(tab) != before {
		t.Errorf("a under scope batch: notice %q, want %q; the screen changed: %v", got, onlyGroupUnderBatch, uitest.Plain(tab) != before)
	}
	for _, k := range []string{"j", "h", "shift+up", "l"} {
		_, cmd := tab.Update(uitest.KeyPress(k))
		if got := noticeOf(cmd); got != panUnzoomed || p.zoomed() || uitest.Plain(tab) != before {
			t.Errorf("%s unzoomed: notice %q, want %q; zoomed %v; the screen changed: %v\n%s", k, got, panUnzoomed, p.zoomed(), uitest.Plain(tab) != before, uitest.Plain(tab))
		}
	}
	_, cmd = tab.Update(uitest.KeyPress("0"))
	if got := noticeOf(cmd); got != resetUnzoomed || uitest.Plain(tab) != before {
		t.Errorf("0 unzoomed: notice %q, want %q; the screen changed: %v", got, resetUnzoomed, uitest.Plain(tab) != before)
	}
	uitest.PressKeys(tab, "+")
	_, cmd = tab.Update(uitest.KeyPress("j"))
	if got := noticeOf(cmd); got != "" || !strings.Contains(uitest.Plain(tab), "zoom ×2") {
		t.Errorf("j zoomed in: notice %q, want none; the title:\n%s", got, uitest.Plain(tab))
	}
}

// TestParetoSaysWhyAxesDoNotChange: on a run of one objective, x and y
// change nothing on screen (the plot shows the objective against itself)
// and say why in the status line.
func TestParetoSaysWhyAxesDoNotChange(t *testing.T) {
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "score", Expr: "metadata.a"}}}
	s := uitest.TextSessionWith(t, `{"group": "g", "step": 1, "a": 1}`+"\n"+`{"group": "g", "step": 1, "a": 0}`+"\n", cfg)
	tab := uitest.TabOn(s, New)
	before := uitest.Plain(tab)
	for _, k := range []string{"x", "y"} {
		_, cmd := tab.Update(uitest.KeyPress(k))
		if got := noticeOf(cmd); got != oneObjectiveAxes || uitest.Plain(tab) != before {
			t.Errorf("%s on one objective: notice %q, want %q; the screen changed: %v", k, got, oneObjectiveAxes, uitest.Plain(tab) != before)
		}
	}
}

// TestParetoTwoObjectivesSwapAxes: with two objectives, x and y have no
// third objective to skip to: they swap the axes, as x skips y's
// objective with three, never plotting one objective against itself.
func TestParetoTwoObjectivesSwapAxes(t *testing.T) {
	cfg := setup.Config{Method: "pareto", Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "metadata.a"}, {Name: "fmt", Expr: "metadata.b"}}}
	s := uitest.TextSessionWith(t, `{"group": "g", "step": 1, "a": 1, "b": 0}`+"\n"+`{"group": "g", "step": 1, "a": 0, "b": 1}`+"\n", cfg)
	tab := uitest.TabOn(s, New)
	for _, step := range []struct{ key, title string }{
		{"", "fmt (max) against acc (max)"},
		{"x", "acc (max) against fmt (max)"},
		{"y", "fmt (max) against acc (max)"},
		{"y", "acc (max) against fmt (max)"},
	} {
		if step.key != "" {
			uitest.PressKeys(tab, step.key)
		}
		if view := uitest.Plain(tab); !strings.Contains(view, "Pareto ranks: "+step.title) {
			t.Errorf("after %q, want the axes %q:\n%s", step.key, step.title, view)
		}
	}
}
