package diagnose

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestGroupOfOneZeroSpread: a group of one valid trajectory is without
// signal (zero_spread, frac_zero_std_groups, the dead signal's
// zero-spread groups) exactly when the Groups tab says so
// (GroupSummary.NoSignal): under grpo or rloo with --group-of-one score
// (verl's compute_grpo_outcome_advantage: mean 0, std 1), and under gpg
// and rpp-baseline whatever --group-of-one (verl's mean 0), its reward
// follows its score, a signal; otherwise it gets 0 (TRL) and counts.
//
// The batch: a (1, 0, 0), b (1), c (0.5), d (0), e (2, 2), and f, whose
// one trajectory is invalid. Task metric x >= 1 passes: 4 of 8 valid
// pass, p = 1/2, so dead(G) = p^G + (1-p)^G is 1/4 for a, 1/2 for e, 1
// for a group of one. With a group of one scored: 1 zero-spread group (e,
// all-pass) of 5, expected dead share (1/4 + 1/2) / 5 = 0.15, the groups
// of one adding nothing; with it rewarded 0: 4 (b and e all-pass, c and
// d all-fail) of 5, expected (1/4 + 1/2 + 3) / 5 = 0.75.
func TestGroupOfOneZeroSpread(t *testing.T) {
	var ts []scoring.Trajectory
	for _, r := range []struct {
		g string
		x float64
	}{{"a", 1}, {"a", 0}, {"a", 0}, {"b", 1}, {"c", 0.5}, {"d", 0}, {"e", 2}, {"e", 2}} {
		ts = append(ts, enginetest.Traj(0, r.g, "x", r.x))
	}
	invalid := enginetest.Traj(0, "f", "y", 1) // no x: invalid
	ts = append(ts, invalid)
	task := []float64{1, 0, 0, 1, 0.5, 0, 2, 2, 1}
	for _, c := range []struct {
		method     engine.Method
		groupOfOne engine.GroupOfOne
		zero       int
		deadPass   int
		expected   float64
	}{
		{engine.GRPO, engine.GroupOfOneScore, 1, 1, 0.15},
		{engine.RLOO, engine.GroupOfOneScore, 1, 1, 0.15},
		{engine.GRPO, engine.GroupOfOneZero, 4, 2, 0.75},
		{engine.RLOO, engine.GroupOfOneZero, 4, 2, 0.75},
		{engine.Pareto, engine.GroupOfOneScore, 4, 2, 0.75},
		{engine.Relative, engine.GroupOfOneScore, 4, 2, 0.75},
		// verl's gpg and rpp-baseline give it mean 0 whatever is asked
		// (alpha s, s whitened); rloo-whitened and grpo-passk 0.
		{engine.GPG, engine.GroupOfOneZero, 1, 1, 0.15},
		{engine.RPPBaseline, engine.GroupOfOneZero, 1, 1, 0.15},
		{engine.RLOOWhitened, engine.GroupOfOneScore, 4, 2, 0.75},
		{engine.GRPOPassK, engine.GroupOfOneScore, 4, 2, 0.75},
	} {
		t.Run(fmt.Sprintf("%s_%s", c.method, c.groupOfOne), func(t *testing.T) {
			opts := engine.Options{Method: c.method, GroupOfOne: c.groupOfOne}
			res := oneObjective(t, opts).Compute(ts, c.method)
			b := &res.Ranking.Batches[0]
			st := StatsOf(res, b)
			if st.Groups != 5 || st.ZeroStdGroups != c.zero || st.FracZeroStdGroups != float64(c.zero)/5 {
				t.Errorf("%d groups, %d zero-spread (%v); want 5, %d", st.Groups, st.ZeroStdGroups, st.FracZeroStdGroups, c.zero)
			}
			noSignal := 0
			for _, g := range GroupSummaries(res, b) {
				if g.Valid > 0 && g.NoSignal(res.Options) {
					noSignal++
				}
			}
			if noSignal != st.ZeroStdGroups {
				t.Errorf("the Groups tab finds %d groups holding a valid trajectory without signal, the statistics %d", noSignal, st.ZeroStdGroups)
			}
			d := DeadSignalOf(res, b, task, 1)
			if d.Groups != 5 || d.ZeroSpread != c.zero || d.ZeroAllPass != c.deadPass || d.ZeroAllFail != c.zero-c.deadPass || d.Phantom != 0 || !near(d.ExpectedDeadShare, c.expected) {
				t.Errorf("dead signal %+v, want 5 groups, %d zero-spread (%d all-pass), expected dead share %v", d, c.zero, c.deadPass, c.expected)
			}
		})
	}
}
