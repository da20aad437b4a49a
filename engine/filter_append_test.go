package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// groupSizes is the groups of ev, batch by batch, as key and size.
func groupSizes(ev *Evaluation) string {
	var out []string
	for _, b := range ev.Partition(ScopeGroup) {
		for _, g := range b.Groups {
			out = append(out, fmt.Sprintf("%s%d", g.Key, len(g.Members)))
		}
	}
	return strings.Join(out, " ")
}

// runTrajs returns a trajectory of batch 1 a letter of groups.
func runTrajs(groups string) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for i, g := range strings.Split(groups, "") {
		ts = append(ts, enginetest.Traj(1, g, "x", float64(i)))
	}
	return ts
}

// filteredThenAppended returns the groups of groups' evaluation filtered
// to its first kept rows then appended more, and those of a fresh
// evaluation of the same rows.
func filteredThenAppended(t *testing.T, groupRuns int, groups string, kept int, more string) (got, fresh string) {
	t.Helper()
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, GroupRuns: groupRuns})
	if err != nil {
		t.Fatal(err)
	}
	ts := runTrajs(groups)
	e := c.NewEvaluator()
	e.Add(ts)
	filtered := e.Evaluation().Filter(func(i int) bool { return i < kept })
	before := groupSizes(filtered)
	got = groupSizes(filtered.Append(c.Scorer, runTrajs(more)))
	if after := groupSizes(filtered); after != before {
		t.Fatalf("appending changed the filtered evaluation's groups: %s, were %s", after, before)
	}
	f := c.NewEvaluator()
	f.Add(runTrajs(groups[:kept] + more))
	return got, groupSizes(f.Evaluation())
}

// A batch's first run, cut from its end because another run ended it,
// whose ending run a Filter drops (its file read again), then appended
// to: the groups are those of a fresh evaluation of the same rows, the
// first run cut from its start.
func TestFilterDroppingEndingRunThenAppendIsFresh(t *testing.T) {
	got, fresh := filteredThenAppended(t, 3, "AAAAABBB", 5, "A")
	if got != fresh {
		t.Errorf("filtered then appended: %s; fresh: %s", got, fresh)
	}
}

// Every cut of random runs, kept up to it, then appended random rows:
// the groups are a fresh evaluation's.
func TestFilterPrefixThenAppendIsFreshRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		groupRuns := 2 + rng.IntN(3)
		letters := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteByte("AB"[rng.IntN(2)])
				if rng.IntN(3) == 0 { // runs longer than one row
					b.WriteString(strings.Repeat(b.String()[b.Len()-1:], rng.IntN(2*groupRuns)))
				}
			}
			return b.String()
		}
		groups, more := letters(1+rng.IntN(6)), letters(1+rng.IntN(4))
		for kept := 1; kept <= len(groups); kept++ {
			if got, fresh := filteredThenAppended(t, groupRuns, groups, kept, more); got != fresh {
				t.Fatalf("group_runs %d, %s kept %d then %s: filtered then appended %s; fresh %s", groupRuns, groups, kept, more, got, fresh)
			}
		}
	}
}
