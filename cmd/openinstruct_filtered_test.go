package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenInstructFilteredRolloutsLeftOut: a newer open-instruct's save
// path holds, beside its rollouts, the filtered rollouts
// (_save_filtered_rollouts: no advantage); compute reads the directory's
// rollouts and names the filtered file as left out, saying what it holds,
// instead of refusing the directory as mixed layouts.
func TestOpenInstructFilteredRolloutsLeftOut(t *testing.T) {
	dir := filepath.Join("testdata", "oifilt")
	recs, errOut := computeList(t, "", dir)
	want := "left out " + filepath.Join(dir, "grpo_run__1__1_filtered_rollouts_000000.jsonl") + " (the groups open-instruct filtered out of training"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	for _, r := range recs {
		if r.Logged == nil {
			t.Fatalf("record %s without a logged advantage: a filtered rollout was read", r.ID)
		}
	}
}

// TestFollowCompanionCaughtMidLine: following an open-instruct run, its
// filtered rollouts caught mid-first-line (it appends through a buffer)
// are held back, not read as rollouts: once the line is whole they are
// left out as a companion and their 8 samples never join step 2's 32.
func TestFollowCompanionCaughtMidLine(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	src := filepath.Join("testdata", "oifilt")
	roll := readText(t, filepath.Join(src, "grpo_run__1__1_rollouts_000000.jsonl"))
	filt := readText(t, filepath.Join(src, "grpo_run__1__1_filtered_rollouts_000000.jsonl"))
	lines := strings.SplitAfter(roll, "\n")
	var steps12, step3 string
	for _, line := range lines {
		if strings.HasPrefix(line, `{"step": 3,`) {
			step3 += line
		} else {
			steps12 += line
		}
	}
	writeText(t, filepath.Join(dir, "grpo_run__1__1_rollouts_000000.jsonl"), steps12)
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 2 ")
	// The filtered rollouts' first 40 bytes, then a new shard: the scan
	// that reads the shard finds them mid-line.
	companion := filepath.Join(dir, "grpo_run__1__1_filtered_rollouts_000000.jsonl")
	writeText(t, companion, filt[:40])
	writeText(t, filepath.Join(dir, "grpo_run__1__1_rollouts_000001.jsonl"), step3)
	f.await(t, "step 3 ")
	fh, err := os.OpenFile(companion, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteString(filt[40:]); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	// Then a shard of step 4: the check that reads it follows the one of
	// the finished companion.
	writeText(t, filepath.Join(dir, "grpo_run__1__1_rollouts_000002.jsonl"), strings.ReplaceAll(step3, `{"step": 3,`, `{"step": 4,`))
	f.await(t, "step 4 ")
	f.awaitErr(t, "left out "+companion+" (the groups open-instruct filtered out of training")
	f.stop()
	if out := f.out.String(); strings.Contains(out, "trajectories 40") || strings.Contains(out, "step 2 (updated)") {
		t.Errorf("the filtered rollouts joined the training rows:\n%s\nstderr:\n%s", out, f.errOut.String())
	}
}

// TestCompanionCutAtStart: compute on a run directory whose filtered
// rollouts end inside their first line reads the rollouts alone and says
// the filtered file left out, unfinished.
func TestCompanionCutAtStart(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "oifilt")
	writeText(t, filepath.Join(dir, "grpo_run__1__1_rollouts_000000.jsonl"), readText(t, filepath.Join(src, "grpo_run__1__1_rollouts_000000.jsonl")))
	companion := filepath.Join(dir, "grpo_run__1__1_filtered_rollouts_000000.jsonl")
	writeText(t, companion, readText(t, filepath.Join(src, "grpo_run__1__1_filtered_rollouts_000000.jsonl"))[:40])
	recs, errOut := computeList(t, "", dir)
	if want := "left out " + companion + " (named as an open-instruct companion, its first line unfinished"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	if len(recs) != 96 {
		t.Errorf("%d records, want the rollouts' 96:\n%s", len(recs), errOut)
	}
}
