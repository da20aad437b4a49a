package cmd

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/internal/testfile"
)

// trlBatchScaledStep returns step s of a TRL completions log in JSONL,
// four prompts of four completions each, two reward columns, and the
// advantage TRL logs with scale_rewards="batch": each row's reward
// (their sum) less its group's mean, over the batch's sample std plus
// 1e-4, a group being four consecutive rows. With repeated, the second
// prompt is the first again: TRL normalises its rows as two groups of
// four, and rewardlens, given --group-by prompt (grouping by value, not by
// TRL's position), as one of eight, whose rows no setting reproduces.
func trlBatchScaledStep(s int, repeated bool) string {
	prompts := []string{"p0", "p1", "p2", "p3"}
	if repeated {
		prompts[1] = "p0"
	}
	type row struct{ accuracy, format float64 }
	var rows []row
	for g := range prompts {
		for k := range 4 {
			rows = append(rows, row{float64(min(1, (s+g+k)%3)), float64((s*3+g*5+k*k)%4) / 4})
		}
	}
	rewards := make([]float64, len(rows))
	mean := 0.0
	for i, r := range rows {
		rewards[i] = r.accuracy + r.format
		mean += rewards[i] / float64(len(rows))
	}
	ss := 0.0
	for _, r := range rewards {
		ss += (r - mean) * (r - mean)
	}
	std := math.Sqrt(ss / float64(len(rows)-1))
	var b strings.Builder
	for i, r := range rows {
		g := i / 4
		groupMean := (rewards[4*g] + rewards[4*g+1] + rewards[4*g+2] + rewards[4*g+3]) / 4
		fmt.Fprintf(&b, `{"step":%d,"prompt":%q,"completion":"c%d","accuracy_reward":%g,"format_reward":%g,"advantage":%.9g}`+"\n",
			s, prompts[g], i, r.accuracy, r.format, (rewards[i]-groupMean)/(std+1e-4))
	}
	return b.String()
}

// TestStatsFollowMatchLoggedRegrouped: stats --follow --match-logged on a
// TRL log scaled by batch whose steps 0 and 2 repeat a prompt: the
// settings are found with that prompt's rows left out (they differ under
// any setting), once, and kept as steps come that they go on
// reproducing: no search on each update. The followed lines end as
// stats --match-logged's batches on the whole file, computed with the
// same settings.
func TestStatsFollowMatchLoggedRegrouped(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	var searches atomic.Int32
	old := checkTrainer
	checkTrainer = func(c *engine.RewardComputer, ev *engine.Evaluation) agreement.TrainerCheck {
		searches.Add(1)
		return old(c, ev)
	}
	t.Cleanup(func() { checkTrainer = old })

	const steps = 6
	var whole strings.Builder
	for s := range steps {
		whole.WriteString(trlBatchScaledStep(s, s == 0 || s == 2))
	}
	dir := t.TempDir()
	wholePath := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(wholePath, []byte(whole.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, statsErr, code := run(t, "", "stats", "--match-logged", "--group-by", "prompt", "--format", "json", wholePath)
	var stats struct {
		Batches []struct {
			Batch        int64 `json:"batch"`
			Trajectories int   `json:"trajectories"`
			Reward       struct{ Mean, Std float64 }
			Logged       json.RawMessage `json:"logged_advantage"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &stats); code != 0 || err != nil || len(stats.Batches) != steps {
		t.Fatalf("stats: status %d, %v, stderr:\n%s\n%s", code, err, statsErr, out)
	}
	settingsSaid := regexp.MustCompile("--match-logged: (`[^`]*`) \\(([^)]*)\\) reproduces the logged advantage to [^ ]+ with the group")
	wholeSettings := settingsSaid.FindStringSubmatch(statsErr)
	if wholeSettings == nil || wholeSettings[1] != "`--scale batch`" {
		t.Fatalf("stats did not find the settings with the repeated prompt left out:\n%s", statsErr)
	}
	searches.Store(0) // stats' own

	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, []byte(trlBatchScaledStep(0, true)+trlBatchScaledStep(1, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--match-logged", "--group-by", "prompt", "--format", "json", path)
	f.await(t, `{"step":0,`)
	for s := 2; s < steps; s++ {
		testfile.Append(t, path, trlBatchScaledStep(s, s == 2))
		f.await(t, fmt.Sprintf(`{"step":%d,`, s-1))
	}
	f.await(t, fmt.Sprintf(`{"step":%d,`, steps-1)) // the quiet time
	if code := f.stop(); code != 0 {
		t.Fatalf("status %d, stderr:\n%s", code, f.errOut.String())
	}
	if n := searches.Load(); n != 1 {
		t.Errorf("the settings were looked for %d times, want once: they go on reproducing the rows outside the repeated prompt's", n)
	}
	followErr := f.errOut.String()
	if got := settingsSaid.FindStringSubmatch(followErr); got == nil || got[1] != wholeSettings[1] || got[2] != wholeSettings[2] || strings.Contains(followErr, "settings changed") {
		t.Errorf("stderr:\n%s\nwant the settings stats found, %s (%s), once", followErr, wholeSettings[1], wholeSettings[2])
	}
	last := map[int64]string{}
	for _, line := range strings.Split(strings.TrimSpace(f.out.String()), "\n") {
		var l struct{ Step int64 }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		last[l.Step] = line
	}
	for _, b := range stats.Batches {
		var line struct {
			Trajectories int             `json:"trajectories"`
			RewardMean   float64         `json:"reward_mean"`
			RewardStd    float64         `json:"reward_std"`
			Logged       json.RawMessage `json:"logged_advantage"`
		}
		if err := json.Unmarshal([]byte(last[b.Batch]), &line); err != nil {
			t.Fatalf("step %d: %q: %v", b.Batch, last[b.Batch], err)
		}
		if line.Trajectories != b.Trajectories || line.RewardMean != b.Reward.Mean || line.RewardStd != b.Reward.Std ||
			string(line.Logged) != strings.Join(strings.Fields(string(b.Logged)), "") {
			t.Errorf("step %d followed: %s\nwant stats' batch: %d trajectories, reward mean %v std %v, logged %s", b.Batch, last[b.Batch], b.Trajectories, b.Reward.Mean, b.Reward.Std, b.Logged)
		}
	}
}
