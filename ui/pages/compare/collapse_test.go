package compare

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// collapseCount is diagnose.Collapse of batch bi as counts: the groups
// holding two distinct objective vectors, and those of them where two
// members of distinct vectors get equal rewards (checked pair by pair in
// engine/diagnose).
func collapseCount(res *engine.Result, bi int) (collapsed, groups int) {
	share, groups := diagnose.Collapse(res, &res.Ranking.Batches[bi])
	if groups == 0 {
		return 0, 0
	}
	return int(share*float64(groups) + 0.5), groups
}

// TestCompareShowsCollapse: the tab shows, for A and B, the groups of the
// batch where distinct objective vectors get tied rewards, as
// diagnose.Collapse counts them, for every method B.
func TestCompareShowsCollapse(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	for _, b := range engine.Methods {
		s.CompareMethod = b
		uitest.Refresh(tab, s)
		// Rows align their values in columns: compare with single spaces.
		v := strings.Join(strings.Fields(uitest.Plain(tab)), " ")
		a, groups := collapseCount(s.Result, s.Batch)
		bres := s.Result
		if b != s.Result.Options.Method {
			bres = s.CompareResult()
		}
		bc, _ := collapseCount(bres, s.Batch)
		want := fmt.Sprintf("collapsed A %d · B %d of %d", a, bc, groups)
		if !strings.Contains(v, want) {
			t.Errorf("B = %s: the tab lacks %q:\n%s", b, want, v)
		}
	}
}

// TestCompareCountsTheCollapseOfANewResultOnly: a switch of B keeps A's
// result, whose collapse the last comparison counted (the known share
// below is not one Collapse gives, so reading it proves it was not
// counted again); B's new result is counted, and a known count of the
// batch at another size is counted again.
func TestCompareCountsTheCollapseOfANewResultOnly(t *testing.T) {
	_, s := uitest.SampleTab(t, New)
	s.CompareMethod = engine.RLOO
	if b, ok := s.CompareNeeded(s.Result.Options); ok {
		s.SetCompare(s.Evaluation.Compute(b))
	}
	a, b, bi := s.Result, s.CompareResult(), s.Batch
	n := len(a.Ranking.Batches[bi].Members)
	counted := [2]collapseOf{{}, {res: a, bi: bi, n: n, share: 0.125, groups: 99}}
	buf := new(agreement.Buffers)
	v := ranked(compare(a, b, bi, engine.RLOO, known{collapsed: counted}, buf, nil), buf)
	wantB, groups := collapseCount(b, bi)
	if v.collapse[0] != 0.125 || v.groups != 99 {
		t.Errorf("A's collapse was counted again: %v of %d, want the known 0.125 of 99", v.collapse[0], v.groups)
	}
	if got := int(v.collapse[1]*float64(groups) + 0.5); got != wantB {
		t.Errorf("B's collapse: %d groups, want %d", got, wantB)
	}
	if v.collapsed[0] != counted[1] || v.collapsed[1].res != b {
		t.Errorf("the counts kept for the next comparison: %+v", v.collapsed)
	}
	counted[1].n = n - 1
	v = ranked(compare(a, b, bi, engine.RLOO, known{collapsed: counted}, buf, nil), buf)
	if wantA, _ := collapseCount(a, bi); int(v.collapse[0]*float64(v.groups)+0.5) != wantA || v.groups != groups {
		t.Errorf("A's collapse on a batch of another size was not counted again: %v of %d", v.collapse[0], v.groups)
	}
}

// TestCollapseRowFits: the collapse counts and their total on one row
// when any counts of the batch's groups fit the panel, else the total on
// a row of its own, nothing cut (a batch of a million trajectories in
// groups of 8), whatever the counts: the panel does not move on a switch.
func TestCollapseRowFits(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	ct := tab.(*compareTab)
	row := func(label, value string, _ lipgloss.Style) string {
		if ansi.StringWidth(value) > panelValueWidth {
			t.Errorf("%q is wider than the panel's %d cells", value, panelValueWidth)
		}
		return label + "|" + value
	}
	ct.ranked, ct.groups, ct.collapse = true, 14, [2]float64{1, 0}
	if got, want := ct.collapseView(row), "collapsed|A 14 · B 0 of 14"; got != want {
		t.Errorf("14 groups: %q, want %q", got, want)
	}
	ct.groups, ct.collapse = 125_000, [2]float64{124_997.0 / 125_000, 0}
	if got, want := ct.collapseView(row), "collapsed|A 124997 · B 0\n|of 125000"; got != want {
		t.Errorf("125000 groups: %q, want %q", got, want)
	}
	// Counts that would fit one row keep the two of the batch's size.
	ct.collapse = [2]float64{0, 0}
	if got, want := ct.collapseView(row), "collapsed|A 0 · B 0\n|of 125000"; got != want {
		t.Errorf("125000 groups, none collapsed: %q, want %q", got, want)
	}
}

// TestCompareTakesTheGroupsOfDistinctRewards: a result whose rewards on
// the batch are all distinct collapses no group, and the groups holding
// distinct vectors are those of any count on the same evaluation and
// partition: a switch of A to such a method reads them from B's count
// rather than counting (the known count below is not one Collapse gives,
// so reading it proves A was not counted). Every method A, counted or
// not, gets what diagnose.Collapse gives.
func TestCompareTakesTheGroupsOfDistinctRewards(t *testing.T) {
	s := uitest.SyntheticSession(t, 4_000)
	opts, bi := s.Result.Options, s.Batch
	opts.Method = engine.GRPO
	b := s.Evaluation.Compute(opts)
	n := len(b.Ranking.Batches[bi].Members)
	buf := new(agreement.Buffers)
	distinct := 0
	for _, m := range engine.MethodsFor(opts) {
		opts.Method = m
		a := s.Evaluation.Compute(opts)
		wantShare, wantGroups := diagnose.Collapse(a, &a.Ranking.Batches[bi])
		_, bGroups := diagnose.Collapse(b, &b.Ranking.Batches[bi])
		counted := [2]collapseOf{{}, {res: b, bi: bi, n: n, share: 0.125, groups: bGroups}}
		v := ranked(compare(a, b, bi, engine.GRPO, known{collapsed: counted}, buf, nil), buf)
		if v.groups != wantGroups || v.collapse[0] != wantShare && !(math.IsNaN(v.collapse[0]) && math.IsNaN(wantShare)) {
			t.Errorf("A %s: collapse %v of %d groups, Collapse gives %v of %d", m, v.collapse[0], v.groups, wantShare, wantGroups)
		}
		if !v.sides[0].AllDistinct() {
			continue
		}
		distinct++
		counted[1].groups = 99
		v = ranked(compare(a, b, bi, engine.GRPO, known{collapsed: counted}, buf, nil), buf)
		if v.groups != 99 || v.collapse[0] != 0 {
			t.Errorf("A %s, its rewards distinct: collapse %v of %d groups, want 0 of B's known 99", m, v.collapse[0], v.groups)
		}
	}
	if distinct == 0 {
		t.Fatal("no method gives distinct rewards on the session: the test tests nothing")
	}
}

// TestCompareCountsTheBatchOnceForDistinctB: a first comparison, no count
// known, of A with tied rewards against B of distinct rewards counts the
// batch once, for A: B's groups are those of A's count just made.
func TestCompareCountsTheBatchOnceForDistinctB(t *testing.T) {
	s := uitest.SyntheticSession(t, 4_000)
	opts, bi := s.Result.Options, s.Batch
	opts.Method = engine.Pareto
	a := s.Evaluation.Compute(opts)
	opts.Method = engine.GDPO
	b := s.Evaluation.Compute(opts)
	calls := 0
	defer func(count func(*engine.Result, *engine.Batch) (float64, int)) { countCollapse = count }(countCollapse)
	countCollapse = func(res *engine.Result, batch *engine.Batch) (float64, int) {
		calls++
		return diagnose.Collapse(res, batch)
	}
	buf := new(agreement.Buffers)
	v := ranked(compare(a, b, bi, engine.GDPO, known{}, buf, nil), buf)
	if v.sides[0].AllDistinct() || !v.sides[1].AllDistinct() {
		t.Fatalf("the session's pareto rewards must tie and gdpo's be distinct: A distinct %v, B %v", v.sides[0].AllDistinct(), v.sides[1].AllDistinct())
	}
	wantShare, wantGroups := diagnose.Collapse(b, &b.Ranking.Batches[bi])
	if v.collapse[1] != wantShare || v.collapsed[1].groups != wantGroups {
		t.Errorf("B: collapse %v of %d groups, Collapse gives %v of %d", v.collapse[1], v.collapsed[1].groups, wantShare, wantGroups)
	}
	if calls != 1 {
		t.Errorf("the batch was counted %d times, want once (A's)", calls)
	}
}
