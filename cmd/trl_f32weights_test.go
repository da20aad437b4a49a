package cmd

import (
	"math"
	"strings"
	"testing"
)

// TestTRLFloat32WeightsNotRead reads testdata/trl/gdpo_models_100_weights,
// gdpo_models_200_weights and gdpo_models_2000_weights (TRL's own
// normalize_then_sum, reward_weights [1, 0.5], two reward models near
// 100, 200 or 2000 and 3), where TRL's float32 error is as large as what
// a wrong weight changes: the read-as line of compute and stats says the
// weights could not be read from the log and why, not that they are
// unknown nor any ratios (near 2000, 1 : 1 before, which
// --match-logged's 1 : 0.5 contradicts), and each record's score is the
// columns' sum with weight 1 each, the defaults it says it computes
// with (to 4 units of float32's last place: the score is summed in
// float32).
func TestTRLFloat32WeightsNotRead(t *testing.T) {
	const readAs = "rewards = reward_model, judge_model, all the float columns after completion: their weights could not be read from the logged advantage of "
	const why = ", TRL's float32 error at this scale (its float32 sums of scores far from 0 with a small spread lose digits) being as large as what a wrong weight changes; computing with weight 1 each, the defaults (pass the trainer's reward_weights with --weight NAME=W)"
	for _, fixture := range []string{"gdpo_models_100_weights", "gdpo_models_200_weights", "gdpo_models_2000_weights"} {
		dir := trlFixture(fixture)
		recs, errOut := computeList(t, "", dir)
		_, statsErr, code := run(t, "", "stats", dir)
		for cmd, stderr := range map[string]string{"compute": errOut, "stats": statsErr} {
			if !strings.Contains(stderr, readAs) || !strings.Contains(stderr, why) || strings.Contains(stderr, "unknown") || strings.Contains(stderr, "in the ratios") {
				t.Errorf("%s: %s's read-as line does not say the weights could not be read (status %d):\n%s", fixture, cmd, code, stderr)
			}
		}
		for i, r := range recs {
			rm, jm := r.Objectives["reward_model"], r.Objectives["judge_model"]
			if r.Score == nil || rm == nil || jm == nil || !(math.Abs(*r.Score-(*rm+*jm)) <= 4*math.Abs(*r.Score)/(1<<23)) {
				t.Fatalf("%s: record %d's score is not reward_model + judge_model, weight 1 each: %+v", fixture, i, r)
			}
		}
	}
}
