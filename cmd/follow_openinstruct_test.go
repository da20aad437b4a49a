package cmd

import (
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
	appendTo := func(text string) {
		file, err := os.OpenFile(shard, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		if _, err := file.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	appendTo(lines[0])
	f.awaitErr(t, "waiting for the first step in "+shard+" to be whole")
	time.Sleep(3 * awaitPoll)
	appendTo(strings.Join(lines[1:], ""))
	f.await(t, "step 2  trajectories 8 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	if !strings.Contains(errOut, "pass threshold 10 (") || !strings.Contains(errOut, "; method grpo, epsilon 1e-08, population std\n") || strings.Contains(errOut, "differ from the logged advantage") {
		t.Errorf("stderr:\n%s", errOut)
	}
}
