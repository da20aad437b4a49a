package cmd

import (
	"math"
	"strings"
	"testing"
)

// TestTRLFloat32Ties reads testdata/trl/f32_tie (README.md there): rewards
// that TRL's float32 sum makes equal are equal, as the TRL layout sums the
// score in float32. The tied group has zero spread (frac_zero_std_groups
// 0.5, TRL's frac_reward_zero_std; one dead-signal group), its rewards are
// 0 and its score the float32 0.7, and every reward is TRL's advantage;
// with --score-precision float64 the group has spread, as before.
func TestTRLFloat32Ties(t *testing.T) {
	dir := trlFixture("f32_tie")
	out, errOut, code := run(t, "", "stats", dir)
	if code != 0 {
		t.Fatalf("stats: status %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"frac_zero_std_groups 0.5000", "dead signal: 1 zero-spread group", "; method grpo, score in float32\n"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("stats does not say %q:\n%s%s", want, errOut, out)
		}
	}
	recs, _ := computeList(t, "", dir)
	if len(recs) != 8 {
		t.Fatalf("%d records, want 8", len(recs))
	}
	if n, worst := trlReproduced(t, recs); n != 8 {
		t.Errorf("%d of 8 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
	tied := float64(float32(0.7))
	for i, r := range recs[:4] {
		if r.Score == nil {
			t.Fatalf("record %d has no score", i)
		}
		if *r.Score != tied || r.Reward != 0 {
			t.Errorf("record %d of the tied group: score %v, reward %v, want %v and 0", i, *r.Score, r.Reward, tied)
		}
	}

	out, errOut, code = run(t, "", "stats", "--score-precision", "float64", dir)
	if code != 0 {
		t.Fatalf("stats --score-precision float64: status %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "frac_zero_std_groups 0.0000") || strings.Contains(errOut, "score in float32") {
		t.Errorf("stats --score-precision float64:\n%s%s", errOut, out)
	}
	recs, _ = computeList(t, "", "--score-precision", "float64", dir)
	if r := recs[0].Reward; math.Abs(r) < 1e-6 || math.Abs(r) > 1e-3 {
		t.Errorf("--score-precision float64: reward %v, want the float64 sums' small spread, normalised", r)
	}
}
