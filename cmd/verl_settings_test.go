package cmd

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The fixtures of cmd/testdata/verl/ are verl rollout dumps written by
// verl's own code, each with verl's own advantage per line
// (compute_grpo_outcome_advantage, verl/trainer/ppo/core_algos.py, at
// verl-project/verl 1dda039b9c6311889a9c9a26040677e1254814f9; v1_multi's
// through compute_advantage_for_multi_trajectories, gdpo's
// compute_gdpo_outcome_advantage), by scripts/gen_verl_fixtures.py, whose
// doc says what runs for each.

// verlSetting is the dump directory of the fixture name.
func verlSetting(name string) string {
	return filepath.Join("testdata", "verl", name, "dump")
}

// verlAdvantages reads the fixture's expected_advantage.txt: verl's
// advantage of each dump line, in file order.
func verlAdvantages(t *testing.T, name string) []float64 {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "verl", name, "expected_advantage.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 3 {
			t.Fatalf("expected_advantage.txt: %q", line)
		}
		x, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

// verlExact is how close "reproduces" is: the fixtures' advantages are
// verl's function in float64 on rewards exact in float32.
const verlExact = 1e-9

// checkVerlRewards compares compute's rewards with verl's advantages row
// by row, except the rows of skip.
func checkVerlRewards(t *testing.T, recs []record, want []float64, skip map[int]bool) {
	t.Helper()
	if len(recs) != len(want) {
		t.Fatalf("%d records, verl has %d advantages", len(recs), len(want))
	}
	for i, r := range recs {
		if skip[i] {
			continue
		}
		if math.Abs(r.Reward-want[i]) > verlExact || !r.Valid {
			t.Errorf("row %d: reward %.17g valid %v, verl's advantage %.17g", i, r.Reward, r.Valid, want[i])
		}
	}
}

// TestVerlV1UID: the V1 trainer's dump has uid = {uid}_{session}_{index};
// two prompts of step 1 have the same text, which verl keeps apart by
// uid: grouped by the uid's prompt part, every row is verl's advantage.
func TestVerlV1UID(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("v1_uid"))
	if !strings.Contains(errOut, `read as verl rollout dumps: group = split(uid, "_")[0], batch = step, objective score, prompt = input (uid changes every step), id = uid; method grpo, epsilon 1e-06, a group of one: score, score in float32`+"\n") {
		t.Errorf("stderr does not say how the dump is grouped: %q", errOut)
	}
	checkVerlRewards(t, recs, verlAdvantages(t, "v1_uid"), nil)
	// Each record's id is its line's uid, the output's key.
	for i, r := range recs {
		if !strings.HasPrefix(r.ID, r.Group+"_") || !strings.HasSuffix(r.ID, "_0") || i > 0 && r.ID == recs[i-1].ID {
			t.Errorf("record %d: id %q, group %q: want the uid {group}_{session}_0", i, r.ID, r.Group)
		}
	}
	// The group is the uuid4 before the first "_": 36 characters, the
	// same for the four rows of each prompt.
	sizes := map[string]int{}
	for _, r := range recs {
		if len(r.Group) != 36 || strings.Contains(r.Group, "_") {
			t.Errorf("group %q is not a uuid4", r.Group)
		}
		sizes[r.Group]++
	}
	if len(sizes) != 5 {
		t.Errorf("%d groups, want 3 prompts in step 1 and 2 in step 2: %v", len(sizes), sizes)
	}
	for g, n := range sizes {
		if n != 4 {
			t.Errorf("group %s has %d rows, want rollout.n = 4", g, n)
		}
	}
	// Grouped by input instead, as before, the duplicate prompts merge
	// and their rows are off: what the uid grouping fixes.
	merged, _ := computeList(t, "", "--method", "grpo", "--group-by", "input", verlSetting("v1_uid"))
	off := 0
	for i, w := range verlAdvantages(t, "v1_uid") {
		if math.Abs(merged[i].Reward-w) > verlExact {
			off++
		}
	}
	if off == 0 {
		t.Error("grouped by input, the fixture's duplicate prompts give verl's advantages: it tests nothing")
	}
}

// TestVerlLegacyDuplicatePrompt: the legacy trainer's dump has no uid, so
// two prompts with the same text (rows 0-3 and 8-11 of step 1) cannot be
// told apart: their merged group of 8 differs from verl's two of 4, every
// other row is verl's advantage. (Groups of unequal size within a step
// are warned of by the layouts' group-size check.)
func TestVerlLegacyDuplicatePrompt(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("legacy_duplicate"))
	if !strings.Contains(errOut, "read as verl rollout dumps: group = input, batch = step, objective score; method grpo, epsilon 1e-06, a group of one: score, score in float32\n") {
		t.Errorf("stderr: %q", errOut)
	}
	want := verlAdvantages(t, "legacy_duplicate")
	duplicate := map[int]bool{0: true, 1: true, 2: true, 3: true, 8: true, 9: true, 10: true, 11: true}
	checkVerlRewards(t, recs, want, duplicate)
	off := 0
	for i := range duplicate {
		if math.Abs(recs[i].Reward-want[i]) > verlExact {
			off++
		}
	}
	if off == 0 {
		t.Error("the merged group gives verl's advantages: the fixture tests nothing")
	}
}

// TestVerlDAPOOverlong: DAPO's reward manager with overlong_buffer.log and
// a reward function returning a dict: the dump's score is the function's,
// overlong_reward the penalty verl adds ("tensor(-0.1875)", "tensor(-1.)",
// "tensor(0.)" or 0); verl trains on their sum, which is the objective.
func TestVerlDAPOOverlong(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("dapo_overlong"))
	if !strings.Contains(errOut, "read as verl rollout dumps: group = input, batch = step, objective score, score = score + torchNumber(overlong_reward) (the dump's score leaves out DAPO's overlong penalty, which verl trains on); method grpo, epsilon 1e-06, a group of one: score, score in float32\n") {
		t.Errorf("stderr does not say that the penalty is added: %q", errOut)
	}
	checkVerlRewards(t, recs, verlAdvantages(t, "dapo_overlong"), nil)
	// By hand, step 1's first prompt: scores 1, 1, -1, 1 and penalties
	// 0, -1, -0.1875, 0: rewards 1, 0, -1.1875, 1.
	r := []float64{1, 0, -1.1875, 1}
	mean := (r[0] + r[1] + r[2] + r[3]) / 4
	ss := 0.0
	for _, x := range r {
		ss += (x - mean) * (x - mean)
	}
	std := math.Sqrt(ss / 3)
	for i, x := range r {
		if w := (x - mean) / (std + 1e-6); math.Abs(recs[i].Reward-w) > 1e-12 {
			t.Errorf("row %d: reward %.17g, want %.17g", i, recs[i].Reward, w)
		}
	}
	if v := recs[2].Objectives["score"]; v == nil || *v != -1.1875 {
		t.Errorf("row 2's objective: %v, want score + overlong_reward = -1.1875", v)
	}
	// The dump's score alone (what rewardlens read before) is off.
	alone, _ := computeList(t, "", "--method", "grpo", "--objective", "score=score", verlSetting("dapo_overlong"))
	if math.Abs(alone[1].Reward-recs[1].Reward) < 0.1 {
		t.Errorf("the score alone gives %.17g, the sum %.17g: the fixture tests nothing", alone[1].Reward, recs[1].Reward)
	}
}

// TestVerlDAPOOverlongNumber: the same with a reward function returning a
// number: the dump has acc (the function's score) and its score is already
// the trained reward, so it is the objective as it is (adding the penalty
// again would count it twice).
func TestVerlDAPOOverlongNumber(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("dapo_overlong_number"))
	if !strings.Contains(errOut, "read as verl rollout dumps: group = input, batch = step, objective score; method grpo, epsilon 1e-06, a group of one: score, score in float32\n") {
		t.Errorf("stderr: %q", errOut)
	}
	checkVerlRewards(t, recs, verlAdvantages(t, "dapo_overlong_number"), nil)
}

// TestVerlDAPOOverlongDictAcc: a reward function returning {"score", "acc"}
// with a float acc leaves the fields of dapo_overlong_number, but its
// dump's score is the function's, before the penalty: the values (score
// is not acc + overlong_reward) tell, and the penalty is added.
func TestVerlDAPOOverlongDictAcc(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("dapo_overlong_dict_acc"))
	if !strings.Contains(errOut, "score = score + torchNumber(overlong_reward) (the dump's score leaves out DAPO's overlong penalty, which verl trains on)") {
		t.Errorf("stderr does not say that the penalty is added: %q", errOut)
	}
	checkVerlRewards(t, recs, verlAdvantages(t, "dapo_overlong_dict_acc"), nil)
	// Row 1: score 1, penalty "tensor(-1.)": verl trains on 0.
	if v := recs[1].Objectives["score"]; v == nil || *v != 0 {
		t.Errorf("row 1's objective: %v, want score + overlong_reward = 0", v)
	}
}

// TestVerlDAPOOverlongRounded: with overlong_buffer.len 7 the dump's
// penalties are torch's four-decimal text of k/7: the read-as line says
// they read rounded, and the rewards are verl's to that rounding only
// (within 1e-4 here, not to 1e-9), while len 16's (dapo_overlong) say
// nothing.
func TestVerlDAPOOverlongRounded(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("dapo_overlong_rounded"))
	if want := "overlong_reward is torch's four-decimal text (tensor(-0.2857)): a penalty that is not a multiple of 1/16 (DAPO's overlong_buffer.len 4096 gives k/4096) reads rounded, the reward up to 5e-5 from verl's"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	worst := 0.0
	for i, w := range verlAdvantages(t, "dapo_overlong_rounded") {
		worst = math.Max(worst, math.Abs(recs[i].Reward-w))
	}
	if worst < 1e-6 || worst > 1e-4 {
		t.Errorf("max |reward - verl's advantage| %.3g: want the rounding's, between 1e-6 and 1e-4", worst)
	}
	if _, errOut := computeList(t, "", "--method", "grpo", verlSetting("dapo_overlong")); strings.Contains(errOut, "four-decimal") {
		t.Errorf("multiples of 1/16 said rounded: %s", errOut)
	}
}

// TestVerlNaNScore: a NaN score makes verl's advantages NaN for its whole
// group; rewardlens scores the group's other rows and says so, naming the
// step and the group.
func TestVerlNaNScore(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", verlSetting("nan_score"))
	want := verlAdvantages(t, "nan_score")
	for i := range 4 {
		if !math.IsNaN(want[i]) {
			t.Fatalf("verl's advantage of row %d is %v, not NaN: the fixture tests nothing", i, want[i])
		}
	}
	checkVerlRewards(t, recs, want, map[int]bool{0: true, 1: true, 2: true, 3: true})
	if recs[1].Valid {
		t.Error("the NaN row is valid")
	}
	wantWarning := `rewardlens: warning: a NaN or infinite score in 1 group: step 1, group …"What is 6 * 7?\nassistant\n" (1 of 4). verl's own advantages are NaN for every row of such a group (compute_grpo_outcome_advantage's mean and std over the group); here those rows are invalid and the group's others are scored without them` + "\n"
	if !strings.Contains(errOut, wantWarning) {
		t.Errorf("stderr does not warn of the NaN group:\n%s", errOut)
	}
	// stats warns the same.
	_, errOut, code := run(t, "", "stats", "--method", "grpo", verlSetting("nan_score"))
	if code != 0 || !strings.Contains(errOut, wantWarning) {
		t.Errorf("stats: status %d, stderr:\n%s", code, errOut)
	}
	// An infinite score too, and only under the verl layout.
	dir := writeFiles(t, map[string]string{"1.jsonl": `{"input": "q", "output": "a", "score": 1.0, "step": 1}
{"input": "q", "output": "b", "score": -Infinity, "step": 1}
{"input": "r", "output": "c", "score": 0.0, "step": 1}
`})
	_, errOut = computeList(t, "", "--method", "grpo", dir)
	if !strings.Contains(errOut, `a NaN or infinite score in 1 group: step 1, group "q" (1 of 2)`) {
		t.Errorf("stderr:\n%s", errOut)
	}
	_, errOut = computeList(t, "", "--method", "grpo", "--from", "plain", "--objective", "score=score", "--group-by", "input", "--batch-by", "step", dir)
	if strings.Contains(errOut, "NaN or infinite") {
		t.Errorf("plain records warned of verl's NaN groups:\n%s", errOut)
	}
}

// TestVerlScoreOverflowingFloat32: a score finite in float64 but not in
// verl's float32 (1e39) is infinite there, as a written Infinity is: the
// same warning of verl's NaN group, and the invalid row said at its
// file:line.
func TestVerlScoreOverflowingFloat32(t *testing.T) {
	dir := filepath.Join("testdata", "verl", "float32_overflow")
	for _, cmd := range []string{"compute", "stats"} {
		_, errOut, code := run(t, "", cmd, dir)
		if code != 0 {
			t.Fatalf("%s: status %d, stderr:\n%s", cmd, code, errOut)
		}
		for _, want := range []string{
			`a NaN or infinite score in 1 group: step 1, group "q" (1 of 4). verl's own advantages are NaN for every row of such a group`,
			`score: infinite (the float32 weighted sum overflows) ×1 (first at ` + filepath.Join(dir, "1.jsonl") + `:1)`,
		} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", cmd, want, errOut)
			}
		}
	}
}

// TestVerlNaNScoreFollow: stats --follow warns of the NaN group with its
// step's line.
func TestVerlNaNScoreFollow(t *testing.T) {
	shortQuiet(t)
	f := startFollowing(t, "stats", "--follow", "--method", "grpo", verlSetting("nan_score"))
	f.await(t, "step 1 ")
	f.awaitErr(t, `rewardlens: warning: a NaN or infinite score in 1 group: step 1, group …"What is 6 * 7?\nassistant\n" (1 of 4). verl's own advantages are NaN`)
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr %s", code, f.errOut.String())
	}
}

// TestVerlTensorScore: a reward function that returns its score as a 0-d
// tensor (in a dict) has it dumped as the tensor's text, read as the
// number; with DAPO's penalty left out of it, the penalty is added too.
func TestVerlTensorScore(t *testing.T) {
	dir := writeFiles(t, map[string]string{"1.jsonl": `{"input": "q", "output": "a", "gts": "1", "score": "tensor(1.)", "step": 1, "pred": "1", "overlong_reward": 0, "overlong": false}
{"input": "q", "output": "bb", "gts": "1", "score": "tensor(0.5000)", "step": 1, "pred": "1", "overlong_reward": "tensor(-0.2500)", "overlong": "tensor(True)"}
{"input": "q", "output": "c", "gts": "1", "score": 0.0, "step": 1, "pred": "2", "overlong_reward": 0, "overlong": false}
`})
	recs, errOut := computeList(t, "", "--method", "grpo", dir)
	if !strings.Contains(errOut, "objective score, score = torchNumber(score) + torchNumber(overlong_reward) (the dump writes the score as a tensor's text; the dump's score leaves out DAPO's overlong penalty, which verl trains on); method grpo, epsilon 1e-06, a group of one: score, score in float32\n") {
		t.Errorf("stderr: %q", errOut)
	}
	// Rewards 1, 0.5 - 0.25 and 0: verl's GRPO over the three.
	r := []float64{1, 0.25, 0}
	mean := (r[0] + r[1] + r[2]) / 3
	ss := 0.0
	for _, x := range r {
		ss += (x - mean) * (x - mean)
	}
	std := math.Sqrt(ss / 2)
	for i, x := range r {
		if w := (x - mean) / (std + 1e-6); math.Abs(recs[i].Reward-w) > 1e-12 || !recs[i].Valid {
			t.Errorf("row %d: reward %.17g valid %v, want %.17g", i, recs[i].Reward, recs[i].Valid, w)
		}
	}
}

// TestVerlNullFirstScore: a null score in the first record tells nothing
// of how the dump writes scores: numbers after it keep the objective the
// plain score, whose null and absent rows are missing (not an evaluation
// error); tensor text after it is still read as a tensor's, its null and
// absent rows missing too.
func TestVerlNullFirstScore(t *testing.T) {
	numbers := writeFiles(t, map[string]string{"4.jsonl": `{"input": "q", "output": "a", "gts": "1", "score": null, "step": 4}
{"input": "q", "output": "b", "gts": "1", "step": 4}
{"input": "q", "output": "c", "gts": "1", "score": 0.5, "step": 4}
{"input": "q", "output": "d", "gts": "1", "score": -0.25, "step": 4}
`})
	_, errOut := computeList(t, "", "--method", "grpo", numbers)
	if !strings.Contains(errOut, "objective score; method grpo") || !strings.Contains(errOut, "score: missing ×2 (first at ") || strings.Contains(errOut, "tensor") {
		t.Errorf("numbers after a null: stderr %q", errOut)
	}
	text := writeFiles(t, map[string]string{"4.jsonl": `{"input": "q", "output": "a", "gts": "1", "score": null, "step": 4}
{"input": "q", "output": "b", "gts": "1", "step": 4}
{"input": "q", "output": "c", "gts": "1", "score": "tensor(0.5000)", "step": 4}
{"input": "q", "output": "d", "gts": "1", "score": "tensor(-0.2500)", "step": 4}
`})
	_, errOut = computeList(t, "", "--method", "grpo", text)
	if !strings.Contains(errOut, "score = torchNumber(score) (the dump writes the score as a tensor's text)") || !strings.Contains(errOut, "score: missing ×2 (first at ") || strings.Contains(errOut, "evaluation error") {
		t.Errorf("tensor text after a null: stderr %q", errOut)
	}
}

// TestVerlNaNGroupsNamed: the warning names at most five groups, a long
// prompt from the line where the step's prompts part (after the chat
// template they share), cut with "…" as the other warnings, and counts the
// rest.
func TestVerlNaNGroupsNamed(t *testing.T) {
	var b strings.Builder
	system := "system\nYou are a helpful assistant. Answer briefly and show no work at all.\nuser\n"
	for g := range 7 {
		for k := range 2 {
			score := "NaN"
			if k == 1 {
				score = "1.0"
			}
			b.WriteString(`{"input": ` + strconv.Quote(system+"Question "+strconv.Itoa(g)+"?\nassistant\n") + `, "output": "a", "score": ` + score + `, "step": 2}` + "\n")
		}
	}
	_, errOut := computeList(t, "", "--method", "grpo", writeFiles(t, map[string]string{"2.jsonl": b.String()}))
	want := `rewardlens: warning: a NaN or infinite score in 7 groups: step 2, group …"Question 0?\nassistant\n" (1 of 2); ` +
		`step 2, group …"Question 1?\nassistant\n" (1 of 2); `
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, `Question 4?\nassistant\n" (1 of 2); and 2 more groups. verl's own`) || strings.Contains(errOut, "Question 5") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// TestVerlDictScoreInFloat32: a dict-returning reward writes its float64
// score over the dump's (0.8 acc + 0.2 fmt: 0.9 and 0.9000000000000001);
// verl trained on them rounded to float32, where they tie: the group has
// no spread, as in verl, and its rewards are 0.
func TestVerlDictScoreInFloat32(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, score := range []string{"0.9", "0.9", "0.9000000000000001", "0.9", "0.2", "1.0", "0.2", "1.0"} {
		fmt.Fprintf(&b, `{"input": "Q%d", "output": "a%d", "gts": "1", "score": %s, "step": 1, "acc": 1.0, "fmt": 0.5}`+"\n", i/4, i, score)
	}
	if err := os.WriteFile(filepath.Join(dir, "1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, errOut := computeList(t, "", dir)
	if !strings.Contains(errOut, "score in float32") {
		t.Errorf("the read-as line does not say the score is in float32: %s", errOut)
	}
	for i, r := range recs[:4] {
		if r.Reward != 0 {
			t.Errorf("record %d of the group tied in float32: reward %v, want 0", i, r.Reward)
		}
	}
}

// TestVerlValidationDump: _validate's dump (trainer.validation_data_dir)
// has reward beside score, the same scores, at step 0 before training,
// one sample per prompt: the read-as line says it looks like validation
// output, on which verl computed no advantage; a training dump whose
// reward function logs a reward of its own, not the score, is not taken
// for one.
func TestVerlValidationDump(t *testing.T) {
	const note = "warning: this looks like a verl validation dump (trainer.validation_data_dir: _validate writes each score again as reward), not training rollouts: verl computed no advantage on it"
	validation := writeFiles(t, map[string]string{"0.jsonl": `{"input": "What is 3+4?", "output": "7", "gts": "7", "score": 1.0, "step": 0, "reward": 1.0, "acc": 1.0}
{"input": "Integrate x dx", "output": "x", "gts": "x^2/2", "score": 0.0, "step": 0, "reward": 0.0, "acc": 0.0}
`})
	_, errOut := computeList(t, "", validation)
	if !strings.Contains(errOut, note) {
		t.Errorf("a validation dump: stderr lacks %q: %s", note, errOut)
	}
	training := writeFiles(t, map[string]string{"1.jsonl": `{"input": "What is 3+4?", "output": "7", "gts": "7", "score": 1.0, "step": 1, "reward": 0.5, "acc": 1.0}
{"input": "What is 3+4?", "output": "8", "gts": "7", "score": 0.0, "step": 1, "reward": 0.0, "acc": 0.0}
`})
	_, errOut = computeList(t, "", training)
	if strings.Contains(errOut, "validation") {
		t.Errorf("a training dump with a reward of its own is taken for validation output: %s", errOut)
	}
}
