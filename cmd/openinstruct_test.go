package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openInstructDir holds rollout traces written by open-instruct's own
// code (scripts/openinstruct_traces.py: rl_utils.save_rollouts_to_disk
// and the advantage of data_loader.py's _data_preparation_loop, at
// e6c3044aa6201c8bfa4573c1b03142af599e730d), one directory per
// advantage_normalization_type, each with the run's metadata file beside
// two shards of one step each.
var openInstructDir = filepath.Join("testdata", "openinstruct")

// openInstructRow is what the tests read of a RolloutRecord.
type openInstructRow struct {
	Step      int64   `json:"step"`
	SampleIdx int     `json:"sample_idx"`
	PromptIdx int     `json:"prompt_idx"`
	Reward    float64 `json:"reward"`
	Advantage float64 `json:"advantage"`
}

// openInstructGradedNote is what the "read as" line says of the pass
// threshold of the fixtures' rewards, a judge's fractions among them.
const openInstructGradedNote = "pass threshold 1, the default (warning: the first 12 records' rewards above 0 take 4 values, 0.25 to 10, not those of a verification reward and a format reward: a partial score may pass; give --pass-threshold, open-instruct's verification_reward, to stats, prompts or the dashboard)"

// readOpenInstruct reads the shards of dir, in shard order.
func readOpenInstruct(t *testing.T, dir string) []openInstructRow {
	t.Helper()
	var rows []openInstructRow
	for _, shard := range []string{"000000", "000001"} {
		f, err := os.Open(filepath.Join(dir, "grpo_gsm8k__1__1764150000_rollouts_"+shard+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r openInstructRow
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r)
		}
		f.Close()
	}
	return rows
}

// TestOpenInstructTraces runs compute --method grpo with no other flag on
// traces of each of open-instruct's advantage normalisations: every
// reward is the advantage open-instruct logged, the metadata file is left
// out with a note, and the groups are the prompts of a step.
func TestOpenInstructTraces(t *testing.T) {
	for mode, settings := range map[string]string{
		"standard": "epsilon 1e-08, population std",
		"centered": "scale none",
	} {
		dir := filepath.Join(openInstructDir, mode)
		recs, errOut := computeList(t, "", "--method", "grpo", dir)
		meta := filepath.Join(dir, "grpo_gsm8k__1__1764150000_metadata.jsonl")
		want := "rewardlens: read as open-instruct rollout traces: group = prompt_idx, batch = step, objective reward, logged advantage = advantage, prompt = prompt_tokens (prompt_idx is a slot of the step's batch), id = step:sample_idx, step_count = jsonLen(response_tokens), the completion's tokens, " + openInstructGradedNote + "; left out " + meta + " (a run's metadata, not rollouts); method grpo, " + settings + "\n"
		if !strings.Contains(errOut, want) {
			t.Errorf("%s: stderr %q, want %q", mode, errOut, want)
		}
		rows := readOpenInstruct(t, dir)
		if len(recs) != len(rows) || len(rows) != 24 {
			t.Fatalf("%s: %d records, %d rows, want 24", mode, len(recs), len(rows))
		}
		for i, r := range recs {
			w := rows[i]
			if math.Abs(r.Reward-w.Advantage) > 1e-12 || r.Logged == nil || *r.Logged != w.Advantage ||
				r.Batch != w.Step || r.Group != string(rune('0'+w.PromptIdx)) || !r.Valid || r.ID != fmt.Sprintf("%d:%d", w.Step, w.SampleIdx) {
				t.Errorf("%s record %d: id %q reward %.17g logged %v batch %d group %q valid %v, want %.17g, step %d, sample %d, prompt %d",
					mode, i, r.ID, r.Reward, r.Logged, r.Batch, r.Group, r.Valid, w.Advantage, w.Step, w.SampleIdx, w.PromptIdx)
			}
		}
	}

	// By hand: step 1's second prompt scored 1.5, 0.25, 3, 0 (rows 4 to
	// 7): mean 1.1875, deviations 0.3125, -0.9375, 1.8125, -1.1875, whose
	// squares sum to 5.671875: population std sqrt(5.671875 / 4).
	d := math.Sqrt(5.671875/4) + 1e-8
	dev := []float64{0.3125, -0.9375, 1.8125, -1.1875}
	standard, _ := computeList(t, "", "--method", "grpo", filepath.Join(openInstructDir, "standard"))
	centered, _ := computeList(t, "", "--method", "grpo", filepath.Join(openInstructDir, "centered"))
	for j, x := range dev {
		if got := standard[4+j].Reward; math.Abs(got-x/d) > 1e-15 {
			t.Errorf("standard row %d: %.17g, want %.17g", 4+j, got, x/d)
		}
		if got := centered[4+j].Reward; got != x {
			t.Errorf("centered row %d: %.17g, want %.17g", 4+j, got, x)
		}
	}

	// Flags override the layout's: the sample std of TRL and verl no
	// longer reproduces the standard advantage (sample std sqrt(5.671875
	// / 3)).
	sample, errOut := computeList(t, "", "--method", "grpo", "--std", "sample", filepath.Join(openInstructDir, "standard"))
	if want := 0.3125 / (math.Sqrt(5.671875/3) + 1e-8); math.Abs(sample[4].Reward-want) > 1e-15 || strings.Contains(errOut, "population std") {
		t.Errorf("--std sample: %.17g, want %.17g; %q", sample[4].Reward, want, errOut)
	}
}

// TestOpenInstructLength: the completion's length, len(response_tokens),
// is the step_count that length_drift follows: 2 tokens a completion in
// the fixture (the check runs, with a baseline of one step, where it said
// not_run); in a run whose completions grow from 10 tokens to 40 at step
// 5 it raises an ALERT there; a record without response_tokens is an
// error naming its line.
func TestOpenInstructLength(t *testing.T) {
	out, errOut, code := run(t, "", "stats", "--health", "--format", "json", "--baseline", "1", filepath.Join(openInstructDir, "standard"))
	var r struct {
		Health struct {
			NotRun []string `json:"not_run"`
			Trends []struct {
				MeanStepCount float64 `json:"mean_step_count"`
			} `json:"trends"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || len(r.Health.NotRun) != 0 || len(r.Health.Trends) != 2 ||
		r.Health.Trends[0].MeanStepCount != 2 || r.Health.Trends[1].MeanStepCount != 2 {
		t.Errorf("status %d, %v, health %+v, stderr %q", code, err, r.Health, errOut)
	}

	line := func(step, sample, tokens int) string {
		b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": sample, "prompt_idx": sample / 2, "prompt_tokens": []int{step, sample / 2},
			"response_tokens": make([]int, tokens), "reward": float64(10 * (sample % 2)), "advantage": float64(10*(sample%2)) - 5, "finish_reason": "stop"})
		return string(b) + "\n"
	}
	var run5 strings.Builder
	for step := 1; step <= 5; step++ {
		for sample := range 4 {
			run5.WriteString(line(step, sample, map[bool]int{true: 40, false: 10}[step == 5]))
		}
	}
	path := filepath.Join(t.TempDir(), "grpo__1__1_rollouts_000000.jsonl")
	if err := os.WriteFile(path, []byte(run5.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h := statsHealth(t, exitHealthAlert, "", path)
	if len(h.Findings) != 1 || h.Findings[0].Check != "length_drift" || h.Findings[0].Level != "ALERT" || h.Findings[0].Step != 5 || *h.Trends[4].MeanStepCount != 40 {
		t.Errorf("findings %+v, want length_drift's ALERT at step 5", h.Findings)
	}

	// The third record's response_tokens left out.
	lines := strings.SplitAfter(run5.String(), "\n")
	lines[2] = strings.Replace(lines[2], `"response_tokens":[0,0,0,0,0,0,0,0,0,0],`, "", 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run(t, "", "stats", path)
	if want := "\nrewardlens: " + path + `:3: step_count_by "jsonLen(response_tokens)": missing: `; code != exitBadInput || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestOpenInstructLayoutChoice checks --from open-instruct against other
// layouts, and the note on the metadata file for plain records.
func TestOpenInstructLayoutChoice(t *testing.T) {
	standard := filepath.Join(openInstructDir, "standard")
	shard := filepath.Join(standard, "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl")
	out, errOut, code := run(t, "", "compute", "--from", "open-instruct", verlDir)
	checkBadInput(t, out, errOut, code, filepath.Join(verlDir, "1.jsonl")+": not open-instruct rollout traces (--from open-instruct)")
	out, errOut, code = run(t, "", "compute", "--from", "verl", shard)
	checkBadInput(t, out, errOut, code, shard+": not a verl rollout dump (--from verl)")
	out, errOut, code = run(t, "", "compute", standard, verlDir)
	checkBadInput(t, out, errOut, code, "mixed layouts: "+shard+" is open-instruct rollout traces, ")

	// Read as plain records, the shards have no group and the metadata
	// file is still left out, on a line of its own.
	recs, errOut := computeList(t, "", "--from", "plain", "--objective", "reward=reward", standard)
	meta := filepath.Join(standard, "grpo_gsm8k__1__1764150000_metadata.jsonl")
	if len(recs) != 24 || recs[0].Group != "" || !strings.HasPrefix(errOut, "rewardlens: left out "+meta+" (a run's metadata, not rollouts)\n") {
		t.Errorf("--from plain: %d records, group %q, stderr %q", len(recs), recs[0].Group, errOut)
	}
	// The open-instruct layout with --from, and a flag that overrides
	// what the log told: --scale none on standard traces, which leaves
	// the epsilon and std it set unread and unsaid.
	recs, errOut = computeList(t, "", "--from", "open-instruct", "--method", "grpo", "--scale", "none", standard)
	if recs[4].Reward != 0.3125 || !strings.Contains(errOut, "method grpo, scale none\n") {
		t.Errorf("--scale none: %v, %q", recs[4].Reward, errOut)
	}
}

// TestOpenInstructEqualFirstShard: traces of the standard advantage whose
// first shard's groups all score the same cannot tell the normalisation,
// so the layout reads them as centered; the comparison with the log finds
// open-instruct's standard settings (population std, epsilon 1e-8) among
// those it tries, and --match-logged reproduces every row.
func TestOpenInstructEqualFirstShard(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard_equal_first")
	_, errOut := computeList(t, "", "--method", "grpo", dir)
	if want := "`--scale group --epsilon 1e-08 --std population` reproduces it to 0"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	recs, _ := computeList(t, "", "--match-logged", dir)
	for i, r := range recs {
		if r.Logged == nil || math.Abs(r.Reward-*r.Logged) > 1e-12 {
			t.Errorf("record %d: reward %.17g, logged %v", i, r.Reward, r.Logged)
		}
	}
	if len(recs) != 24 {
		t.Errorf("%d records, want 24", len(recs))
	}
}

// TestOpenInstructPromptsFollowContent: open-instruct's prompt_idx is a
// slot of the step's batch, and rotated/ holds the same three prompts
// each step in another order (A passes 3 of 4 each step, B 1, C none).
// The prompts' analysis follows prompt_tokens: by prompt_idx, each slot
// would hold a different prompt each step (two forgotten, one unstable).
func TestOpenInstructPromptsFollowContent(t *testing.T) {
	out, errOut, code := run(t, "", "prompts", filepath.Join(openInstructDir, "rotated"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "prompt = prompt_tokens (prompt_idx is a slot of the step's batch)") ||
		!strings.Contains(errOut, "3 prompts: never 1, always 0, learned 0, forgotten 0, solved 1, unsolved 1, unstable 0") {
		t.Errorf("stderr %s", errOut)
	}
	for _, want := range []string{`{"prompt":"[100, 11, 12]",`, `"status":"solved"`, `{"prompt":"[200, 21, 22]"`, `"status":"unsolved"`, `{"prompt":"[300, 31, 32]"`, `"status":"never"`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
	// The id is open-instruct's step:sample_idx, not the place in the
	// shard (step 2 starts at line 13 of rotated/'s one shard).
	recs, _ := computeList(t, "", filepath.Join(openInstructDir, "rotated"))
	if len(recs) != 48 || recs[12].ID != "2:0" || recs[47].ID != "4:11" {
		t.Errorf("%d records, ids %q %q, want 2:0, 4:11", len(recs), recs[12].ID, recs[47].ID)
	}
}

// TestOpenInstructPassThreshold: with open-instruct's usual rewards,
// verification_reward 10 plus an additive format reward 1, the layout
// passes a completion at 10, not at the default 1, which a format reward
// alone reaches; and says so.
func TestOpenInstructPassThreshold(t *testing.T) {
	var text strings.Builder
	// Step 1: two prompts; the first's rewards 0, 1, 10, 11, the
	// second's 1, 1, 0, 11. Solved (reward >= 10): 3 of 8.
	// The logged advantages are centered's: the groups' means are 5.5
	// and 3.25.
	rewards := []float64{0, 1, 10, 11, 1, 1, 0, 11}
	for i, reward := range rewards {
		mean := []float64{5.5, 3.25}[i/4]
		b, _ := json.Marshal(map[string]any{"step": 1, "sample_idx": i, "prompt_idx": i / 4, "prompt_tokens": []int{i / 4}, "reward": reward, "advantage": reward - mean})
		text.Write(append(b, '\n'))
	}
	dir := writeFiles(t, map[string]string{"run_rollouts_000000.jsonl": text.String()})
	out, errOut, code := run(t, "", "stats", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if want := "pass threshold 10 (the first 8 records' rewards above 0 are 1, 10 and 11: verification_reward 10 plus a format reward 1)"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	if !strings.Contains(out, "a completion passes at >= 10;") || !strings.Contains(out, "at pass rate 0.3750") {
		t.Errorf("stdout: %s", out)
	}
	// --pass-threshold wins, and the line says nothing of it.
	out, errOut, _ = run(t, "", "stats", "--pass-threshold", "1", dir)
	if strings.Contains(errOut, "pass threshold") || !strings.Contains(out, "a completion passes at >= 1;") {
		t.Errorf("--pass-threshold 1: %s%s", errOut, out)
	}
}

// TestOpenInstructLaterRewardLevels: the pass threshold is read from the
// first file's first records, which the "read as" line counts; a reward
// level above those in a later file (the verification reward 10, and 11
// with the format reward, after a first shard of format rewards 1 alone)
// is warned of, since the threshold 1 read passes a format reward alone.
func TestOpenInstructLaterRewardLevels(t *testing.T) {
	shard := func(step int, rewards ...float64) string {
		var text strings.Builder
		mean := 0.0
		for _, r := range rewards {
			mean += r / float64(len(rewards))
		}
		for i, reward := range rewards {
			b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": i, "prompt_idx": 0, "prompt_tokens": []int{7}, "reward": reward, "advantage": reward - mean})
			text.Write(append(b, '\n'))
		}
		return text.String()
	}
	dir := writeFiles(t, map[string]string{
		"run_rollouts_000000.jsonl": shard(1, 0, 1, 0, 1),
		"run_rollouts_000001.jsonl": shard(2, 0, 1, 10, 11),
	})
	_, errOut, code := run(t, "", "stats", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	for _, want := range []string{
		"pass threshold 1 (the first 4 records' one reward above 0, read as verification_reward)",
		"warning: the reward is 10 or 11 in 2 rows: the first records, which the pass threshold 1 was read from, had only 1 above 0; that threshold may be wrong, give --pass-threshold (open-instruct's verification_reward) to stats, prompts or the dashboard",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// A threshold given is not read, nor warned of.
	if _, errOut, _ := run(t, "", "stats", "--pass-threshold", "10", dir); strings.Contains(errOut, "pass threshold") {
		t.Errorf("--pass-threshold 10: %s", errOut)
	}
	// A first file of no reward above 0 tells nothing: the level a later
	// one has is warned of too.
	dir = writeFiles(t, map[string]string{
		"run_rollouts_000000.jsonl": shard(1, 0, 0),
		"run_rollouts_000001.jsonl": shard(2, 0, 10),
	})
	if _, errOut, _ := run(t, "", "stats", dir); !strings.Contains(errOut, "warning: the reward is 10 in 1 row: the first records had none above 0 to read the pass threshold from: it is the default 1;") {
		t.Errorf("a first file of no reward above 0: %s", errOut)
	}
	// Later records of the same levels say nothing.
	dir = writeFiles(t, map[string]string{
		"run_rollouts_000000.jsonl": shard(1, 0, 1, 10, 11),
		"run_rollouts_000001.jsonl": shard(2, 1, 11, 0, 0),
	})
	if _, errOut, _ := run(t, "", "stats", dir); strings.Contains(errOut, "the reward is") {
		t.Errorf("the same levels warned of: %s", errOut)
	}
}

// TestOpenInstructNaNReward: a NaN reward makes open-instruct's
// advantages NaN for its whole group (numpy's mean takes it in; the trace
// logs them so), which the comparison with the logged advantage leaves
// out: a warning says so.
func TestOpenInstructNaNReward(t *testing.T) {
	var text strings.Builder
	// Prompt 0 of step 1 has the NaN reward; prompt 1's rewards 0.5,
	// 0.5, 0, 0 (centered: 0.25, 0.25, -0.25, -0.25).
	rows := []struct{ reward, advantage string }{{"1.0", "NaN"}, {"NaN", "NaN"}, {"0.0", "NaN"}, {"1.0", "NaN"},
		{"0.5", "0.25"}, {"0.5", "0.25"}, {"0.0", "-0.25"}, {"0.0", "-0.25"}}
	for i, r := range rows {
		fmt.Fprintf(&text, `{"step": 1, "sample_idx": %d, "prompt_idx": %d, "prompt_tokens": [%d], "reward": %s, "advantage": %s}`+"\n", i, i/4, i/4, r.reward, r.advantage)
	}
	dir := writeFiles(t, map[string]string{"run_rollouts_000000.jsonl": text.String()})
	_, errOut, code := run(t, "", "stats", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	want := `rewardlens: warning: a NaN or infinite reward in 1 group: step 1, group "0" (1 of 4). open-instruct's own advantages are NaN for every row of such a group`
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
}

// TestOpenInstructMixedPrompts: with mask_truncated_completions,
// open-instruct drops the truncated rows, then groups each 4 rows that
// follow: centered_mask/'s step 2 (4 of 6 prompts x 4 rows dropped) has
// groups of two prompts, which a warning names.
func TestOpenInstructMixedPrompts(t *testing.T) {
	_, errOut, code := run(t, "", "stats", filepath.Join(openInstructDir, "centered_mask"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	want := `rewardlens: warning: 4 groups of more than one prompt (prompt_by prompt_tokens): step 2, group "1" (2 prompts in 4 rows); step 2, group "2" (2 prompts in 4 rows); `
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	// The prompts of the other fixtures keep to their groups.
	_, errOut, _ = run(t, "", "stats", filepath.Join(openInstructDir, "standard"))
	if strings.Contains(errOut, "more than one prompt") {
		t.Errorf("standard: %s", errOut)
	}
}

// TestOpenInstructHealthTaskMetric: the layout names its reward as the
// task metric, so stats --health grades phantom_signal without
// --task-metric: prompt 0's rewards 0 and 1 all fail at the threshold
// 10 read from the levels, yet differ (a format reward): 1 of 2 groups.
func TestOpenInstructHealthTaskMetric(t *testing.T) {
	var text strings.Builder
	rewards := []float64{0, 1, 0, 1, 0, 10, 11, 1}
	for i, reward := range rewards {
		mean := []float64{0.5, 5.5}[i/4]
		b, _ := json.Marshal(map[string]any{"step": 1, "sample_idx": i, "prompt_idx": i / 4, "prompt_tokens": []int{i / 4}, "reward": reward, "advantage": reward - mean})
		text.Write(append(b, '\n'))
	}
	dir := writeFiles(t, map[string]string{"run_rollouts_000000.jsonl": text.String()})
	out, errOut, code := run(t, "", "stats", "--health", dir)
	if code != 3 || !strings.Contains(out, "ALERT  step 1  phantom_signal") {
		t.Errorf("status %d: %s%s", code, out, errOut)
	}
}

// TestOpenInstructStdFlagsMeanStandard: traces whose first records do
// not tell the normalisation (standard_equal_first: the first shard's
// groups all score the same) are read as centered, said with a warning
// in the "read as" line; --std population --epsilon 1e-8 (the settings
// the README gives for standard) then mean standard, which reproduces
// the standard run's logged advantages. With --scale none, the flags are
// warned of as ignored.
func TestOpenInstructStdFlagsMeanStandard(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard_equal_first")
	_, errOut, _ := run(t, "", "compute", "--from", "open-instruct", dir)
	if !strings.Contains(errOut, "advantage normalisation centered, the default (warning: no group of the first records has rewards that differ, which alone tell it: give --std population --epsilon 1e-8") {
		t.Errorf("no flags: %s", errOut)
	}
	_, errOut, code := run(t, "", "compute", "--from", "open-instruct", "--std", "population", "--epsilon", "1e-8", dir)
	if code != 0 || !strings.Contains(errOut, "advantage normalisation standard (a std or an epsilon given, which only standard reads)") ||
		!strings.Contains(errOut, "; method grpo, epsilon 1e-08, population std\n") || strings.Contains(errOut, "differ from the logged advantage") {
		t.Errorf("--std population --epsilon 1e-8: status %d: %s", code, errOut)
	}
	_, errOut, _ = run(t, "", "compute", "--from", "open-instruct", "--scale", "none", "--std", "population", "--epsilon", "1e-8", dir)
	if want := "rewardlens: warning: --std population and --epsilon 1e-08 ignored: method grpo under scale none divides by no std (--scale group divides by the group's std)\n"; !strings.Contains(errOut, want) {
		t.Errorf("--scale none: stderr lacks %q: %s", want, errOut)
	}
}

// TestHealthTrainerAgreement: stats --health grades the rewards against
// the advantages the trainer logged: the standard run computed as
// centered (--scale none) differs in every row, an ALERT
// trainer_agreement (status 3); read with its layout's defaults, from its
// file or on standard input, it agrees.
func TestHealthTrainerAgreement(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	shard, err := os.ReadFile(filepath.Join(dir, "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "stats", "--health", "--scale", "none", dir)
	if code != exitHealthAlert || !strings.Contains(out, "trainer_agreement") || !strings.Contains(out, "rows differ from the logged advantage by more than 0.0001") {
		t.Errorf("--scale none: status %d: %s%s", code, out, errOut)
	}
	out, errOut, _ = run(t, "", "stats", "--health", dir)
	if strings.Contains(out, "trainer_agreement") {
		t.Errorf("the files: %s%s", out, errOut)
	}
	out, errOut, _ = run(t, string(shard), "stats", "--health", "--from", "open-instruct", "-")
	if strings.Contains(out, "trainer_agreement") {
		t.Errorf("standard input: %s%s", out, errOut)
	}
}

// TestOpenInstructRunsOfOneDirectory: the shards of two runs in one
// directory (a run resumed under a new run_name, whose steps repeat the
// first's) are warned of in the "read as" line; two shards of one run
// are not.
func TestOpenInstructRunsOfOneDirectory(t *testing.T) {
	line := func(i int, reward float64) string {
		b, _ := json.Marshal(map[string]any{"step": 1, "sample_idx": i, "prompt_idx": 0, "prompt_tokens": []int{0}, "reward": reward, "advantage": reward - 0.5})
		return string(b) + "\n"
	}
	shard := line(0, 0) + line(1, 1)
	dir := writeFiles(t, map[string]string{"grpo__1__100_rollouts_000000.jsonl": shard, "grpo__1__200_rollouts_000000.jsonl": shard})
	_, errOut, _ := run(t, "", "stats", dir)
	if want := "; warning: the files are the shards of 2 runs by their names (grpo__1__100, grpo__1__200): a step both wrote (a run resumed under a new run_name) is read as one, its groups merged; give the files of one run; method grpo"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	dir = writeFiles(t, map[string]string{"grpo__1__100_rollouts_000000.jsonl": shard, "grpo__1__100_rollouts_000001.jsonl": strings.ReplaceAll(shard, `"step":1`, `"step":2`)})
	if _, errOut, _ := run(t, "", "stats", dir); strings.Contains(errOut, "runs by their names") {
		t.Errorf("one run: %s", errOut)
	}
}

// TestMaxRowsCutGroupAgreement: --max-rows 6 cuts step 1's second group
// after 2 of its 4 rows; those rows differ from the logged advantage,
// which the warning puts on that cut, not on the settings; when the
// other rows differ too (--scale none), the warning says the cut group
// differs whatever the settings; so does --match-logged's note that no
// setting reproduces the log.
func TestMaxRowsCutGroupAgreement(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	_, errOut, _ := run(t, "", "compute", "--max-rows", "6", dir)
	if want := `rewardlens: warning: 2 of 6 rows differ from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 1, group "1", 2 of its rows read): its rewards are computed without the rows not read; the other rows agree` + "\n"; !strings.Contains(errOut, want) || strings.Contains(errOut, "trainer settings tried") {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	_, errOut, _ = run(t, "", "compute", "--max-rows", "6", "--scale", "none", dir)
	if want := `; the group --max-rows cut (step 1, group "1", 2 of its rows read) differs whatever the settings: compare without --max-rows` + "\n"; !strings.Contains(errOut, want) {
		t.Errorf("--scale none: stderr lacks %q: %s", want, errOut)
	}
	// --match-logged finds no setting that reproduces the cut group: its
	// note blames the cut too.
	_, errOut, _ = run(t, "", "compute", "--max-rows", "6", "--match-logged", dir)
	if want := `rewardlens: warning: --match-logged: 2 of 6 rows differ from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 1, group "1", 2 of its rows read): its rewards are computed without the rows not read; the other rows agree; computing with the settings as given` + "\n"; !strings.Contains(errOut, want) || strings.Contains(errOut, "trainer settings tried") {
		t.Errorf("--match-logged: stderr lacks %q: %s", want, errOut)
	}
	// A last group read whole (8 rows: two groups of 4), and scope batch,
	// where the batch is the group: no group is told cut.
	for _, args := range [][]string{{"--max-rows", "8", "--scale", "none"}, {"--max-rows", "6", "--scope", "batch"}} {
		_, errOut, _ = run(t, "", append(append([]string{"compute"}, args...), dir)...)
		if strings.Contains(errOut, "--max-rows cut") {
			t.Errorf("%v: stderr blames a cut group: %s", args, errOut)
		}
	}
}

// TestStatsHealthMaxRowsCutGroup: stats --health --max-rows 6 on a run
// that agrees with its trainer: trainer_agreement does not grade the
// group --max-rows cut (step 1's second, 2 of its 4 rows read), so
// nothing is found and the status is 0. With --scale none the other rows
// differ too: they alone are graded, and the finding says the cut
// group's are not. Under scope batch no group is cut: all 6 are graded.
func TestStatsHealthMaxRowsCutGroup(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	out, errOut, code := run(t, "", "stats", "--health", "--max-rows", "6", dir)
	if code != 0 || strings.Contains(out, "trainer_agreement") || !strings.Contains(out, "findings: none") {
		t.Errorf("status %d: %s%s", code, out, errOut)
	}
	out, errOut, code = run(t, "", "stats", "--health", "--max-rows", "6", "--scale", "none", dir)
	if want := `trainer_agreement  4 of 4 rows differ from the logged advantage by more than 0.0001 (max |diff| 4): these rewards are not the advantages the trainer trained on; the 2 rows of the group --max-rows cut (step 1, group "1", 2 of its rows read) not graded` + "\n"; code != exitHealthAlert || !strings.Contains(out, want) {
		t.Errorf("--scale none: status %d, stdout lacks %q: %s%s", code, want, out, errOut)
	}
	out, errOut, code = run(t, "", "stats", "--health", "--max-rows", "6", "--scope", "batch", "--scale", "none", dir)
	if code != exitHealthAlert || !strings.Contains(out, "trainer_agreement  6 of 6 rows differ") || strings.Contains(out, "not graded") {
		t.Errorf("--scope batch: status %d: %s%s", code, out, errOut)
	}
	// logged_advantage describes the batch's rows, the cut group's
	// included (CONTRACT: trainer_agreement grades them but for it).
	out, errOut, _ = run(t, "", "stats", "--format", "json", "--max-rows", "6", dir)
	var report struct {
		Batches []struct {
			Logged struct{ Rows, Differing int } `json:"logged_advantage"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Batches) != 1 || report.Batches[0].Logged.Rows != 6 || report.Batches[0].Logged.Differing != 2 {
		t.Errorf("logged_advantage %+v (%v), want 6 rows, 2 differing: %s", report.Batches, err, errOut)
	}
}

// TestStatsHealthMaxRowsOnlyGroupRead: --max-rows 13 stops one row into
// step 2, whose only group read (0) the first row not read continues:
// the health checks leave it out as the group --max-rows cut (no check
// grades that step: exit 0), and the warnings, stats' and compute's, say
// it was cut, not that it may have been. Stopped at the end of step 1
// (12), the first row not read is step 2's and nothing is said of step
// 1's last group; so in verl's dump stopped one row into step 2.
func TestStatsHealthMaxRowsOnlyGroupRead(t *testing.T) {
	dir := filepath.Join(openInstructDir, "centered")
	const cut = `the group --max-rows cut (step 2, group "0", 1 of its rows read)`
	out, errOut, code := run(t, "", "stats", "--health", "--max-rows", "13", dir)
	if strings.Contains(out, "step 2  ") || code != 0 {
		t.Errorf("status %d: step 2, the group %s alone, graded: %s%s", code, cut, out, errOut)
	}
	for _, cmd := range []string{"stats", "compute"} {
		_, errOut, _ := run(t, "", cmd, "--max-rows", "13", dir)
		if want := "1 of 13 rows differs from the logged advantage by more than 0.0001, all in " + cut; !strings.Contains(errOut, want) {
			t.Errorf("%s: stderr lacks %q: %s", cmd, want, errOut)
		}
	}
	_, errOut, _ = run(t, "", "stats", "--max-rows", "12", dir)
	if strings.Contains(errOut, "the group --max-rows") {
		t.Errorf("--max-rows 12: a whole group named cut: %s", errOut)
	}
	out, errOut, code = run(t, "", "stats", "--health", "--max-rows", "14", filepath.Join("testdata", "verl", "v1_uid", "dump"))
	if strings.Contains(out, "step 2  ") {
		t.Errorf("verl: status %d: the one row of step 2 graded: %s%s", code, out, errOut)
	}
}

// TestStatsBatchAgreementMaxRowsCutGroup: the trainer agreement line of
// the batch --max-rows cut, in the table and the JSON, blames the group
// cut as stderr does, not the trainer's settings.
func TestStatsBatchAgreementMaxRowsCutGroup(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	const want = `2 of 6 rows differ from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 1, group "1", 2 of its rows read): its rewards are computed without the rows not read; the other rows agree`
	out, errOut, _ := run(t, "", "stats", "--max-rows", "6", dir)
	if !strings.Contains(out, "\nwarning: "+want+"\n") || strings.Contains(out, "no trainer setting tried") {
		t.Errorf("table lacks %q: %s%s", want, out, errOut)
	}
	out, errOut, _ = run(t, "", "stats", "--format", "json", "--max-rows", "6", dir)
	var report struct {
		Batches []struct {
			Agreement struct{ Warning string } `json:"trainer_agreement"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Batches) != 1 || report.Batches[0].Agreement.Warning != want {
		t.Errorf("trainer_agreement %+v (%v), want the warning %q: %s", report.Batches, err, want, errOut)
	}
}

// TestMaxRowsCutGroupNotUnequal: --max-rows 10 stops two rows into step
// 1's third group, whose others have 4: the warning of groups of unequal
// size, stats' and compute's, leaves it out, and so goes; under scope
// batch too, as the warning checks the trainer's groups whatever the
// scope.
func TestMaxRowsCutGroupNotUnequal(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	for _, cmd := range []string{"stats", "compute"} {
		for _, scope := range []string{"group", "batch"} {
			_, errOut, _ := run(t, "", cmd, "--max-rows", "10", "--scope", scope, dir)
			if strings.Contains(errOut, "unequal size") {
				t.Errorf("%s, scope %s: stderr: %s", cmd, scope, errOut)
			}
		}
		_, errOut, _ := run(t, "", cmd, "--max-rows", "10", dir)
		if !strings.Contains(errOut, "the group --max-rows cut (step 1, group \"2\"") {
			t.Errorf("%s: stderr: %s", cmd, errOut)
		}
	}
}

// TestMatchLoggedDivisorFlagsNotIgnored: with --match-logged, a --std or
// --epsilon the settings given would not read is not warned ignored: the
// settings found may read them, and --match-logged says what it computes
// with.
func TestMatchLoggedDivisorFlagsNotIgnored(t *testing.T) {
	dir := filepath.Join(openInstructDir, "standard")
	_, errOut, code := run(t, "", "compute", "--match-logged", "--scale", "none", "--std", "population", "--epsilon", "1e-8", dir)
	if code != 0 || strings.Contains(errOut, "ignored") || !strings.Contains(errOut, "--match-logged: ") {
		t.Errorf("status %d: %s", code, errOut)
	}
}

// TestStatsHealthMaxRowsPartialStep: the sample stopped 3 rows into
// step 5, whose only group read they are: no check grades that step (a
// correlation of 3 rows flipped its sign, ALERT, before), and the run
// is healthy, as read whole.
func TestStatsHealthMaxRowsPartialStep(t *testing.T) {
	out, errOut, code := run(t, "", "stats", "--config", sampleConfigPath, "--health", "--max-rows", "643", samplePath)
	if code != 0 || !strings.Contains(out, "findings: none, healthy") {
		t.Errorf("status %d: %s%s", code, out, errOut)
	}
}

// TestOpenInstructFilteredTraces: traces without a zero-spread group, as
// filter_zero_std_samples leaves them, are said once to hide the groups
// the dead signal and the prompts' statuses would count, by stats (with
// --health) and prompts; a run that keeps a zero-spread group is not.
func TestOpenInstructFilteredTraces(t *testing.T) {
	const note = "rewardlens: warning: open-instruct drops groups of zero spread before it writes its traces (filter_zero_std_samples, on by default): dead signal, frac_zero_std_groups, the health checks dead_signal and zero_spread and the prompts never or always solved cannot see them; no group of these traces has zero spread (step 3 holds 8 rows, fewer than step 1's 3 groups of 4)\n"
	filtered := filepath.Join(openInstructDir, "filtered")
	for _, args := range [][]string{{"stats", "--health", filtered}, {"prompts", filtered}} {
		_, errOut, _ := run(t, "", args...)
		if strings.Count(errOut, note) != 1 {
			t.Errorf("%v: stderr lacks the note once: %s", args, errOut)
		}
	}
	if _, errOut, _ := run(t, "", "stats", filepath.Join(openInstructDir, "centered")); strings.Contains(errOut, "drops groups of zero spread") {
		t.Errorf("a run with a zero-spread group: %s", errOut)
	}
}

// TestOpenInstructLineLeftOut: a file's unfinished last line, left out,
// shortens the last group of its step: the agreement leaves that step
// out of the fit, naming that line, its rows compared alone, not a
// regrouping by the trainer.
func TestOpenInstructLineLeftOut(t *testing.T) {
	path := centeredLastLineCut(t)
	_, errOut, _ := run(t, "", "stats", filepath.Dir(path))
	want := `the 12 rows of the other steps agree with the logged advantage under grpo, scale none; step 2 left out of the fit, its run probably still writing it (` + path + `'s unfinished last line left out; 3 of 11 rows differ`
	if !strings.Contains(errOut, want) || strings.Contains(errOut, "which the trainer grouped otherwise") {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}

// centeredLastLineCut writes the two shards of openinstruct/centered as
// one file, its last line cut in its middle as a run still writing it
// leaves it, and returns its path.
func centeredLastLineCut(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(openInstructDir, "centered")
	var text []byte
	for _, shard := range []string{"000000", "000001"} {
		b, err := os.ReadFile(filepath.Join(dir, "grpo_gsm8k__1__1764150000_rollouts_"+shard+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, b...)
	}
	// The last line cut in its middle, as a run still writing it leaves it.
	last := bytes.LastIndexByte(text[:len(text)-1], '\n') + 1
	text = text[:last+(len(text)-last)/2]
	path := filepath.Join(t.TempDir(), "run_rollouts_000000.jsonl")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
