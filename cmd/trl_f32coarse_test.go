package cmd

import (
	"strings"
	"testing"
)

// stats --follow --health under settings that agree only within a coarse
// float32 bound says so, as stats --health does.
func TestFollowHealthCoarseNote(t *testing.T) {
	shortQuiet(t)
	dir := trlFixture("gdpo_models_200_weights")
	settings := []string{"--method", "gdpo", "--weight", "reward_model=1", "--weight", "judge_model=0.5"}
	_, errOut, _ := run(t, "", append(append([]string{"stats", "--health"}, settings...), dir)...)
	if !strings.Contains(errOut, "only within float32's error") {
		t.Fatalf("stats --health gives no note:\n%s", errOut)
	}
	f := startFollowing(t, append(append([]string{"stats", "--follow", "--health"}, settings...), dir)...)
	f.await(t, "step 1 ")
	f.stop()
	if all := f.out.String() + f.errOut.String(); !strings.Contains(all, "float32's error") {
		t.Errorf("stats --follow --health says nothing of the coarse bound:\n%s", all)
	}
}

// A coarse bound's rows count as agreeing, but the figures said are the
// real differences, and --match-logged picks no setting on coarse
// agreement alone: TRL's rloo-whitened [1, 0.5] run is not gdpo [1, 0.2]
// "to 0".
func TestCoarseBoundKeepsTheDifference(t *testing.T) {
	dir := trlFixture("rloo_whitened_models_2000_weights")
	wrong := []string{"--method", "gdpo", "--weight", "reward_model=1", "--weight", "judge_model=0.2"}
	recs, _ := computeList(t, "", append(wrong, dir)...)
	worst := 0.0
	for _, r := range recs {
		worst = max(worst, r.Reward-*r.Logged, *r.Logged-r.Reward)
	}
	out, _, _ := run(t, "", append(append([]string{"stats"}, wrong...), dir)...)
	if worst > 0.5 && strings.Contains(out, "max |diff| 0.0000") {
		t.Errorf("compute's |reward - logged| reaches %.3g, stats says:\n%s", worst, out[strings.Index(out, "reward vs logged"):][:120])
	}
	_, errOut, _ := run(t, "", "stats", "--match-logged", dir)
	if strings.Contains(errOut, "`--method gdpo --weight reward_model=1 --weight judge_model=0.2` (gdpo, epsilon 0.0001) reproduces the logged advantage to 0") {
		t.Errorf("--match-logged takes TRL's rloo-whitened [1, 0.5] run for gdpo [1, 0.2], 'to 0':\n%s", errOut)
	}
}

// Where the settings tried agree only within coarse float32 bounds (TRL's
// normalize_then_sum, rewards near 200), --match-logged applies none: it
// says the log cannot determine them at this scale, naming the trainer's
// [1, 0.5] among those, and computes with the settings as given.
func TestMatchLoggedCoarseOnlyAppliesNone(t *testing.T) {
	dir := trlFixture("gdpo_models_200_weights")
	_, errOut, _ := run(t, "", "stats", "--match-logged", "--method", "gdpo", dir)
	want := "--match-logged: the log cannot determine the settings at this scale"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "`--weight reward_model=1 --weight judge_model=0.5` (max |diff| ") || !strings.Contains(errOut, "computing with the settings as given") || strings.Contains(errOut, "computing with it") {
		t.Errorf("--match-logged on coarse agreement alone:\n%s", errOut)
	}
}
