package cmd

import (
	"math"
	"strings"
	"testing"
)

// TestTRLFloat32Rounding reads testdata/trl/reward_model_20 (TRL's own
// advantage code, num_generations 8, one reward model's score near 20
// with a within-group std of about 0.01): TRL's float32 mean and std
// leave its advantage more than 1e-4 from the exact one in some rows,
// within the float32 bound (agreement.GRPOFloat32). stats --health finds
// no trainer_agreement, no row differs, no warning says a setting is
// missing, and --match-logged keeps the settings; a wrong weight, scale
// or epsilon still differs.
func TestTRLFloat32Rounding(t *testing.T) {
	dir := trlFixture("reward_model_20")
	recs, _ := computeList(t, "", dir)
	worst := 0.0
	for _, r := range recs {
		worst = max(worst, math.Abs(r.Reward-*r.Logged))
	}
	if len(recs) != 64 || !(worst > 1e-4) {
		t.Fatalf("%d records, max |reward - logged| %.3g: want 64, TRL's float32 rounding beyond 1e-4", len(recs), worst)
	}
	out, errOut, code := run(t, "", "stats", "--health", dir)
	if code != 0 || strings.Contains(out+errOut, "trainer_agreement") || strings.Contains(errOut, "differ from the logged advantage") || !strings.Contains(out, "reward vs logged advantage: 64 rows, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("stats --health finds a disagreement in TRL's float32 rounding (status %d):\n%s%s", code, errOut, out)
	}
	out, errOut, code = run(t, "", "stats", "--match-logged", dir)
	if code != 0 || strings.Contains(errOut, "none of") || !strings.Contains(out, "method grpo, scope group, scale group, epsilon 0.0001") {
		t.Errorf("stats --match-logged (status %d):\n%s%s", code, errOut, out)
	}
	for _, wrong := range [][]string{{"--weight", "reward_model=2"}, {"--scale", "batch"}, {"--scale", "none"}, {"--epsilon", "1e-6"}} {
		out, errOut, code := run(t, "", append([]string{"stats", "--health"}, append(wrong, dir)...)...)
		if code != 3 || !strings.Contains(out, "ALERT  step 1  trainer_agreement") {
			t.Errorf("%v: status %d, not found to differ:\n%s%s", wrong, code, errOut, out)
		}
	}
}
