package health

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestZeroSpreadOfOneRowGroups: a step whose every group has one row (a
// table of one row per prompt, TRL's log_unique_prompts=True) has no
// spread within a group to judge: zero_spread is a WARN that says so, not
// the ALERT of all-equal groups, which a step of groups of two equal rows
// still gets.
func TestZeroSpreadOfOneRowGroups(t *testing.T) {
	var ts []scoring.Trajectory
	for g, x := range []float64{0, 1, 1, 0, 1, 0} {
		ts = append(ts, scoring.Trajectory{Batch: 1, Group: string(rune('a' + g)), Done: true, Metadata: map[string]any{"x": x}})
	}
	for g, x := range []float64{0, 1, 1} {
		for range 2 {
			ts = append(ts, scoring.Trajectory{Batch: 2, Group: string(rune('a' + g)), Done: true, Metadata: map[string]any{"x": x}})
		}
	}
	res, _ := evaluateX(t, ts)
	var zero []Finding
	for _, f := range Findings(res, diagnose.Trends(res, nil), Config{}) {
		if f.Check == CheckZeroSpread {
			zero = append(zero, f)
		}
	}
	if len(zero) != 2 || zero[0].Step != 1 || zero[0].Level != Warn || !strings.HasPrefix(zero[0].Message, "every group has one row (6 groups): no spread within a group to judge") ||
		zero[1].Step != 2 || zero[1].Level != Alert || !strings.HasPrefix(zero[1].Message, "3 of 3 groups have all-equal scores") {
		t.Errorf("zero_spread findings %+v; want step 1's WARN that it cannot judge, step 2's ALERT", zero)
	}
}
