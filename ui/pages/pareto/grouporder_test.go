package pareto

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// byXY is the order of (x, y, index) by comparison: cmp.Compare's order
// of the values (NaN first, -0 equal to 0), ties by position.
func byXY(xs, ys []float64) func(a, b int32) int {
	return func(a, b int32) int {
		return cmp.Or(cmp.Compare(xs[a], xs[b]), cmp.Compare(ys[a], ys[b]), cmp.Compare(a, b))
	}
}

// tiedPoints returns n points on a few values (-0, 0 and NaN among
// them): many ties in x, in y and in both.
func tiedPoints(rng *rand.Rand, n int) (xs, ys []float64) {
	values := []float64{math.NaN(), math.Inf(-1), -1, math.Copysign(0, -1), 0, 0.5, 1, 2}
	xs, ys = make([]float64, n), make([]float64, n)
	for j := range xs {
		xs[j], ys[j] = values[rng.IntN(len(values))], values[rng.IntN(len(values))]
	}
	return xs, ys
}

// sortGroups, floatorder.ByPairs and leftmost against a comparison sort, on groups
// of 1 to 40 points (by insertion and not) and on enough points to share
// the groups among the cores.
func TestGroupOrderBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 4))
	for _, n := range []int{0, 1, 300, 70_000} {
		xs, ys := tiedPoints(rng, n)
		groups := max(n/12, 1)
		class := make([]int32, n)
		for j := range class {
			class[j] = int32(rng.IntN(groups))
		}
		order, start := make([]int32, n), make([]int32, groups+1)
		chart.Buckets(order, start, class, groups)
		sortGroups(order, start, xs, ys)
		for g := range groups {
			var want []int32
			for j, c := range class {
				if int(c) == g {
					want = append(want, int32(j))
				}
			}
			slices.SortFunc(want, byXY(xs, ys))
			if got := order[start[g]:start[g+1]]; !slices.Equal(got, want) {
				t.Fatalf("n %d, group %d: %v, want %v", n, g, got, want)
			}
		}
		all := make([]int32, n)
		for j := range all {
			all[j] = int32(j)
		}
		slices.SortFunc(all, byXY(xs, ys))
		got := floatorder.ByPairs(xs, ys)
		for k := range all {
			if got[k] != int(all[k]) {
				t.Fatalf("n %d: ByPairs differs at %d: %d, want %d", n, k, got[k], all[k])
			}
		}
		if want := -1; n == 0 && leftmost(xs, ys) != want {
			t.Errorf("leftmost of no points: %d, want -1", leftmost(xs, ys))
		} else if n > 0 && leftmost(xs, ys) != int(all[0]) {
			t.Errorf("n %d: leftmost %d, want %d", n, leftmost(xs, ys), all[0])
		}
	}
}

// The tab's groups hold their points in the order of (x, y, index), with
// scope group (groups of 8, each sorted alone) and scope batch (one group
// larger than sortAlone, in the batch's order), on every pair of axes
// (one of them 0/1, many points equal in both); the first selection is
// the leftmost point.
func TestParetoGroupsInXOrder(t *testing.T) {
	for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
		s := uitest.SyntheticSession(t, 6000)
		s.Options.Scope = scope
		s.Recompute()
		c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
		for _, axes := range [][2]int{{0, 1}, {1, 2}, {0, 2}} {
			tab := New(c)
			tab.SetSize(120, 40)
			p := tab.(*paretoTab)
			p.points.xObj, p.points.yObj, p.points.axesChosen = axes[0], axes[1], true
			tab.Update(common.SessionChangedMsg{})
			if got := len(p.points.start) - 1; got != len(s.CurrentBatch().Groups) {
				t.Fatalf("%s: %d groups, want %d", scope, got, len(s.CurrentBatch().Groups))
			}
			xs, ys := p.points.proj.X, p.points.proj.Y
			all := make([]int32, len(xs))
			for j := range all {
				all[j] = int32(j)
			}
			slices.SortFunc(all, byXY(xs, ys))
			for g := range len(p.points.start) - 1 {
				var want []int32
				for _, j := range all {
					if p.points.groupOf[j] == int32(g) {
						want = append(want, j)
					}
				}
				if got := p.groupPoints(int32(g)); !slices.Equal(got, want) {
					t.Fatalf("%s, axes %v, group %d: %v, want %v", scope, axes, g, got, want)
				}
			}
			if p.selectedTrajectory() != p.points.proj.Index[all[0]] {
				t.Errorf("%s, axes %v: selected trajectory %d, want the leftmost, %d", scope, axes, p.selectedTrajectory(), p.points.proj.Index[all[0]])
			}
		}
	}
}

// A click as near two points selects the first in the order of
// (x, y, index), not the first by index.
func TestParetoNearestTiesByX(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	p.points.proj.X, p.points.proj.Y = []float64{2, 0, 1, 1}, []float64{0, 0, 5, -5}
	if got := p.nearest(nil, 1, 0, 1, 1); got != 1 {
		t.Errorf("between (2, 0) and (0, 0): position %d, want 1", got)
	}
	if got := p.nearest([]int32{2, 3}, 1, 0, 1, 1); got != 3 {
		t.Errorf("between (1, 5) and (1, -5): position %d, want 3", got)
	}
	if got := p.nearest([]int32{}, 1, 0, 1, 1); got != -1 {
		t.Errorf("among no points: %d, want -1", got)
	}
}

// After a change of axes, the cells' best ranks are those of the points
// now plotted (the plot was drawn once with the previous axes' ranks).
func TestParetoDensityAfterAxes(t *testing.T) {
	tab, p := batchScopeTab(t)
	for _, k := range []string{"x", "y", "x"} {
		uitest.PressKeys(tab, k)
		g := p.drawn.frame.Grid
		counts, best := make([]int32, g.X.Cells*g.Y.Cells), make([]int32, g.X.Cells*g.Y.Cells)
		chart.Density(counts, best, g, p.points.proj.X, p.points.proj.Y, p.points.rank, nil)
		if !slices.Equal(counts, p.drawn.counts) || !slices.Equal(best, p.drawn.best) {
			t.Fatalf("after %s (axes %d, %d): the cells' counts or best ranks are not the points'", k, p.points.xObj, p.points.yObj)
		}
	}
}
