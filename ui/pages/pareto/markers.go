package pareto

import (
	"math"
	"slices"

	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
)

// emptyViewText is what an empty view says, across the plot's middle.
const emptyViewText = "no points in view · 0 shows them all"

// sharedRune is the rune of a cell holding n ≥ 2 of the highlighted
// group's points: their number, '+' for 10 or more.
func sharedRune(n int32) rune {
	if n > 9 {
		return '+'
	}
	return '0' + rune(n)
}

// markGroup draws the highlighted group's points: each alone in its cell
// by its rank's marker (hollow when it breaks a constraint), and a cell
// holding several by their number (sharedRune) in the colour of the best
// rank among them, so that no point hides behind another. It keeps the
// counts for cellShare, and whether a cell is shared for the legend.
func (t *paretoTab) markGroup(group []int32) {
	f, g, st := t.drawn.frame, t.drawn.frame.Grid, t.common.Styles
	n := g.X.Cells * g.Y.Cells
	t.drawn.groupCounts = slices.Grow(t.drawn.groupCounts[:0], n)[:n]
	t.drawn.groupBest = slices.Grow(t.drawn.groupBest[:0], n)[:n]
	counts, best := t.drawn.groupCounts, t.drawn.groupBest
	clear(counts)
	for _, j := range group {
		if col, row, ok := g.Cell(t.points.proj.X[j], t.points.proj.Y[j]); ok {
			c := row*g.X.Cells + col
			if counts[c] == 0 {
				best[c] = math.MaxInt32
			}
			counts[c]++
			best[c] = min(best[c], t.points.rank[j])
		}
	}
	ev := t.common.Session.Result.Evaluation
	for _, j := range group {
		col, row, ok := g.Cell(t.points.proj.X[j], t.points.proj.Y[j])
		if !ok {
			continue
		}
		c, p := row*g.X.Cells+col, f.CellPoint(col, row)
		switch {
		case counts[c] > 1:
			t.drawn.groupShared = true
			f.Canvas.SetCell(p, canvas.NewCellWithStyle(sharedRune(counts[c]), st.Rank[rankBucket(int(best[c]))]))
		case !ev.Feasible(t.points.proj.Index[j]):
			f.Canvas.SetCell(p, canvas.NewCellWithStyle(infeasibleRune, st.Muted))
		default:
			b := rankBucket(int(t.points.rank[j]))
			f.Canvas.SetCell(p, canvas.NewCellWithStyle(st.RankMarkers[b], st.Rank[b]))
		}
	}
}

// cellShare returns how many of the highlighted points (the selected
// group's, or the batch's with scope batch) share the selected point's
// cell, itself included; 0 when it is out of view.
func (t *paretoTab) cellShare() int32 {
	f := t.drawn.frame
	if f == nil || t.selected >= len(t.points.proj.X) {
		return 0
	}
	g := f.Grid
	col, row, ok := g.Cell(t.points.proj.X[t.selected], t.points.proj.Y[t.selected])
	if !ok {
		return 0
	}
	c := row*g.X.Cells + col
	if t.common.Session.Result.Options.Scope != engine.ScopeGroup {
		return t.drawn.counts[c]
	}
	if c >= len(t.drawn.groupCounts) {
		return 0
	}
	return t.drawn.groupCounts[c]
}

// sayWhenEmpty writes emptyViewText across the middle of the plot when
// the view shows none of the points drawn (the batch's, or the selected
// group's alone): a pan can leave them all.
func (t *paretoTab) sayWhenEmpty(group []int32) {
	f, g := t.drawn.frame, t.drawn.frame.Grid
	if t.onlyGroup {
		for _, j := range group {
			if _, _, ok := g.Cell(t.points.proj.X[j], t.points.proj.Y[j]); ok {
				return
			}
		}
	} else if slices.Max(t.drawn.counts) > 0 {
		return
	}
	text := ansi.Truncate(emptyViewText, g.X.Cells, "…")
	col := max((g.X.Cells-ansi.StringWidth(text))/2, 0)
	f.Canvas.SetStringWithStyle(f.CellPoint(col, g.Y.Cells/2), text, t.common.Styles.Warning)
}
