package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// walk8 is a fixture of cmd/testdata/walk8 (its README: written with the
// trainers' own code).
func walk8(name string) string { return filepath.Join("testdata", "walk8", name) }

// TestTRLRLOOBetaNamesTheKL checks a table of TRL's RLOOTrainer with its
// default beta 0.05: its num_tokens column, ints a reward function logged
// with log_extra, is not read as a reward, and the warning that nothing
// reproduces the logged advantage names the KL penalty the table lacks.
func TestTRLRLOOBetaNamesTheKL(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "rloo", walk8("rloo_beta"))
	for i, r := range recs {
		if _, extra := r.Objectives["num_tokens"]; extra || len(r.Objectives) != 3 {
			t.Fatalf("record %d: objectives %v, want the 3 reward columns", i, r.Objectives)
		}
	}
	for _, want := range []string{
		"objectives accuracy_reward, format_reward, len_reward,",
		"(TRL's RLOOTrainer subtracts beta·KL, beta 0.05 by default, from the reward before its baseline, and the KL is not in the logged table: set beta=0 to compare)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Said once, by the warning that nothing reproduces the log, not by
	// the "read as" line too.
	if n := strings.Count(errOut, "beta·KL"); n != 1 {
		t.Errorf("the KL penalty said %d times, want once:\n%s", n, errOut)
	}
	_, errOut = computeList(t, "", "--method", "grpo", walk8("rloo_beta"))
	if !strings.Contains(errOut, "(if this is RLOOTrainer's log: TRL's RLOOTrainer subtracts beta·KL") {
		t.Errorf("under grpo, stderr lacks the KL penalty as a condition:\n%s", errOut)
	}
}

// TestVerlRPPBaselineWarnsOfTokens checks that rpp-baseline on a verl dump
// says, in compute's and stats' warnings, that verl weighs each response
// by its token count, which the dump lacks; grpo, counting each response
// once as verl does, is not warned of.
func TestVerlRPPBaselineWarnsOfTokens(t *testing.T) {
	const want = "verl's rpp-baseline weighs each response by its token count (masked_whiten over the response tokens), not in the dump"
	for _, command := range []string{"compute", "stats"} {
		for _, method := range []string{"rpp-baseline", "grpo"} {
			_, errOut, code := run(t, "", command, "--method", method, walk8("verl_rpp"))
			if code != 0 || strings.Contains(errOut, want) != (method == "rpp-baseline") {
				t.Errorf("%s --method %s: status %d, stderr (warning expected: %v):\n%s", command, method, code, method == "rpp-baseline", errOut)
			}
		}
	}
}

// TestTRLEvalRowsTakeTrainingGroupSize checks a step whose file holds the
// last training group (4 rows) and evaluation rows of 2 per prompt, after
// a training step of groups of 4: num_generations is the training steps'
// 4, not the 2 the evaluation groups outnumber it by, so the evaluation
// groups are the ones said to be of another size, and every row matches
// the logged advantage.
func TestTRLEvalRowsTakeTrainingGroupSize(t *testing.T) {
	recs, errOut := computeList(t, "", walk8("trl_eval"))
	if n, worst := trlReproduced(t, recs); n != len(recs) {
		t.Errorf("%d of %d rows reproduce TRL's advantage (max |diff| %.3g)", n, len(recs), worst)
	}
	want := "step 2: prompt groups of unequal size where TRL writes num_generations (here 4) rows per prompt: 4 groups of another size, probably evaluation rows logged in the same table"
	if !strings.Contains(errOut, want) || strings.Contains(errOut, "a prompt repeated") {
		t.Errorf("stderr lacks %q or blames a repeated prompt:\n%s", want, errOut)
	}
}

// TestTrainerStdinRecognised checks that a verl dump and a TRL W&B table
// piped alone to standard input, without --from, are read as their
// files are: the layout recognised and its defaults taken from the first
// records, the same records written.
func TestTrainerStdinRecognised(t *testing.T) {
	for _, name := range []string{"verl_grpo/1.jsonl", "trl_eval/completions_2_aaa.table.json"} {
		path := walk8(name)
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fileOut, fileErr, fileCode := run(t, "", "compute", path)
		stdinOut, stdinErr, stdinCode := run(t, string(text), "compute", "-")
		if fileCode != 0 || stdinCode != 0 || stdinOut != fileOut || strings.Contains(stdinErr, "read as plain records") {
			t.Errorf("%s: status %d by path, %d on standard input; same records: %v; stderr on standard input:\n%s\nby path:\n%s", name, fileCode, stdinCode, stdinOut == fileOut, stdinErr, fileErr)
		}
	}
}

// TestTRLReadAsSaysTheWeightsThatReproduce checks the read-as line of
// tables TRL's code wrote with reward_weights [2, 0.5, 1] under scale
// group, scale batch and normalize_then_sum: it gives those weights,
// which reproduce the log, not their ratios to the first (1, 0.25, 0.5),
// which epsilon tells apart.
func TestTRLReadAsSaysTheWeightsThatReproduce(t *testing.T) {
	const want = "fitted accuracy_reward 2, format_reward 0.5, len_reward 1;"
	for _, name := range []string{"trl_w_group", "trl_w_batch", "trl_nts"} {
		_, errOut := computeList(t, "", walk8(name))
		if !strings.Contains(errOut, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", name, want, errOut)
		}
	}
}

// TestTRLRLOOWhitenedNotedPerBatch checks a table of TRL's RLOOTrainer with
// normalize_advantages=True, whose 3 rows of all-None rewards the trainer
// leaves out of the baseline and the whitening and gives 0
// (_generate_and_score_completions: nan_to_num): rloo-whitened reproduces
// every row, those too; and under grpo, stats' per-batch warnings and its
// JSON's reproduced_note say that rloo-whitened takes the step for TRL's
// generation batch, as --match-logged's note does.
func TestTRLRLOOWhitenedNotedPerBatch(t *testing.T) {
	const note = "rloo-whitened takes the step for TRL's generation batch, which RLOOTrainer whitens over: so it is with steps_per_generation 1"
	recs, _ := computeList(t, "", "--method", "rloo-whitened", walk8("rloo_norm"))
	if n, worst := trlReproduced(t, recs); n != len(recs) || len(recs) != 36 {
		t.Errorf("%d of %d rows reproduce RLOOTrainer's advantage (max |diff| %.3g)", n, len(recs), worst)
	}
	invalid := 0
	for _, r := range recs {
		if !r.Valid {
			invalid++
		}
	}
	if invalid != 3 {
		t.Errorf("%d rows invalid, want the 3 of all-None rewards", invalid)
	}
	out, _, _ := run(t, "", "stats", "--method", "grpo", walk8("rloo_norm"))
	if n := strings.Count(out, "reproduces this batch to "); n != 3 || strings.Count(out, "`--method rloo-whitened` reproduces this batch to ") != 3 || strings.Count(out, note) != 3 {
		t.Errorf("stats table: want each of the 3 batches reproduced by rloo-whitened, with the note:\n%s", out)
	}
	out, _, _ = run(t, "", "stats", "--format", "json", "--method", "grpo", walk8("rloo_norm"))
	var report struct {
		Batches []struct {
			Agreement *struct {
				ReproducedBy   *string `json:"reproduced_by"`
				ReproducedNote string  `json:"reproduced_note"`
			} `json:"trainer_agreement"`
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	for i, b := range report.Batches {
		if a := b.Agreement; a == nil || a.ReproducedBy == nil || *a.ReproducedBy != "--method rloo-whitened" || a.ReproducedNote != note {
			t.Errorf("batch %d: %+v", i, a)
		}
	}
}

// TestTRLEvalRowsUnderScaleBatchSaid checks a table TRL's code wrote under
// scale_rewards="batch" whose step 2 holds the last training group and
// evaluation rows (num_generations_eval 2), each part whitened over its
// own batch: no setting reproduces step 2, as the batch's std here takes
// both, and the warning says so, not that the settings changed.
func TestTRLEvalRowsUnderScaleBatchSaid(t *testing.T) {
	_, errOut := computeList(t, "", walk8("trl_eval_batch"))
	for _, want := range []string{
		"`--scale batch` reproduces step 1 to ",
		"none reproduces step 2, whose groups of another size than its others (evaluation rows?) enter the statistics that scale batch, gdpo and rloo-whitened take over the whole step, where TRL takes the training rows alone: with evaluation rows in the table those settings cannot be reproduced",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	out, _, _ := run(t, "", "stats", walk8("trl_eval_batch"))
	const batchWant = "no trainer setting tried reproduces this batch, whose groups of another size than its others (evaluation rows?) enter the statistics"
	if strings.Count(out, batchWant) != 1 {
		t.Errorf("stats: want step 2's warning alone to say %q:\n%s", batchWant, out)
	}
}

// TestVerlScoreNotANumber: a verl dump whose score is a string, which
// verl could not have scored, warns of it as not a number, and says
// the row is not what verl trained on, not that logged advantages (a
// verl dump has none) differ.
func TestVerlScoreNotANumber(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile(filepath.Join(walk8("verl_grpo"), "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(text), "\n")
	first = strings.Replace(first, `"score": 0.10000000149011612`, `"score": "oops"`, 1)
	if !strings.Contains(first, `"oops"`) {
		t.Fatalf("no score replaced in %s", first)
	}
	if err := os.WriteFile(filepath.Join(dir, "1.jsonl"), []byte(first+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, _ := run(t, "", "compute", dir)
	const want = `warning: an invalid score (not a number) in 1 group: step 1, group …"Step 1 problem 2: what is 3 * 7? Let's t"… (1 of 5); here those rows are invalid and the group's others are scored without them, where verl could not have scored them (its reward manager raises at a score that is no number): these rows are not what verl trained on`
	if !strings.Contains(errOut, want) || strings.Contains(errOut, "logged advantages differ") {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}

// TestVerlAllFailedNoCeiling: a verl run whose step 4 failed every answer
// alike (walk8's verl_allfail) is said dead (dead_signal, all-fail), not
// at its ceiling: a batch of one score is not graded by ceiling.
func TestVerlAllFailedNoCeiling(t *testing.T) {
	out, errOut, _ := run(t, "", "stats", "--health", walk8("verl_allfail"))
	if strings.Contains(out+errOut, "ceiling") || !strings.Contains(out, "4 zero-spread groups (0 all-pass, 4 all-fail") || !strings.Contains(errOut, "dead_signal at step 4") {
		t.Errorf("want step 4 dead, all-fail, and no ceiling:\n%s\n%s", out, errOut)
	}
}
