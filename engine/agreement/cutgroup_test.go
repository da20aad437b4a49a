package agreement

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestLeaveOutCutGroupUnequal: the group --max-rows cut (k, read last,
// shorter than a) is left out of the warning of groups of unequal size:
// the warning goes when the other groups are of one size, and says the
// others, and that k is left out, when they are not; uncapped, k is
// named as it is.
func TestLeaveOutCutGroupUnequal(t *testing.T) {
	const kLeftOut = `; the group --max-rows cut (step 0, group "k", 2 of its rows read) left out`
	for _, c := range []struct {
		sizes  []int // of a, b, then k
		capped bool
		want   string // the one note, "" for none
	}{
		{[]int{4, 4, 2}, true, ""},
		{[]int{4, 4, 2}, false, `2 of 3 groups have 4 trajectories, "k" 2 `},
		{[]int{4, 3, 4, 2}, true, `2 of 3 groups have 4 trajectories, "b" 3 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)` + kLeftOut},
	} {
		keys := []string{"a", "b", "c", "k"}
		var ts []scoring.Trajectory
		for g, n := range c.sizes {
			key := keys[g]
			if g == len(c.sizes)-1 {
				key = "k"
			}
			for i := range n {
				ts = append(ts, enginetest.Traj(0, key, "x", float64(i)))
			}
		}
		comp := oneObjective(t, engine.DefaultOptions())
		comp.EqualGroups = true
		ev := evaluateWith(comp, ts)
		check := CheckTrainer(comp, ev)
		res := ev.Compute(comp.Options)
		if cut, ok := CutGroupOf(res, c.capped); ok {
			check.leaveOutCutGroup(cut, res)
		}
		switch {
		case c.want == "" && (len(check.Notes) != 0 || len(check.Unequal) != 0):
			t.Errorf("sizes %v, capped %v: notes %q, want none", c.sizes, c.capped, check.Notes)
		case c.want != "" && (len(check.Notes) != 1 || !strings.Contains(check.Notes[0], c.want) || !c.capped && strings.Contains(check.Notes[0], "--max-rows")):
			t.Errorf("sizes %v, capped %v: notes %q, want one with %q", c.sizes, c.capped, check.Notes, c.want)
		}
	}
}
