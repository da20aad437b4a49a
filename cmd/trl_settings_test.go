package cmd

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// trlFixture is the completions directory of a fixture of
// cmd/testdata/trl: a TRL completions table written as log() writes it,
// with the advantage TRL's own code computed (scripts/trl_fixtures.py,
// huggingface/trl f2cd577, grpo_trainer.py lines 2676-2730).
func trlFixture(name string) string {
	return filepath.Join("testdata", "trl", name, "completions")
}

// trlReproduced returns how many records have a reward within 1e-6 of
// TRL's logged advantage (float32 rounding) and the largest |difference|,
// failing when a record has no logged advantage.
func trlReproduced(t *testing.T, recs []record) (int, float64) {
	t.Helper()
	n, worst := 0, 0.0
	for i, r := range recs {
		if r.Logged == nil {
			t.Fatalf("record %d has no logged_advantage", i)
		}
		d := math.Abs(r.Reward - *r.Logged)
		worst = max(worst, d)
		if d <= 1e-6 {
			n++
		}
	}
	return n, worst
}

// TestTRLSettings runs compute --method grpo with no other flag on TRL's
// tables in each setting: the defaults and log_extra columns reproduce
// TRL's advantage on every row; the others carry it as logged_advantage,
// and the flags that match TRL's setting reproduce it on every row.
func TestTRLSettings(t *testing.T) {
	for _, c := range []struct {
		fixture string
		// exact: no flag reproduces every row.
		exact bool
		// flags reproduce every row.
		flags []string
	}{
		{fixture: "group", exact: true},
		{fixture: "log_extra", exact: true},
		{fixture: "scale_batch", flags: []string{"--scale", "batch"}},
		{fixture: "scale_none", flags: []string{"--scale", "none"}},
		{fixture: "reward_weights", flags: []string{"--weight", "format_reward=0.5"}},
		{fixture: "normalize_then_sum", flags: []string{"--method", "gdpo"}},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			recs, _ := computeList(t, "", "--method", "grpo", trlFixture(c.fixture))
			if len(recs) != 16 {
				t.Fatalf("%d records, want 16", len(recs))
			}
			n, worst := trlReproduced(t, recs)
			if c.exact && n != 16 {
				t.Errorf("%d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
			}
			if c.flags == nil {
				return
			}
			if n == 16 {
				t.Errorf("TRL's advantage reproduced without %v: the fixture does not test the setting", c.flags)
			}
			recs, _ = computeList(t, "", append([]string{"--method", "grpo", trlFixture(c.fixture)}, c.flags...)...)
			if n, worst := trlReproduced(t, recs); n != 16 {
				t.Errorf("with %v, %d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", c.flags, n, worst)
			}
		})
	}
}

// TestTRLLogExtraColumns checks that the log_extra columns are not taken
// as rewards: length (a float right after the reward columns, told apart
// by the logged advantage) and similarity (after parsed_answer, a text
// column), and that the read-as line says so.
func TestTRLLogExtraColumns(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", trlFixture("log_extra"))
	for i, r := range recs {
		_, acc := r.Objectives["accuracy_reward"]
		_, format := r.Objectives["format_reward"]
		if len(r.Objectives) != 2 || !acc || !format {
			t.Fatalf("record %d: objectives %v, want accuracy_reward and format_reward", i, r.Objectives)
		}
	}
	for _, want := range []string{"objectives accuracy_reward, format_reward,", "rewards = the first 2 float columns, whose sum reproduces the logged advantage; log_extra columns length, similarity left out"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
}

// TestTRLNarrowedObjectivesWeighOne checks that objectives --objective
// names weigh 1 each under the TRL layout, as TRL's reward functions do
// without reward_weights, not 1/m: with 1/2 each, epsilon would weigh
// twice as much against the std and the rewards differ from TRL's by
// about 1e-4.
func TestTRLNarrowedObjectivesWeighOne(t *testing.T) {
	recs, _ := computeList(t, "", "--method", "grpo", "--objective", `accuracy_reward=metadata["accuracy_reward"]`,
		"--objective", `format_reward=metadata["format_reward"]`, trlFixture("log_extra"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("%d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
	// A --weight still overrides the 1.
	recs, _ = computeList(t, "", "--method", "grpo", "--objective", `accuracy_reward=metadata["accuracy_reward"]`,
		"--objective", `format_reward=metadata["format_reward"]`, "--weight", "format_reward=0.5", trlFixture("reward_weights"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("with --weight: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLUnequalGroups checks the warning for the groups TRL did not
// normalise as rewardlens groups them, and that the other groups still
// reproduce TRL's advantage: evaluation logged at the training step (the
// last 10 training rows, the first group cut to 2, then 3 evaluation
// groups of 2).
func TestTRLUnequalGroups(t *testing.T) {
	for _, c := range []struct {
		fixture string
		warning []string
		// exact counts the rows of the groups of the usual size.
		exact int
	}{
		{"eval_same_step", []string{"step 1: prompt groups of unequal size where TRL writes num_generations (here 4) rows per prompt: 4 groups of another size, probably evaluation rows",
			`…"Factor x^2 - 1.<|im_end|>\n<|im_start|>as"… (2), …"Eval: 2 + 2?`}, 8},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			for _, command := range []string{"compute", "stats"} {
				_, errOut, code := run(t, "", command, "--method", "grpo", trlFixture(c.fixture))
				if code != 0 {
					t.Fatalf("%s: status %d: %s", command, code, errOut)
				}
				for _, w := range c.warning {
					if !strings.Contains(errOut, w) {
						t.Errorf("%s: stderr lacks %q: %s", command, w, errOut)
					}
				}
			}
			recs, _ := computeList(t, "", "--method", "grpo", trlFixture(c.fixture))
			sizes := map[string]int{}
			for _, r := range recs {
				sizes[r.Group]++
			}
			n := 0
			for i, r := range recs {
				if sizes[r.Group] == 4 {
					n++
					if d := math.Abs(r.Reward - *r.Logged); d > 1e-6 {
						t.Errorf("record %d, in a group of 4: reward %.9g, TRL logged %.9g", i, r.Reward, *r.Logged)
					}
				}
			}
			if n != c.exact {
				t.Errorf("%d rows in groups of 4, want %d", n, c.exact)
			}
		})
	}
	// Groups of one size say nothing.
	if _, errOut, _ := run(t, "", "compute", "--method", "grpo", trlFixture("group")); strings.Contains(errOut, "warning") {
		t.Errorf("a warning on equal groups: %s", errOut)
	}
}

// TestTRLUnequalGroupsLeaveOutTheCutGroup: the group --max-rows cut is
// not counted among TRL's groups of another size: alone (6 of the
// fixture's groups of 4: 4 and 2 read) it makes no warning; beside
// evaluation groups (15 rows: the fourth evaluation group cut to 1) the
// warning counts the others and says it was left out.
func TestTRLUnequalGroupsLeaveOutTheCutGroup(t *testing.T) {
	_, errOut, code := run(t, "", "compute", "--method", "grpo", "--max-rows", "6", trlFixture("group"))
	if code != 0 || strings.Contains(errOut, "unequal size") {
		t.Errorf("status %d, stderr %s", code, errOut)
	}
	_, errOut, code = run(t, "", "compute", "--method", "grpo", "--max-rows", "15", trlFixture("eval_same_step"))
	for _, want := range []string{"3 groups of another size", `; the group --max-rows cut (step 1, group "<|im_start|>user\nEval: 10 / 4?<|im_end|>\n<|im_start|>assistant\n", 1 of its rows read) left out`} {
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("status %d, stderr lacks %q: %s", code, want, errOut)
		}
	}
}

// TestTRLEvaluationOverwrite checks the warning for a step whose table
// evaluation logging wrote over with evaluation rows only (groups of
// num_generations_eval = 2 where the other steps have 4): step 3 is named,
// the training steps are not, and every row, evaluation's too, has the
// advantage TRL logged (each group normalised in itself).
func TestTRLEvaluationOverwrite(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", trlFixture("eval_overwrite"))
	want := "rewardlens: warning: step 3: every prompt group has 2 rows where the other steps' have 4 (num_generations): probably evaluation rows"
	if !strings.Contains(errOut, want) || strings.Contains(errOut, "step 1") || strings.Contains(errOut, "step 2") {
		t.Errorf("stderr: %s", errOut)
	}
	if n, worst := trlReproduced(t, recs); n != 48 {
		t.Errorf("%d of 48 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLOutputDir checks that TRL's OUTPUT_DIR stands for its
// completions/ tables, alone or beside the saved model's .json files, and
// reproduces the logged advantage as the tables do; a directory whose
// completions/ holds other files, or that has a JSONL file of its own, is
// read as it is.
func TestTRLOutputDir(t *testing.T) {
	tables, err := os.ReadFile(filepath.Join(trlFixture("group"), "completions_00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	outputDir := func(files map[string]string) string {
		dir := t.TempDir()
		for _, sub := range []string{"completions", "checkpoint-1"} {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		files["completions/completions_00001.parquet"] = string(tables)
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, files := range []map[string]string{{}, {"config.json": `{"hidden_size": 896}`, "tokenizer.json": `{"version": "1.0"}`}} {
		dir := outputDir(files)
		recs, errOut := computeList(t, "", "--method", "grpo", dir)
		if n, worst := trlReproduced(t, recs); n != 16 || !strings.Contains(errOut, "read as TRL completions") {
			t.Errorf("%v: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g); stderr %q", files, n, worst, errOut)
		}
	}
	// Not TRL's tables alone: the directory's own files.
	dir := outputDir(map[string]string{"completions/notes.jsonl": `{"a": 1}` + "\n"})
	_, errOut, code := run(t, "", "compute", "--method", "grpo", dir)
	if want := dir + ": no input files in the directory"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stderr %q, want %q", code, errOut, want)
	}
	dir = outputDir(map[string]string{"rollouts.jsonl": `{"prompt": "p", "completion": "c", "r": 1}` + "\n"})
	_, errOut, _ = run(t, "", "compute", "--method", "grpo", "--objective", "r=r", dir)
	if strings.Contains(errOut, "read as TRL completions") {
		t.Errorf("a directory with a JSONL file of its own is read as TRL's: %q", errOut)
	}
}

// TestTRLFollowWarnsOfGroups follows a TRL run whose step 3 evaluation
// rows wrote over: stats --follow warns of it once, as its line is
// printed.
func TestTRLFollowWarnsOfGroups(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := t.TempDir()
	copyTable := func(fixture string, step int) {
		data, err := os.ReadFile(filepath.Join(trlFixture(fixture), fmt.Sprintf("completions_%05d.parquet", step)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("completions_%05d.parquet", step)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for step := 1; step <= 3; step++ {
		copyTable("eval_overwrite", step)
	}
	f := startFollowing(t, "stats", "--follow", "--method", "grpo", dir)
	f.await(t, "step 3 ")
	f.awaitErr(t, "rewardlens: warning: step 3: every prompt group has 2 rows where the other steps' have 4")
	f.stop()
	if n := strings.Count(f.errOut.String(), "warning: step 3:"); n != 1 {
		t.Errorf("step 3 warned %d times: %s", n, f.errOut.String())
	}
}

// TestTRLNormalizeThenSumWeights: TRL's normalize_then_sum with
// reward_weights=[1.0, 0.5] and a None reward: no setting tried one by one
// reproduces it, so compute warns with the weights fitted under gdpo, and
// --match-logged reproduces every row.
func TestTRLNormalizeThenSumWeights(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", trlFixture("normalize_then_sum_weights"))
	if n, _ := trlReproduced(t, recs); n == 16 {
		t.Fatal("TRL's advantage reproduced without flags: the fixture tests nothing")
	}
	if want := "`--method gdpo --weight accuracy_reward=1 --weight format_reward=0.5` reproduces it to "; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	recs, _ = computeList(t, "", "--match-logged", trlFixture("normalize_then_sum_weights"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("--match-logged: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLScaleBatchWeightsExtra: scale_rewards="batch" with
// reward_weights=[1.0, 0.5] and a float log_extra column right after the
// rewards (length), which weight 1 cannot tell apart: the weighted sum of
// the two rewards reproduces the log and length's does not, so length is
// left out, the read-as line says the weights are not 1, and
// --match-logged reproduces every row.
func TestTRLScaleBatchWeightsExtra(t *testing.T) {
	_, errOut := computeList(t, "", "--method", "grpo", trlFixture("scale_batch_weights_extra"))
	if want := "objectives accuracy_reward, format_reward, a null reward adds nothing, logged advantage = advantage, rewards = the first 2 float columns, whose sum with weights other than 1 (fitted accuracy_reward 1, format_reward 0.5; --match-logged fits them) reproduces the logged advantage; log_extra columns length, similarity left out;"; !strings.Contains(errOut, want) {
		t.Errorf("the read-as line lacks %q: %s", want, errOut)
	}
	if want := "`--scale batch --weight accuracy_reward=1 --weight format_reward=0.5` reproduces it to "; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	recs, _ := computeList(t, "", "--match-logged", trlFixture("scale_batch_weights_extra"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("--match-logged: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLRewardWeightsFitted: reward_weights=[1.0, 0.5] under TRL's
// default scale: the warning's fitted weights are TRL's, and
// --match-logged reproduces every row. (Fitting the scale in each round
// with the direction once pulled the direction to 0.423 here.)
func TestTRLRewardWeightsFitted(t *testing.T) {
	_, errOut := computeList(t, "", "--method", "grpo", trlFixture("reward_weights"))
	if want := "`--weight accuracy_reward=1 --weight format_reward=0.5` reproduces it to "; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	recs, _ := computeList(t, "", "--match-logged", trlFixture("reward_weights"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("--match-logged: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
}

// TestTRLRewardWeightsExtra: reward_weights=[1.0, 0.5] with a float
// log_extra column, where accuracy alone reproduces more rows than the
// plain sum: format_reward stays a reward, so --match-logged fits the
// weights and reproduces every row.
func TestTRLRewardWeightsExtra(t *testing.T) {
	recs, errOut := computeList(t, "", "--match-logged", trlFixture("reward_weights_extra"))
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("--match-logged: %d of 16 rows reproduce TRL's advantage (max |diff| %.3g): %s", n, worst, errOut)
	}
}

// TestTRLLogExtraPromptValue: a float log_extra column constant within
// each prompt is not summed into the score: the objectives are the two
// rewards, whose rewards reproduce TRL's advantage, and the read-as line
// warns that the column could be either.
func TestTRLLogExtraPromptValue(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", trlFixture("log_extra_prompt_value"))
	for i, r := range recs {
		if _, extra := r.Objectives["gt_length"]; extra || len(r.Objectives) != 2 {
			t.Fatalf("record %d: objectives %v, want accuracy_reward and format_reward", i, r.Objectives)
		}
	}
	if n, worst := trlReproduced(t, recs); n != 16 {
		t.Errorf("%d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
	}
	if want := "warning: gt_length could be a reward or a log_extra column"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
}

// TestTRLRelogged: with num_iterations 2 and logging_steps 1 TRL writes
// each generation's rows at two steps (the num_iterations_2 fixture,
// TRL's own code): stats and compute leave out steps 2 and 4, which
// repeat 1 and 3, say so once, and count each prompt's completions once.
func TestTRLRelogged(t *testing.T) {
	const warning = "rewardlens: warning: steps 2, 4 repeat the rollouts logged at steps 1, 3: TRL logs a generation again until the next one (num_iterations / steps_per_generation); left out ("
	out, errOut, code := run(t, "", "stats", trlFixture("num_iterations_2"))
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	if strings.Count(errOut, warning) != 1 {
		t.Errorf("stats: stderr lacks the warning once: %s", errOut)
	}
	if strings.Contains(out, "batch 2:") || strings.Contains(out, "batch 4:") || !strings.Contains(out, "batch 1: 16 trajectories") || !strings.Contains(out, "batch 3: 16 trajectories") {
		t.Errorf("stats: batches 2 and 4 not left out:\n%s", out)
	}
	recs, errOut := computeList(t, "", trlFixture("num_iterations_2"))
	if len(recs) != 32 || strings.Count(errOut, warning) != 1 {
		t.Errorf("compute: %d records, want 32; stderr %s", len(recs), errOut)
	}
}

// TestTRLWeightsOfEachTable: compute of a run's two completions tables
// checks the weights the read-as line reads from the first against the
// second: those of one run (reward_weights [2, 0.5] at both steps) say
// nothing more; a second table of weights [4, 1], told from [2, 0.5]
// through epsilon alone, is named on the line with its weights.
func TestTRLWeightsOfEachTable(t *testing.T) {
	const read = "whose sum with weights other than 1 (fitted accuracy_reward 2, format_reward 0.5; --match-logged fits them) reproduces the logged advantage of "
	_, errOut := computeList(t, "", trlFixture("reward_weights_steps"))
	if !strings.Contains(errOut, read) || strings.Contains(errOut, "are not those that the logged advantage of other files tells") {
		t.Errorf("one run's tables: stderr %s, want the weights read, and no warning", errOut)
	}
	_, errOut = computeList(t, "", trlFixture("reward_weights_changed"))
	second := filepath.Join(trlFixture("reward_weights_changed"), "completions_00002.parquet")
	if want := "rewardlens: warning: the weights read from " + filepath.Join(trlFixture("reward_weights_changed"), "completions_00001.parquet") + " (accuracy_reward 2, format_reward 0.5) are not those that the logged advantage of other files tells, " + second + "'s being accuracy_reward 4, format_reward 1 ("; !strings.Contains(errOut, read) || !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
}
