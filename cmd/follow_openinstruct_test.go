package cmd

import (
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/internal/testkit"

	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestStatsFollowOpenInstructWholeStep: following open-instruct traces
// from an empty shard, the layout's advantage normalisation and pass
// threshold are read from the first step whole, not from the first
// record written (a format reward 1, alone in its group): the threshold
// is 10 (rewards 1, 10 and 11) and the normalisation standard, which that
// record alone read as 1 and centered; the wait is said.
func TestStatsFollowOpenInstructWholeStep(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	var lines []string
	for step := 1; step <= 2; step++ {
		// Each prompt's rewards 1, 0, 10, 11: mean 5.5, numpy's std
		// sqrt(25.25); advantages standard's.
		rewards := []float64{1, 0, 10, 11, 1, 0, 10, 11}
		std := math.Sqrt(25.25)
		for i, reward := range rewards {
			b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": i, "prompt_idx": i / 4, "prompt_tokens": []int{step, i / 4}, "reward": reward, "advantage": (reward - 5.5) / (std + 1e-8)})
			lines = append(lines, string(b)+"\n")
		}
	}
	dir := t.TempDir()
	shard := filepath.Join(dir, "run_rollouts_000000.jsonl")
	if err := os.WriteFile(shard, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", dir)
	f.awaitErr(t, "waiting for a first record")
	testfile.Append(t, shard, lines[0])
	f.awaitErr(t, "waiting for the first step in "+shard+" to be whole")
	time.Sleep(3 * awaitPoll)
	testfile.Append(t, shard, strings.Join(lines[1:], ""))
	f.await(t, "step 2  trajectories 8 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	if !strings.Contains(errOut, "pass threshold 10 (") || !strings.Contains(errOut, "; method grpo, epsilon 1e-08, population std\n") || strings.Contains(errOut, "differ from the logged advantage") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// TestStatsFollowOpenInstructLaterRewardLevelsOnce: following, a reward
// level the first step did not have (the pass threshold read from it
// may be wrong) is warned of once, at the first step that has it, named,
// not again at each later step that has it in other counts.
func TestStatsFollowOpenInstructLaterRewardLevelsOnce(t *testing.T) {
	shortQuiet(t)
	step := func(n int, rewards ...float64) string {
		var text strings.Builder
		for i, reward := range rewards {
			b, _ := json.Marshal(map[string]any{"step": n, "sample_idx": i, "prompt_idx": 0, "prompt_tokens": []int{n}, "reward": reward, "advantage": 0})
			text.Write(append(b, '\n'))
		}
		return text.String()
	}
	dir := t.TempDir()
	shard := filepath.Join(dir, "run_rollouts_000000.jsonl")
	// Step 2's first record ends step 1, which the pass threshold is
	// read from.
	second := step(2, 0, 1, 10, 11)
	cut := strings.IndexByte(second, '\n') + 1
	if err := os.WriteFile(shard, []byte(step(1, 0, 1, 0, 1)+second[:cut]), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 1 ")
	testfile.Append(t, shard, second[cut:]+step(3, 0, 10, 10, 11)+step(4, 0, 1, 0, 1))
	f.await(t, "step 4 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	const want = "rewardlens: warning: step 2: the reward is 10 or 11 in 2 rows: the first records, which the pass threshold 1 was read from, had only 1 above 0;"
	if strings.Count(errOut, "the reward is") != 1 || !strings.Contains(errOut, want) {
		t.Errorf("stderr:\n%s\nwant one reward level warning: %s", errOut, want)
	}
}

// TestStatsFollowOpenInstructNormalisationContradicted: following traces
// whose first steps are centered, a later step whose logged advantages fit
// standard (a run resumed with another advantage_normalization_type) is
// warned of once, named, not again at the next such step; the
// normalisation read from the first step stands (scale none). stats of
// the whole run says the same.
func TestStatsFollowOpenInstructNormalisationContradicted(t *testing.T) {
	shortQuiet(t)
	step := func(n int, standard bool) string {
		var text strings.Builder
		// Each prompt's rewards 0, 10, 0, 10: mean 5, numpy's std 5.
		for i, reward := range []float64{0, 10, 0, 10, 0, 10, 0, 10} {
			advantage := reward - 5
			if standard {
				advantage /= 5 + 1e-8
			}
			b, _ := json.Marshal(map[string]any{"step": n, "sample_idx": i, "prompt_idx": i / 4, "prompt_tokens": []int{n, i / 4}, "response_tokens": []int{1, 2}, "reward": reward, "advantage": advantage})
			text.Write(append(b, '\n'))
		}
		return text.String()
	}
	dir := t.TempDir()
	shard := filepath.Join(dir, "run_rollouts_000000.jsonl")
	// Step 2's first record ends step 1, which the normalisation is read
	// from.
	second := step(2, false)
	cut := strings.IndexByte(second, '\n') + 1
	if err := os.WriteFile(shard, []byte(step(1, false)+second[:cut]), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 1 ")
	testfile.Append(t, shard, second[cut:]+step(3, true)+step(4, true)+step(5, false))
	f.await(t, "step 5 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	const want = "rewardlens: warning: step 3: the logged advantages fit open-instruct's standard advantage normalisation, not the centered one the rewards are computed with: "
	errOut := f.errOut.String()
	if strings.Count(errOut, "advantage normalisation, not the") != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "; method grpo, scale none\n") {
		t.Errorf("stderr:\n%s\nwant one normalisation warning: %s", errOut, want)
	}
	_, errOut, _ = run(t, "", "stats", dir)
	if strings.Count(errOut, "advantage normalisation, not the") != 1 || !strings.Contains(errOut, want) {
		t.Errorf("stats stderr:\n%s\nwant one normalisation warning: %s", errOut, want)
	}
}

// TestStatsFollowOpenInstructFilteredOnce: following traces with no
// zero-spread group (filter_zero_std_samples), the note of the run is
// said once, as it first holds, not again as later steps come, hedged on
// a step read in part or with another step named short.
func TestStatsFollowOpenInstructFilteredOnce(t *testing.T) {
	shortQuiet(t)
	text, err := os.ReadFile(filepath.Join(openInstructDir, "filtered", "run_rollouts_000000.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Steps 1 and 2 first (24 rows), then 3 and 4.
	lines := strings.SplitAfter(string(text), "\n")
	first := strings.Join(lines[:24], "")
	dir := t.TempDir()
	shard := filepath.Join(dir, "run_rollouts_000000.jsonl")
	if err := os.WriteFile(shard, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 2 ")
	testfile.Append(t, shard, string(text[len(first):]))
	f.await(t, "step 4 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	if n := strings.Count(errOut, "drops groups of zero spread"); n != 1 || !strings.Contains(errOut, "rewardlens: warning: "+layoutsFilteredNote+"\n") {
		t.Errorf("the note %d times, want once:\n%s", n, errOut)
	}
}

// TestStatsFollowOpenInstructFilteredWithdrawn: following traces whose
// first steps have no zero-spread group, the note of the run is said;
// a later step with one (the filter was off) withdraws it, saying why,
// once: never a note said and left standing, untrue.
func TestStatsFollowOpenInstructFilteredWithdrawn(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	shard := filepath.Join(dir, "run_rollouts_000000.jsonl")
	if err := os.WriteFile(shard, []byte(testkit.OpenInstructSteps(1, 2, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 2 ")
	f.awaitErr(t, "rewardlens: warning: "+layoutsFilteredNote+"\n")
	testfile.Append(t, shard, testkit.OpenInstructSteps(3, 4, 3))
	f.await(t, "step 4 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	want := "rewardlens: withdrawn (step 3 has a group of zero spread: filter_zero_std_samples was off): " + layoutsFilteredNote + "\n"
	if strings.Count(errOut, "drops groups of zero spread") != 2 || !strings.Contains(errOut, want) {
		t.Errorf("stderr:\n%s\nwant the note said, then withdrawn once: %s", errOut, want)
	}
}

// layoutsFilteredNote is the open-instruct layout's note of filtered
// traces as a follower says it.
const layoutsFilteredNote = "open-instruct drops groups of zero spread before it writes its traces (filter_zero_std_samples, on by default): dead signal, frac_zero_std_groups, the health checks dead_signal and zero_spread and the prompts never or always solved cannot see them; no group of these traces has zero spread"

// TestStatsFollowOpenInstructLineLeftOut: following, a file's unfinished
// last line, left out, shortens the last group of its step: that step is
// provisional, naming the line as stats --health does, and left out of
// the run's agreement, whose other rows agree (nothing said), not a
// regrouping by the trainer.
func TestStatsFollowOpenInstructLineLeftOut(t *testing.T) {
	shortQuiet(t)
	path := centeredLastLineCut(t)
	f := startFollowing(t, "stats", "--follow", filepath.Dir(path))
	f.await(t, "step 2 ")
	f.stop()
	out, errOut := f.out.String(), f.errOut.String()
	want := "(provisional: " + path + " ends in an unfinished line, left out: its run is probably still writing it)\n"
	if !strings.Contains(out, want) || strings.Contains(errOut, "which the trainer grouped otherwise") || strings.Contains(errOut, "the whole run read") {
		t.Errorf("output lacks %q, or stderr compares step 2:\n%s\nstderr:\n%s", want, out, errOut)
	}
}
