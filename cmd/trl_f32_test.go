package cmd

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/stats"
)

// TestTRLFloat32Ties reads testdata/trl/f32_tie (README.md there): rewards
// that TRL's float32 sum makes equal are equal, as the TRL layout sums the
// score in float32, as stats' settings (table and JSON) and the "read as"
// line say. The tied group has zero spread (frac_zero_std_groups 0.5,
// TRL's frac_reward_zero_std; one dead-signal group), its rewards are 0
// and its score the float32 0.7, and every reward is TRL's advantage;
// with --score-precision float64 the group has spread, as before.
func TestTRLFloat32Ties(t *testing.T) {
	dir := trlFixture("f32_tie")
	out, errOut, code := run(t, "", "stats", dir)
	if code != 0 {
		t.Fatalf("stats: status %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"group of one zero, score float32\n", "frac_zero_std_groups 0.5000", "dead signal: 1 zero-spread group", "; method grpo, score in float32\n"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("stats does not say %q:\n%s%s", want, errOut, out)
		}
	}
	if out, _, _ := run(t, "", "stats", "--format", "json", dir); !strings.Contains(out, `"score_precision": "float32"`) {
		t.Errorf("stats JSON does not say the score is summed in float32:\n%s", out)
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
	if !strings.Contains(out, "frac_zero_std_groups 0.0000") || strings.Contains(errOut, "score in float32") || strings.Contains(out, "float32") {
		t.Errorf("stats --score-precision float64:\n%s%s", errOut, out)
	}
	recs, _ = computeList(t, "", "--score-precision", "float64", dir)
	if r := recs[0].Reward; math.Abs(r) < 1e-6 || math.Abs(r) > 1e-3 {
		t.Errorf("--score-precision float64: reward %v, want the float64 sums' small spread, normalised", r)
	}
}

// TestStatsStdAgainstTRL: stats' std is the population std, and its help
// says how to turn it into TRL's reward_std and rewards/NAME/std, sample
// stds (nanstd): times sqrt(count / (count - 1)), checked on the scores
// and an objective of testdata/trl/f32_tie against the sample std of the
// values compute writes.
func TestStatsStdAgainstTRL(t *testing.T) {
	help, _, _ := run(t, "", "stats", "--help")
	if !strings.Contains(help, "TRL logs reward_std and rewards/NAME/std as sample stds (n - 1): an std\nhere times sqrt(count / (count - 1)) is TRL's.") {
		t.Errorf("stats --help does not say how its std compares with TRL's:\n%s", help)
	}
	dir := trlFixture("f32_tie")
	out, errOut, code := run(t, "", "stats", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("stats: status %d, stderr %s", code, errOut)
	}
	type summary struct {
		Count int     `json:"count"`
		Std   float64 `json:"std"`
	}
	var report struct {
		Batches []struct {
			Score      summary   `json:"score"`
			Objectives []summary `json:"objectives"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Batches) != 1 || len(report.Batches[0].Objectives) != 2 {
		t.Fatalf("stats JSON %v: %s", err, out)
	}

	recs, _ := computeList(t, "", dir)
	var scores, style []float64
	for _, r := range recs {
		scores = append(scores, *r.Score)
		style = append(style, *r.Objectives["style_reward"])
	}
	b := report.Batches[0]
	for _, c := range []struct {
		what   string
		s      summary
		values []float64
	}{{"score", b.Score, scores}, {"style_reward", b.Objectives[0], style}} {
		n := float64(c.s.Count)
		if trl := c.s.Std * math.Sqrt(n/(n-1)); math.Abs(trl-stats.SampleStd(c.values)) > 1e-12 {
			t.Errorf("%s: std %v times sqrt(n / (n - 1)) is %v, the sample std %v", c.what, c.s.Std, trl, stats.SampleStd(c.values))
		}
	}
}

// TestTRLFloat32Residue reads testdata/trl/constant_format_8 (TRL's own
// advantage code, num_generations 8, a format reward constant at 0.2):
// the groups whose sums are all 1.2 or all 0.2 carry TRL's small equal
// advantage of the float32 residue, which agrees with rewardlens's 0.
// stats --health has no trainer_agreement finding and says no row
// differs, counting the 2 groups of the residue (tie_residue_groups in
// JSON), the layout reads both columns as rewards, weight 1 (not
// unknown, the constant column not log_extra); a wrong weight is still
// found to differ in the group with spread, and scale none in every
// group (its residue would be far below the one logged).
func TestTRLFloat32Residue(t *testing.T) {
	dir := trlFixture("constant_format_8")
	out, errOut, _ := run(t, "", "stats", "--health", dir)
	if strings.Contains(out+errOut, "trainer_agreement") || !strings.Contains(out, "reward vs logged advantage: 24 rows, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("stats --health finds a disagreement in TRL's float32 residue:\n%s%s", errOut, out)
	}
	if !strings.Contains(out, "\n2 whole groups of equal scores carry an equal non-zero logged advantage within torch's float32 residue of 0 (trained on; its value depends on torch's summation order): it agrees with their reward 0 here\n") {
		t.Errorf("stats does not count the groups of the residue:\n%s", out)
	}
	if out, _, _ := run(t, "", "stats", "--format", "json", dir); !strings.Contains(out, `"differing": 0,`) || !strings.Contains(out, `"tie_residue_groups": 2`) {
		t.Errorf("stats JSON does not count the groups of the residue:\n%s", out)
	}
	if !strings.Contains(errOut, "objectives accuracy_reward, format_reward, a null reward adds nothing, logged advantage = advantage; method grpo") {
		t.Errorf("the read as line does not take both columns as rewards, weight 1:\n%s", errOut)
	}
	recs, _ := computeList(t, "", dir)
	for i, r := range recs[:16] {
		if r.Reward != 0 || r.Logged == nil || *r.Logged == 0 {
			t.Errorf("record %d of a tied group: reward %v, logged %v, want 0 and TRL's residue", i, r.Reward, r.Logged)
		}
	}
	if n, worst := trlReproduced(t, recs[16:]); n != 8 {
		t.Errorf("%d of the other group's 8 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
	for _, wrong := range []struct {
		flags  []string
		differ string
	}{{[]string{"--weight", "accuracy_reward=0.1"}, "8 of 24"}, {[]string{"--scale", "none"}, "24 of 24"}} {
		out, errOut, code := run(t, "", append([]string{"stats", "--health"}, append(wrong.flags, dir)...)...)
		if code != 3 || !strings.Contains(out, "ALERT  step 1  trainer_agreement            "+wrong.differ+" rows differ") {
			t.Errorf("%v: status %d, not %s rows found to differ:\n%s%s", wrong.flags, code, wrong.differ, errOut, out)
		}
	}
}

// TestTRLFloat32ResidueWeighted reads testdata/trl/tie_weighted_8 (TRL's
// own code, reward_weights=[2.0, 0.5], a prompt whose weighted sums tie
// but for TRL's float32 residue): the layout fits the weights with that
// group checked against its residue, not fitted (no weights fit it), and
// --match-logged finds the trainer's weights, the group counted as the
// residue.
func TestTRLFloat32ResidueWeighted(t *testing.T) {
	dir := trlFixture("tie_weighted_8")
	out, errOut, code := run(t, "", "stats", "--match-logged", dir)
	if code != 0 {
		t.Fatalf("stats --match-logged: status %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"whose sum with weights other than 1 (fitted accuracy_reward 2, format_reward 0.5; --match-logged fits them) reproduces the logged advantage",
		"rewardlens: --match-logged: `--weight accuracy_reward=2 --weight format_reward=0.5` (grpo, scale group, epsilon 0.0001) reproduces the logged advantage to "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stats --match-logged does not say %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, ", 0 differ by more than 0.0001\n1 whole group of equal scores carries an equal non-zero logged advantage") {
		t.Errorf("stats --match-logged:\n%s", out)
	}
}

// TestTRLFloat32ResidueZeroColumn reads testdata/trl/zero_format_8 (TRL's
// own code, a format reward 0 throughout, two prompts whose sums tie but
// for TRL's float32 residue): the format column is not set aside as
// log_extra nor the weights said unknown (no row tells a reward of 0
// from a log_extra column), and no row differs.
func TestTRLFloat32ResidueZeroColumn(t *testing.T) {
	dir := trlFixture("zero_format_8")
	out, errOut, code := run(t, "", "stats", dir)
	if code != 0 || !strings.Contains(errOut, "rewards = accuracy_reward, format_reward, all the float columns after completion: no row of ") || strings.Contains(errOut, "unknown") || strings.Contains(errOut, "log_extra columns format_reward") {
		t.Errorf("stats: status %d, the read as line:\n%s", code, errOut)
	}
	if !strings.Contains(out, ", 0 differ by more than 0.0001\n2 whole groups of equal scores carry") {
		t.Errorf("stats:\n%s", out)
	}
}

// TestTRLFloat32ResidueGDPO reads testdata/trl/gdpo_constant_format_6
// (TRL's own normalize_then_sum, num_generations 6, a format reward
// constant at 0.9 in three prompts' completions): each of those groups
// normalises its constant format to torch's float32 residue, some 1e-4,
// which the batch's normalisation shifts by its mean, so every row of
// the table, the fourth group's too, differs from rewardlens's gdpo by
// up to 5e-4, the groups' rows alike. They agree (no trainer_agreement,
// the 3 groups counted), the trainer check names gdpo as what
// reproduces the log, the layout reads both columns as rewards, weight
// 1 (not the weights unknown), and a wrong weight or --no-normalize
// still differs.
func TestTRLFloat32ResidueGDPO(t *testing.T) {
	dir := trlFixture("gdpo_constant_format_6")
	out, errOut, code := run(t, "", "stats", "--health", "--method", "gdpo", dir)
	if code != 0 || strings.Contains(out+errOut, "trainer_agreement") || !strings.Contains(out, "reward vs logged advantage: 24 rows, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("stats --health --method gdpo finds a disagreement in TRL's float32 residue (status %d):\n%s%s", code, errOut, out)
	}
	if !strings.Contains(out, "\n3 whole groups with a reward tied in float32 carry torch's float32 residue of its group's normalisation or baseline, which the batch's normalisation spreads to every row (trained on; its value depends on torch's summation order): the batch's logged advantages agree with its rewards here\n") {
		t.Errorf("stats does not say the groups of the residue:\n%s", out)
	}
	if out, _, _ := run(t, "", "stats", "--format", "json", "--method", "gdpo", dir); !strings.Contains(out, `"differing": 0,`) || !strings.Contains(out, `"tie_residue_groups": 3`) {
		t.Errorf("stats JSON does not count the groups of the residue:\n%s", out)
	}
	if _, errOut, _ := run(t, "", "stats", dir); !strings.Contains(errOut, "`--method gdpo` reproduces it to 0 (--match-logged applies it)") {
		t.Errorf("the trainer check does not find gdpo:\n%s", errOut)
	} else if !strings.Contains(errOut, "objectives accuracy_reward, format_reward, a null reward adds nothing, logged advantage = advantage; method grpo") || strings.Contains(errOut, "unknown") {
		t.Errorf("the read as line does not take both columns as rewards, weight 1:\n%s", errOut)
	}
	out, errOut, code = run(t, "", "stats", "--match-logged", dir)
	if code != 0 || !strings.Contains(out, "method gdpo, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("stats --match-logged does not apply gdpo (status %d):\n%s%s", code, errOut, out)
	}
	for _, wrong := range [][]string{{"--weight", "accuracy_reward=0.5"}, {"--no-normalize"}} {
		out, errOut, code := run(t, "", append([]string{"stats", "--health", "--method", "gdpo"}, append(wrong, dir)...)...)
		if code != 3 || !strings.Contains(out, "ALERT  step 1  trainer_agreement  24 of 24 rows differ") {
			t.Errorf("%v: status %d, not found to differ:\n%s%s", wrong, code, errOut, out)
		}
	}
}

// TestTRLGDPOPowerOfTwoNoResidue reads testdata/trl/gdpo_constant_format_8
// (TRL's own normalize_then_sum, num_generations 8, a format reward
// constant at 0.2 in three prompts' completions): torch 1.13 on a CPU
// sums a group's 8 values of a reward of two or more pairwise there
// (the group's dimension not the innermost), exactly for equal values,
// so TRL's log holds no residue and gdpo reproduces it to float32
// rounding, with no group of residue counted.
func TestTRLGDPOPowerOfTwoNoResidue(t *testing.T) {
	dir := trlFixture("gdpo_constant_format_8")
	out, _, _ := run(t, "", "stats", "--format", "json", "--method", "gdpo", dir)
	if !strings.Contains(out, `"differing": 0,`) || !strings.Contains(out, `"tie_residue_groups": 0`) {
		t.Errorf("stats JSON:\n%s", out)
	}
	recs, _ := computeList(t, "", "--method", "gdpo", dir)
	if n, worst := trlReproduced(t, recs); n != 32 {
		t.Errorf("%d of 32 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLFloat32ResidueRLOOWhitened reads testdata/trl/rloo_whitened_tied_7
// (TRL's own RLOOTrainer, normalize_advantages=True, num_generations 7,
// every prompt's completions tied): the leave-one-out baselines are off
// by the float32 residue of the tied sums, some 1e-7, which whitening
// divides by their own std plus 1e-4, logging up to 6e-4 where
// rloo-whitened gives 0. They agree under rloo-whitened, the 4 groups
// counted; under grpo with scale none (no residue of its size) they
// still differ.
func TestTRLFloat32ResidueRLOOWhitened(t *testing.T) {
	dir := trlFixture("rloo_whitened_tied_7")
	out, errOut, code := run(t, "", "stats", "--health", "--method", "rloo-whitened", dir)
	if code == 3 && strings.Contains(out, "trainer_agreement") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("stats --method rloo-whitened finds a disagreement in TRL's float32 residue (status %d):\n%s%s", code, errOut, out)
	}
	if out, _, _ := run(t, "", "stats", "--format", "json", "--method", "rloo-whitened", dir); !strings.Contains(out, `"tie_residue_groups": 4`) {
		t.Errorf("stats JSON does not count the groups of the residue:\n%s", out)
	}
	if out, _, _ := run(t, "", "stats", "--health", "--scale", "none", dir); !strings.Contains(out, "ALERT  step 1  trainer_agreement            28 of 28 rows differ") {
		t.Errorf("--scale none is not found to differ:\n%s", out)
	}
}

// TestTRLFloat32ResidueGDPOWeighted reads testdata/trl/gdpo_weighted_6
// (TRL's own normalize_then_sum with reward_weights=[2.0, 0.5], the
// residue of gdpo_constant_format_6): the layout fits the weights
// though no weights fit the residue's shift of each group (checked with
// it after the fit), and --match-logged computes with them, no row
// differing.
func TestTRLFloat32ResidueGDPOWeighted(t *testing.T) {
	dir := trlFixture("gdpo_weighted_6")
	out, errOut, code := run(t, "", "stats", "--match-logged", dir)
	if code != 0 || !strings.Contains(errOut, "whose sum with weights other than 1 (fitted accuracy_reward 2, format_reward 0.5; --match-logged fits them) reproduces the logged advantage") {
		t.Errorf("the read as line does not fit TRL's weights (status %d):\n%s", code, errOut)
	}
	if !strings.Contains(errOut, "rewardlens: --match-logged: `--method gdpo --weight accuracy_reward=2 --weight format_reward=0.5` (gdpo, epsilon 0.0001) reproduces the logged advantage to ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n3 whole groups with a reward tied in float32") {
		t.Errorf("stats --match-logged does not find TRL's weights:\n%s%s", errOut, out)
	}
}

// TestTRLRLOOWhitenedResidueMasked reads testdata/trl/rloo_whitened_7
// (TRL's own RLOOTrainer, normalize_advantages=True, three prompts'
// completions tied, the fourth's graded): the tied groups' residue, some
// 1e-7, is divided by the batch's std, which the graded group makes
// about 0.5, so rloo-whitened reproduces TRL's log to float32 rounding
// with no group of residue to count: the residue is seen only in a batch
// whose every group ties (rloo_whitened_tied_7).
func TestTRLRLOOWhitenedResidueMasked(t *testing.T) {
	dir := trlFixture("rloo_whitened_7")
	if out, _, _ := run(t, "", "stats", "--format", "json", "--method", "rloo-whitened", dir); !strings.Contains(out, `"differing": 0,`) || !strings.Contains(out, `"tie_residue_groups": 0`) {
		t.Errorf("stats JSON:\n%s", out)
	}
	recs, _ := computeList(t, "", "--method", "rloo-whitened", dir)
	if n, worst := trlReproduced(t, recs); n != 28 {
		t.Errorf("%d of 28 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLFloat32ResidueUnscorable reads testdata/trl/unscorable_tie_8
// (TRL's own code, num_generations 8, a format reward constant at 0.2,
// one completion of the first prompt unscorable, both rewards None): TRL
// leaves that row out of its group's mean and std and gives it 0, and its
// seven others, tied at 1.2, carry the float32 residue of their tie. The
// group is whole to TRL: stats --health finds no trainer_agreement, no
// row differing, and counts it as a group of the residue; scale none
// (its residue far below the one logged) still differs.
func TestTRLFloat32ResidueUnscorable(t *testing.T) {
	dir := trlFixture("unscorable_tie_8")
	recs, _ := computeList(t, "", dir)
	for i, r := range recs[:8] {
		if i != 3 && (r.Reward != 0 || r.Logged == nil || math.Abs(*r.Logged) <= 1e-4) {
			t.Errorf("record %d of the tied group: reward %v, logged %v, want 0 and TRL's residue beyond 1e-4", i, r.Reward, r.Logged)
		}
	}
	out, errOut, _ := run(t, "", "stats", "--health", dir)
	if strings.Contains(out+errOut, "trainer_agreement") || !strings.Contains(out, "reward vs logged advantage: 15 rows, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") ||
		!strings.Contains(out, "\n1 whole group of equal scores carries an equal non-zero logged advantage within torch's float32 residue of 0 ") {
		t.Errorf("stats --health does not take the tie of the scorable rows as TRL's residue:\n%s%s", errOut, out)
	}
	out, errOut, code := run(t, "", "stats", "--health", "--scale", "none", dir)
	if code != 3 || !strings.Contains(out, "trainer_agreement") {
		t.Errorf("--scale none: status %d, not found to differ:\n%s%s", code, errOut, out)
	}
}
