package pareto

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"charm.land/lipgloss/v2"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestParetoSharedCellShowsItsCount: two points of the group at the same
// place do not hide one another: their cell shows 2, in the colour of
// the best rank of the two, and the panel says so when one is selected.
func TestParetoSharedCellShowsItsCount(t *testing.T) {
	s := uitest.TextSession(t, `{"id":"t1","group":"p","metadata":{"a":1,"b":1}}
{"id":"t2","group":"p","metadata":{"a":1,"b":1}}
{"id":"t3","group":"p","metadata":{"a":0,"b":0.5}}
{"id":"t4","group":"p","metadata":{"a":0.5,"b":0}}
`)
	p := uitest.TabOn(s, New).(*paretoTab)
	// The points in x order: t3 (0), t4 (0.5), t1 and t2 (1); t3 is
	// selected, so that the shared cell is not under the selection.
	j := slices.Index(p.points.proj.Index, 0) // t1
	if r := cellRune(t, p, j); r != '2' {
		t.Errorf("the cell of t1 and t2 shows %q, want 2", r)
	}
	if v := uitest.Plain(p); strings.Contains(v, "shared by") || !strings.Contains(v, "points in one cell") {
		t.Errorf("the panel, t3 selected:\n%s", v)
	}
	// The sample's first group shares no cell: its legend says nothing of
	// counts.
	if tab, _ := uitest.SampleTab(t, New); strings.Contains(uitest.Plain(tab), "points in one cell") {
		t.Error("the legend explains counts the plot does not show")
	}
	uitest.PressKeys(p, "right", "right")
	if id := s.Trajectories.At(p.selectedTrajectory()).ID; id != "t1" && id != "t2" {
		t.Fatalf("right, right selected %s", id)
	}
	if v := uitest.Plain(p); !strings.Contains(v, "cell       shared by 2 points") {
		t.Errorf("the panel does not say the selected point shares its cell:\n%s", v)
	}
	for n, want := range map[int32]rune{2: '2', 9: '9', 10: '+', 500: '+'} {
		if got := sharedRune(n); got != want {
			t.Errorf("sharedRune(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestParetoRankMarkersStandApart: no rank's marker looks like a dimmed
// group's point or density (braille dots, or any other dot, shades), the
// infeasible or selected marker, or a shared cell's count.
func TestParetoRankMarkersStandApart(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	st := tab.(*paretoTab).common.Styles
	dots := []rune{'·', '.', '∙', '⋅', '•'}
	others := append(append([]rune{dimmedRune, infeasibleRune, selectedRune, '+'}, densityRunes[:]...), dots...)
	for b, r := range st.RankMarkers {
		if slices.Contains(others, r) || unicode.IsDigit(r) || (r >= 0x2800 && r <= 0x28ff) || slices.Index(st.RankMarkers[:], r) != b {
			t.Errorf("rank bucket %d's marker %q is also another mark", b, r)
		}
	}
}

// TestParetoEmptyViewSaysSo: zoomed in on the selected group alone,
// panning away from its points leaves the plot empty, and the plot says
// so and how to come back; 0 brings the points and no such text.
func TestParetoEmptyViewSaysSo(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	uitest.PressKeys(tab, "a", "+", "+", "+", "+", "+", "+")
	empty := false
	for range 12 {
		uitest.PressKeys(tab, "l")
		inView := slices.ContainsFunc(p.groupPoints(p.selectedGroup()), func(j int32) bool {
			_, _, ok := p.drawn.frame.Grid.Cell(p.points.proj.X[j], p.points.proj.Y[j])
			return ok
		})
		says := strings.Contains(uitest.Plain(tab), emptyViewText)
		if says == inView {
			t.Fatalf("points in view %v, the plot says %q: %v", inView, emptyViewText, says)
		}
		empty = empty || says
	}
	if !empty {
		t.Fatal("the pans never left the group's points: the test shows nothing")
	}
	if uitest.PressKeys(tab, "0"); strings.Contains(uitest.Plain(tab), emptyViewText) {
		t.Error("0 did not bring the points back")
	}
}

// TestParetoFrontierKeepsTheShading: on 5,000 points the selected group's
// frontier crosses cells the other groups shade. Those do not turn into
// the line's dots on the terminal's background, a blank band through the
// density: in colour the dots are drawn over the shade's colour, without
// colour the shade stays.
func TestParetoFrontierKeepsTheShading(t *testing.T) {
	p := uitest.TabOn(uitest.SyntheticSession(t, 5000), New).(*paretoTab)
	for _, noColor := range []bool{true, false} {
		p.common.Styles = common.NewStyles(true, noColor)
		p.draw()
		f, g := p.drawn.frame, p.drawn.frame.Grid
		group := p.groupPoints(p.selectedGroup())
		if len(p.frontier(group)) < 2 {
			t.Fatal("the selected group's frontier is a point: the test shows nothing")
		}
		others := slices.Clone(p.drawn.counts)
		for _, j := range group {
			if col, row, ok := g.Cell(p.points.proj.X[j], p.points.proj.Y[j]); ok {
				others[row*g.X.Cells+col]--
			}
		}
		shaded, crossed := 0, 0
		for c, n := range others {
			if n < 2 {
				continue
			}
			shaded++
			cell := f.Canvas.Cell(f.CellPoint(c%g.X.Cells, c/g.X.Cells))
			if cell.Rune < 0x2800 || cell.Rune > 0x28ff {
				continue
			}
			crossed++
			if bg := cell.Style.GetBackground(); noColor || bg == (lipgloss.NoColor{}) {
				t.Errorf("no colour %v: cell %d, shaded by %d points of other groups, shows the braille %q on no background", noColor, c, n, cell.Rune)
			}
		}
		if shaded < g.X.Cells*g.Y.Cells/2 || (!noColor && crossed == 0) {
			t.Fatalf("no colour %v: %d shaded cells of %d, %d crossed by the line: the test shows nothing", noColor, shaded, g.X.Cells*g.Y.Cells, crossed)
		}
	}
}
