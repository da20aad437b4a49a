package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestStatsHealthStepStillWritten: the step of the newest file of a
// directory whose last line is unfinished is graded, its findings listed
// marked provisional with why, but left out of the verdict (exit 0, said
// on stderr); the same rows in a file that ends, not cut, raise the ALERT
// (exit 3); the step whole is healthy; a cut file given by name, not the
// newest of a directory, stays an error.
func TestStatsHealthStepStillWritten(t *testing.T) {
	dir := t.TempDir()
	testfile.VerlSteps(t, dir, true)
	out, errOut, code := run(t, "", "stats", "--health", dir)
	if code != 0 {
		t.Fatalf("a step still being written: exit %d, want 0 (its ALERT provisional)\n%s\n%s", code, out, errOut)
	}
	why := filepath.Join(dir, "5.jsonl") + " ends in an unfinished line, left out: its run is probably still writing it"
	if !strings.Contains(out, "ALERT  step 5  phantom_signal") || !strings.Contains(out, "(provisional: "+why+")") {
		t.Errorf("the step's ALERT should be listed, marked provisional:\n%s", out)
	}
	if want := "rewardlens: health: step 5 left out of the verdict (exit status): " + why + "; its findings (2 ALERTs, 1 WARN) are provisional\n"; !strings.Contains(errOut, want) {
		t.Errorf("stderr should say the step was left out of the verdict, %q:\n%s", want, errOut)
	}
	if strings.Contains(errOut, "health: 1 ALERT") {
		t.Errorf("a provisional ALERT is no health ALERT:\n%s", errOut)
	}
	r := statsHealth(t, 0, "", dir)
	var provisional int
	for _, f := range r.Findings {
		if f.Step == 5 && f.Provisional == why {
			provisional++
		}
	}
	if provisional == 0 {
		t.Errorf("the JSON's findings of step 5 should carry provisional %q: %+v", why, r.Findings)
	}

	// The rows read of step 5, their file ended: the ALERT stands.
	text, err := os.ReadFile(filepath.Join(dir, "5.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ended := text[:strings.LastIndexByte(string(text), '\n')+1]
	whole := t.TempDir()
	testfile.VerlSteps(t, whole, false)
	if err := os.WriteFile(filepath.Join(whole, "5.jsonl"), ended, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := run(t, "", "stats", "--health", whole); code != exitHealthAlert || strings.Contains(out, "provisional") {
		t.Errorf("the same rows in a file ended: exit %d, want %d, nothing provisional\n%s\n%s", code, exitHealthAlert, out, errOut)
	}
	// Step 5 whole is healthy.
	testfile.VerlSteps(t, whole, false)
	if out, errOut, code := run(t, "", "stats", "--health", whole); code != 0 || !strings.Contains(out, "findings: none") {
		t.Errorf("step 5 whole: exit %d, want 0 and healthy\n%s\n%s", code, out, errOut)
	}
	// A cut file given by name is not the newest of a directory: an error.
	if _, errOut, code := run(t, "", "stats", "--health", filepath.Join(dir, "5.jsonl")); code != exitBadInput || !strings.Contains(errOut, "5.jsonl:9:") {
		t.Errorf("a cut file given by name: exit %d, want %d at its line 9\n%s", code, exitBadInput, errOut)
	}
}

// TestStatsHealthStillWrittenNotInBaseline: a run of exactly
// --baseline steps whose newest is still being written has a baseline of
// the others, which says so, and that step is graded against it,
// provisionally (its short groups' spread, collapsed, a WARN).
func TestStatsHealthStillWrittenNotInBaseline(t *testing.T) {
	dir := t.TempDir()
	testfile.VerlSteps(t, dir, true)
	out, errOut, code := run(t, "", "stats", "--health", "--baseline", "5", dir)
	if code != 0 {
		t.Fatalf("exit %d, want 0 (step 5's findings provisional)\n%s\n%s", code, out, errOut)
	}
	if want := "baseline the first 4 batches (fewer than --baseline 5: step 5, still being written, left out)"; !strings.Contains(out, want) {
		t.Errorf("the baseline should say step 5 left out, %q:\n%s", want, out)
	}
	if !strings.Contains(out, "step 5  variance_collapse") || strings.Contains(out, "drift checks not run") {
		t.Errorf("step 5 should be graded against the baseline of steps 1-4:\n%s", out)
	}
	if r := statsHealth(t, 0, "", "--baseline", "5", dir); r.Baseline != 4 {
		t.Errorf("JSON baseline %d, want 4", r.Baseline)
	}
}
