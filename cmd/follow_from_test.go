package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStatsFollowTRLStartedEmpty: stats --follow --from trl on a TRL
// completions directory that holds no file yet (made before the run's
// first log) waits for a first record, says so once, and takes the
// layout's defaults from it: its steps are those of stats on the same
// files, as is how they were read. The defaults were those of no file: no
// reward column for an objective, the objectives inferred from every
// float column, TRL's advantage scored as a reward, and no logged
// advantage.
func TestStatsFollowTRLStartedEmpty(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	out, errOut, code := run(t, "", "stats", "--format", "json", trlDir)
	if code != 0 {
		t.Fatalf("stats: status %d, stderr %q", code, errOut)
	}
	readAs, _, _ := strings.Cut(errOut, "\n")
	var whole struct {
		Batches []struct {
			Batch        int64 `json:"batch"`
			Trajectories int   `json:"trajectories"`
			Invalid      int   `json:"invalid"`
			FrontierSize int   `json:"frontier_size"`
			Reward       struct{ Mean, Std float64 }
			DeadSignal   map[string]any `json:"dead_signal"`
		}
	}
	if err := json.Unmarshal([]byte(out), &whole); err != nil || len(whole.Batches) != 3 || !strings.Contains(readAs, "logged advantage = advantage") {
		t.Fatalf("stats: %v, stderr %q:\n%s", err, errOut, out)
	}

	dir := t.TempDir()
	f := startFollowing(t, "stats", "--follow", "--from", "trl", "--format", "json", dir)
	f.awaitErr(t, "rewardlens: waiting for a first record in "+dir+", ")
	files, err := filepath.Glob(filepath.Join(trlDir, "*.parquet"))
	if err != nil || len(files) != 3 {
		t.Fatalf("%v: %v", files, err)
	}
	for _, file := range files {
		time.Sleep(2 * awaitPoll)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Whole, as pandas' to_parquet leaves it once written.
		tmp := filepath.Join(t.TempDir(), filepath.Base(file))
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, filepath.Base(file))); err != nil {
			t.Fatal(err)
		}
	}
	f.await(t, `{"step":3,`)
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}
	followed := strings.Split(strings.TrimSpace(f.out.String()), "\n")
	if len(followed) != len(whole.Batches) {
		t.Fatalf("%d lines, want %d:\n%s", len(followed), len(whole.Batches), f.out.String())
	}
	for i, text := range followed {
		var line struct {
			Step         int64          `json:"step"`
			Trajectories int            `json:"trajectories"`
			Invalid      int            `json:"invalid"`
			FrontierSize int            `json:"frontier_size"`
			RewardMean   float64        `json:"reward_mean"`
			RewardStd    float64        `json:"reward_std"`
			DeadSignal   map[string]any `json:"dead_signal"`
		}
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		b := whole.Batches[i]
		if line.Step != b.Batch || line.Trajectories != b.Trajectories || line.Invalid != b.Invalid || line.FrontierSize != b.FrontierSize ||
			line.RewardMean != b.Reward.Mean || line.RewardStd != b.Reward.Std || !reflect.DeepEqual(line.DeadSignal, b.DeadSignal) {
			t.Errorf("followed %s\nwant the batch of stats %+v", text, b)
		}
	}
	followErr := f.errOut.String()
	if strings.Count(followErr, "waiting for") != 1 || !strings.Contains(followErr, "\n"+readAs+"\n") {
		t.Errorf("stderr:\n%s\nwant the line %q", followErr, readAs)
	}
}

// TestFollowFromTrainerStartedEmpty: with --from naming a trainer, a
// followed directory without a file yet is waited for, as with auto, and
// said once; the layout's defaults are then those of the files, each
// trainer's as with the files there at the start: verl's overlong
// penalty and task metric, open-instruct's standard normalisation, TRL's
// reward columns and logged advantage. They were the defaults of no file.
// open-instruct's first shard, of one step, come alone, is waited for
// until unmodified for layoutQuiet, which is said; come with the next
// step's shard, it is whole once that shard is seen (the shards are moved
// in one by one, so a look between them may wait and say so).
func TestFollowFromTrainerStartedEmpty(t *testing.T) {
	old := layoutQuiet
	layoutQuiet = 4 * awaitPoll
	t.Cleanup(func() { layoutQuiet = old })
	const shard = "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl"
	firstShard := t.TempDir()
	for _, name := range []string{shard, "grpo_gsm8k__1__1764150000_metadata.jsonl"} {
		data, err := os.ReadFile(filepath.Join(openInstructDir, "standard", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(firstShard, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ from, src, step string }{
		{"verl", verlSetting("dapo_overlong"), ""},
		{"open-instruct", firstShard, shard},
		{"open-instruct", filepath.Join(openInstructDir, "standard"), "?" + shard},
		{"trl", trlDir, ""},
	} {
		whole, wholeSentence, _, err := applyLayout(context.Background(), setup.Config{From: c.from}, []string{c.src}, loaders.Options{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var said testkit.SyncBuffer
		type applied struct {
			cfg      setup.Config
			sentence string
			err      error
		}
		done := make(chan applied, 1)
		go func() {
			cfg, sentence, _, err := applyLayout(context.Background(), setup.Config{From: c.from}, []string{dir}, loaders.Options{}, nil, &said)
			done <- applied{cfg, sentence, err}
		}()
		time.Sleep(2 * awaitPoll)
		entries, err := os.ReadDir(c.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(c.src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Join(t.TempDir(), e.Name())
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		got := <-done
		want := "rewardlens: waiting for a first record in " + dir + ", to take the defaults of --from " + c.from + " from its fields\n"
		if step, mayWait := strings.CutPrefix(c.step, "?"); mayWait {
			waited := want + "rewardlens: waiting for the first step in " + filepath.Join(dir, step) + " to be whole (a record of the next step, or the file unmodified for 1s), to read open-instruct's advantage normalisation and pass threshold from it\n"
			if said.String() == waited {
				want = waited
			}
		} else if c.step != "" {
			want += "rewardlens: waiting for the first step in " + filepath.Join(dir, c.step) + " to be whole (a record of the next step, or the file unmodified for 1s), to read open-instruct's advantage normalisation and pass threshold from it\n"
		}
		if got.err != nil || !reflect.DeepEqual(got.cfg, whole) || strings.ReplaceAll(got.sentence, dir, c.src) != wholeSentence || said.String() != want {
			t.Errorf("--from %s followed from empty: %+v\n%q, %v; said %q\nwant %+v\n%q", c.from, got.cfg, got.sentence, got.err, said.String(), whole, wholeSentence)
		}
	}
}
