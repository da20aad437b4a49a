package compare

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// bruteCollapse counts the groups of batch bi holding two distinct
// objective vectors, and those of them where two members of distinct
// vectors get equal rewards, pair by pair.
func bruteCollapse(res *engine.Result, bi int) (collapsed, groups int) {
	ev := res.Evaluation
	row := func(i int) []float64 { return ev.Values[i*ev.M : (i+1)*ev.M] }
	for _, g := range res.Ranking.Batches[bi].Groups {
		distinct, tied := false, false
		for _, i := range g.Members {
			for _, j := range g.Members {
				if i < j && ev.Valid[i] && ev.Valid[j] && !slices.Equal(row(i), row(j)) {
					distinct = true
					tied = tied || res.Rewards[i] == res.Rewards[j]
				}
			}
		}
		if distinct {
			groups++
			if tied {
				collapsed++
			}
		}
	}
	return collapsed, groups
}

// TestCompareShowsCollapse: the tab shows, for A and B, the groups of the
// batch where distinct objective vectors get tied rewards, as a brute
// force counts them, for every method B.
func TestCompareShowsCollapse(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	for _, b := range engine.Methods {
		s.CompareMethod = b
		uitest.Refresh(tab, s)
		// Rows align their values in columns: compare with single spaces.
		v := strings.Join(strings.Fields(uitest.Plain(tab)), " ")
		a, groups := bruteCollapse(s.Result, s.Batch)
		bres := s.Result
		if b != s.Result.Options.Method {
			bres = s.CompareResult()
		}
		bc, _ := bruteCollapse(bres, s.Batch)
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
	v := compare(a, b, bi, engine.RLOO, known{collapsed: counted}, new(agreement.Buffers), nil)
	wantB, groups := bruteCollapse(b, bi)
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
	v = compare(a, b, bi, engine.RLOO, known{collapsed: counted}, new(agreement.Buffers), nil)
	if wantA, _ := bruteCollapse(a, bi); int(v.collapse[0]*float64(v.groups)+0.5) != wantA || v.groups != groups {
		t.Errorf("A's collapse on a batch of another size was not counted again: %v of %d", v.collapse[0], v.groups)
	}
}
