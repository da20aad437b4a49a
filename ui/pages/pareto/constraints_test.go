package pareto

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// constrainedTab is the tab on the sample with the constraints given.
func constrainedTab(t *testing.T, constraints ...string) *paretoTab {
	t.Helper()
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = constraints })
	return uitest.TabOn(s, New).(*paretoTab)
}

func TestGoldenParetoConstrained(t *testing.T) {
	golden.RequireEqual(t, uitest.Plain(constrainedTab(t, "safety >= 0.9")))
}

// TestParetoHollowsInfeasiblePoints: of the selected group, a point whose
// safety is under 0.95 (read from the raw values here) is drawn hollow
// unless a feasible point shares its cell, and a feasible one by its
// rank's marker; the legend says what the hollow mark is.
func TestParetoHollowsInfeasiblePoints(t *testing.T) {
	p := constrainedTab(t, "safety >= 0.95")
	ev := p.common.Session.Result.Evaluation
	group := p.groupPoints(p.selectedGroup())
	hollow, ranked := 0, 0
	for _, j := range group {
		if int(j) == p.selected {
			continue
		}
		feasible := func(j int32) bool { return ev.Values[p.points.proj.Index[j]*ev.M+1] >= 0.95 }
		r := cellRune(t, p, int(j))
		sharedWithFeasible := slices.ContainsFunc(group, func(g int32) bool { return g != j && feasible(g) && sameCell(p, g, j) })
		switch {
		case !feasible(j) && !sharedWithFeasible && r != infeasibleRune:
			t.Errorf("infeasible point %d shows %q, not hollow", j, r)
		case feasible(j) && !slices.Contains(p.common.Styles.RankMarkers[:], r) && r != selectedRune:
			t.Errorf("feasible point %d shows %q, not a rank marker", j, r)
		}
		if r == infeasibleRune {
			hollow++
		} else {
			ranked++
		}
	}
	if hollow == 0 || ranked == 0 {
		t.Errorf("the selected group shows %d hollow and %d ranked points: the test shows nothing", hollow, ranked)
	}
	if v := uitest.Plain(p); !strings.Contains(v, "○ breaks a constraint") || !strings.Contains(v, "┈┊ a constraint's limit") {
		t.Errorf("the legend does not explain the constraint's marks:\n%s", v)
	}
	// Without constraints nothing is hollow.
	plain := constrainedTab(t)
	for _, j := range plain.groupPoints(plain.selectedGroup()) {
		if cellRune(t, plain, int(j)) == infeasibleRune {
			t.Errorf("without constraints point %d is hollow", j)
		}
	}
	if strings.Contains(uitest.Plain(plain), "constraint") {
		t.Errorf("without constraints the legend speaks of them")
	}
}

// TestParetoDrawsConstraintLines: safety >= 0.9 is a vertical line at
// x = 0.9 while safety is on x (the default axes), a horizontal line at
// y = 0.9 while it is on y; length <= 600 a vertical line at x = 600
// once length is on x; a constraint of two objectives draws none.
func TestParetoDrawsConstraintLines(t *testing.T) {
	p := constrainedTab(t, "safety >= 0.9", "600 >= length", "safety >= accuracy")
	g := p.drawn.frame.Grid
	lineCells := func(col, row int) (line, free int) {
		for c := range g.X.Cells {
			for r := range g.Y.Cells {
				if (col >= 0 && c != col) || (row >= 0 && r != row) {
					continue
				}
				switch p.drawn.frame.Canvas.Cell(p.drawn.frame.CellPoint(c, r)).Rune {
				case '┈', '┊':
					line++
				}
				free++
			}
		}
		return line, free
	}
	if p.points.xObj != 1 {
		t.Fatalf("x is objective %d, want safety", p.points.xObj)
	}
	if line, cells := lineCells(g.X.Cell(0.9), -1); line < cells/2 {
		t.Errorf("the column of safety 0.9 shows the line in %d of its %d cells", line, cells)
	}
	uitest.PressKeys(p, "x", "y") // accuracy on x, safety on y
	if p.points.xObj != 0 || p.points.yObj != 1 {
		t.Fatalf("the axes are objectives %d and %d, want accuracy and safety", p.points.xObj, p.points.yObj)
	}
	g = p.drawn.frame.Grid
	row := g.Y.Cell(0.9)
	if line, cells := lineCells(-1, row); line < cells/2 {
		t.Errorf("the row of safety 0.9 shows the line in %d of its %d cells", line, cells)
	}
	inRow, _ := lineCells(-1, row)
	if all, _ := lineCells(-1, -1); all != inRow {
		t.Errorf("the line is drawn off its row: %d cells of the plot, %d in its row", all, inRow)
	}
	uitest.PressKeys(p, "x")
	if p.points.xObj != 2 {
		t.Fatalf("x is objective %d, want length", p.points.xObj)
	}
	g = p.drawn.frame.Grid
	col := g.X.Cell(600)
	if line, cells := lineCells(col, -1); line < cells/2 {
		t.Errorf("the column of length 600 shows the line in %d of its %d cells", line, cells)
	}
}

// TestParetoBatchScopeHollowsLoneInfeasible: with scope batch, an
// infeasible point alone in its cell is drawn hollow, a feasible one
// alone by its rank's marker.
func TestParetoBatchScopeHollowsLoneInfeasible(t *testing.T) {
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) {
		cfg.Constraints, cfg.Scope = []string{"safety >= 0.95"}, string(engine.ScopeBatch)
	})
	p := uitest.TabOn(s, New).(*paretoTab)
	uitest.PressKeys(p, "x") // safety against length: accuracy's 0 and 1 share every cell
	ev := s.Result.Evaluation
	hollow := 0
	for j, i := range p.points.proj.Index {
		if j == p.selected || slices.ContainsFunc(p.points.proj.Index, func(k int) bool { return k != i && sameCell(p, int32(j), int32(slices.Index(p.points.proj.Index, k))) }) {
			continue // shaded or selected
		}
		r := cellRune(t, p, j)
		switch feasible := ev.Values[i*ev.M+1] >= 0.95; {
		case !feasible && r != infeasibleRune:
			t.Errorf("lone infeasible point %d shows %q, not hollow", j, r)
		case feasible && !slices.Contains(p.common.Styles.RankMarkers[:], r):
			t.Errorf("lone feasible point %d shows %q, not a rank marker", j, r)
		}
		if r == infeasibleRune {
			hollow++
		}
	}
	if hollow == 0 {
		t.Error("no lone infeasible point: the test shows nothing")
	}
}

// TestParetoSaysWhetherFeasible: the panel's feasible row reads "yes" for
// a point within the constraints and "no, violation V" for one outside
// (a row "feasible  violation V" read as feasible).
func TestParetoSaysWhetherFeasible(t *testing.T) {
	p := constrainedTab(t, "safety >= 0.95")
	ev := p.common.Session.Result.Evaluation
	for _, want := range []bool{true, false} {
		j := slices.IndexFunc(p.points.proj.Index, func(i int) bool { return ev.Feasible(i) == want })
		if j < 0 {
			t.Fatalf("no point of feasibility %v", want)
		}
		p.selected = j
		row := "" // the panel's row: its label padded to 10 cells, then a space
		for line := range strings.Lines(uitest.Plain(p)) {
			if _, after, ok := strings.Cut(line, "feasible   "); ok {
				row = strings.TrimSpace(after)
				break
			}
		}
		if got := strings.HasPrefix(row, "yes"); got != want || !want && !strings.HasPrefix(row, "no, violation ") {
			t.Errorf("a point of feasibility %v: the feasible row reads %q", want, row)
		}
	}
}
