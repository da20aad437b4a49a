package health

import (
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// cutRun returns the findings of a run of steps 0-2, each of two groups
// of x 1 and 3, and step 3 of groups whose x are last (the last, read
// short, a group of one: x 1), the task metric x passing at 1.5.
func cutRun(t *testing.T, capped bool, last ...[]float64) []Finding {
	t.Helper()
	var ts []scoring.Trajectory
	add := func(step int64, group string, xs []float64) {
		for _, x := range xs {
			ts = append(ts, scoring.Trajectory{Batch: step, Group: group, Done: true, Metadata: map[string]any{"x": x}})
		}
	}
	for step := range int64(3) {
		add(step, "a", []float64{1, 3})
		add(step, "b", []float64{1, 3})
	}
	for g, xs := range last {
		add(3, string(rune('a'+g)), xs)
	}
	add(3, "k", []float64{1})
	res, _ := evaluateX(t, ts)
	trends := diagnose.Trends(res, nil)
	diagnose.AddDeadSignal(res, trends, res.Scores, 1.5)
	var cfg Config
	if capped {
		cfg.RowCap = scoring.CappedUntold // guessed from the sizes
	}
	return Findings(res, trends, cfg)
}

// messages returns the messages of the findings of check.
func messages(findings []Finding, check Check) []string {
	var out []string
	for _, f := range findings {
		if f.Check == check {
			out = append(out, f.Message)
		}
	}
	return out
}

// TestHealthLeavesOutTheCutGroupCounts: zero_spread and variance_collapse
// leave out the group --max-rows cut (a group of one, all-equal and of
// std 0 whatever it would have been), saying so; dead_signal, whose task
// metric health does not have, counts it and says so. Read whole, the
// same rows are counted as they are.
func TestHealthLeavesOutTheCutGroupCounts(t *testing.T) {
	// Groups a (std 0.5), b (all-equal) and the cut k: 2 of 3 groups
	// all-equal, std 0.5/3 of the baseline's 1; without k, 1 of 2 and
	// 0.25, neither a finding.
	for _, capped := range []bool{true, false} {
		got := cutRun(t, capped, []float64{1, 2}, []float64{1, 1})
		zero, collapse := messages(got, CheckZeroSpread), messages(got, CheckVarianceCollapse)
		if capped && (len(zero) > 0 || len(collapse) > 0) {
			t.Errorf("capped: zero_spread %q, variance_collapse %q, want neither", zero, collapse)
		}
		if !capped && (len(zero) != 1 || !strings.HasPrefix(zero[0], "2 of 3 groups have all-equal scores") || len(collapse) != 1) {
			t.Errorf("read whole: zero_spread %q, variance_collapse %q, want 2 of 3 groups and a collapse", zero, collapse)
		}
	}
	// With c (all-equal) too: the findings stay, their messages say that
	// k is left out of their counts, and that dead_signal counts it.
	for _, c := range []struct {
		capped                   bool
		zero, collapse, dead, in string
	}{
		{true, "2 of 3 groups have all-equal scores (no GRPO signal); the group --max-rows cut (step 3, group \"k\", 1 of its rows read) left out",
			"score std within groups 0.167, 17% of the baseline's 1; the group --max-rows cut (step 3, group \"k\", 1 of its rows read) left out",
			"; the group --max-rows cut (step 3, group \"k\", 1 of its rows read) counted", "3 of 4 groups all pass or all fail"},
		{false, "3 of 4 groups have all-equal scores (no GRPO signal)", "score std within groups 0.125, 12% of the baseline's 1", "", "3 of 4 groups all pass or all fail"},
	} {
		got := cutRun(t, c.capped, []float64{1, 2}, []float64{1, 1}, []float64{1, 1})
		zero, collapse, dead := messages(got, CheckZeroSpread), messages(got, CheckVarianceCollapse), messages(got, CheckDeadSignal)
		if len(zero) != 1 || zero[0] != c.zero {
			t.Errorf("capped %v: zero_spread %q, want %q", c.capped, zero, c.zero)
		}
		if len(collapse) != 1 || collapse[0] != c.collapse {
			t.Errorf("capped %v: variance_collapse %q, want %q", c.capped, collapse, c.collapse)
		}
		if len(dead) != 1 || !strings.HasPrefix(dead[0], c.in) || !strings.HasSuffix(dead[0], c.dead) || !c.capped && strings.Contains(dead[0], "--max-rows") {
			t.Errorf("capped %v: dead_signal %q, want %q ending %q", c.capped, dead, c.in, c.dead)
		}
	}
}

// TestHealthLeavesOutTheOnlyGroupRead: when the group --max-rows stopped
// in is the only group read of its step (k, a group of one, all-fail),
// nothing shows it whole: zero_spread and variance_collapse leave it out
// (no group left to count), and no check grades the step, whose
// statistics are of its rows alone. Read whole, the same group is
// graded.
func TestHealthLeavesOutTheOnlyGroupRead(t *testing.T) {
	for _, capped := range []bool{true, false} {
		got := cutRun(t, capped)
		zero, dead := messages(got, CheckZeroSpread), messages(got, CheckDeadSignal)
		if capped && slices.ContainsFunc(got, func(f Finding) bool { return f.Step == 3 }) {
			t.Errorf("capped: findings at step 3 %v; want none: the step holds the cut group alone", got)
		}
		if !capped && (len(zero) != 1 || !strings.HasPrefix(zero[0], "1 of 1 group has all-equal scores") || len(dead) != 1 || strings.Contains(dead[0], "--max-rows")) {
			t.Errorf("read whole: zero_spread %q, dead_signal %q, want 1 of 1 group, and no --max-rows", zero, dead)
		}
	}
	// A group as large as another of its step (a and k, one row each)
	// is counted: the cap fell on its end, as far as can be told (the
	// step's groups all of one row, zero_spread says it cannot judge them).
	got := cutRun(t, true, []float64{1})
	if zero := messages(got, CheckZeroSpread); len(zero) != 1 || !strings.HasPrefix(zero[0], "every group has one row (2 groups)") || strings.Contains(zero[0], "--max-rows") {
		t.Errorf("k as large as a: zero_spread %q, want 2 groups, no --max-rows", zero)
	}
}

// TestHealthBaselineLeavesOutTheOnlyGroupRead: read in the order steps
// 1-4 then 0, --max-rows stops one row into step 0, whose only group it
// holds: that step, first of the baseline, is left out of it as it is
// graded by no check. Its one row of 1000 steps would make the baseline's
// mean step count 340 and hide the drift of step 4 (20 steps against 10);
// read whole, step 0 is in the baseline.
func TestHealthBaselineLeavesOutTheOnlyGroupRead(t *testing.T) {
	var ts []scoring.Trajectory
	add := func(step int64, group string, steps int64, xs ...float64) {
		for _, x := range xs {
			ts = append(ts, scoring.Trajectory{Batch: step, Group: group, Done: true, StepCount: steps, Metadata: map[string]any{"x": x}})
		}
	}
	for step := range int64(4) {
		add(step+1, "a", 10+10*(step/3), 1, 3)
	}
	add(0, "k", 1000, 2)
	res, _ := evaluateX(t, ts)
	trends := diagnose.Trends(res, nil)
	for _, capped := range []bool{true, false} {
		var cfg Config
		if capped {
			cfg.RowCap = scoring.CappedInGroup
		}
		drift := slices.ContainsFunc(Findings(res, trends, cfg), func(f Finding) bool { return f.Check == CheckLengthDrift && f.Step == 4 })
		if drift != capped {
			t.Errorf("capped %v: length_drift at step 4 %v, want %v", capped, drift, capped)
		}
	}
}
