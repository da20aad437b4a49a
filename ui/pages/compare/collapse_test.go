package compare

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
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
