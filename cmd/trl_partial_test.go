package cmd

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trlPartial is the TRL table of testdata/trl_partial (its README): step
// 1 logged under scale_rewards='batch', step 2's file cut mid-line.
var trlPartial = filepath.Join("testdata", "trl_partial", "completions")

// stillWrittenFit is what --match-logged says of trlPartial's step 2,
// left out of the fit.
var stillWrittenFit = "; step 2 left out of the fit, its run probably still writing it (" + filepath.Join(trlPartial, "completions_00002.jsonl") + "'s unfinished last line left out)"

// TestMatchLoggedLeavesOutTheStepStillWritten: stats --health
// --match-logged on a TRL table whose newest step's file ends in an
// unfinished line fits the settings on the complete step (--scale
// batch), says step 2 left out of the fit, and grades step 1 as
// agreeing: the short group of step 2, under scale batch, made every
// setting fail it, and the settings as given made step 1 an ALERT.
func TestMatchLoggedLeavesOutTheStepStillWritten(t *testing.T) {
	out, errOut, code := run(t, "", "stats", "--health", "--match-logged", trlPartial)
	const found = "--match-logged: `--scale batch` (grpo, scale batch, epsilon 0.0001) reproduces the logged advantage"
	if code != 0 || !strings.Contains(errOut, found) || !strings.Contains(errOut, stillWrittenFit) {
		t.Errorf("status %d, stderr lacks %q or %q:\n%s", code, found, stillWrittenFit, errOut)
	}
	cutGroup := `step 2: its last group read, …"Is 91 prime?<|im_end|>\n<|im_start|>assis"… (3 of 4 rows), is short of the row the reading left out after it (` + filepath.Join(trlPartial, "completions_00002.jsonl") + "'s unfinished last line)"
	if !strings.Contains(errOut, cutGroup) || strings.Contains(errOut, "evaluation rows") {
		t.Errorf("stderr lacks %q, or names evaluation rows:\n%s", cutGroup, errOut)
	}
	if strings.Contains(out, "step 1  trainer_agreement") || !strings.Contains(out, "reward vs logged advantage: 16 rows, ") || !strings.Contains(out, ", 0 differ by more than 0.0001\n") {
		t.Errorf("step 1 not graded as agreeing:\n%s", out)
	}
}

// TestComputeMatchLoggedLeavesOutTheStepStillWritten: compute
// --match-logged computes with the settings fitted on the complete step:
// step 1's rewards are TRL's logged advantages.
func TestComputeMatchLoggedLeavesOutTheStepStillWritten(t *testing.T) {
	_, errOut, _ := run(t, "", "compute", "--match-logged", trlPartial)
	if !strings.Contains(errOut, stillWrittenFit) {
		t.Errorf("stderr lacks %q:\n%s", stillWrittenFit, errOut)
	}
	step1 := 0
	for id, r := range computeRecords(t, "--match-logged", trlPartial) {
		if r.Batch != 1 {
			continue
		}
		step1++
		if r.Logged == nil {
			t.Fatalf("%s has no logged advantage", id)
		}
		if math.Abs(r.Reward-*r.Logged) > 1e-6 {
			t.Errorf("%s: reward %g, logged %g", id, r.Reward, *r.Logged)
		}
	}
	if step1 != 16 {
		t.Errorf("%d records of step 1, want 16", step1)
	}
}

// followedTRLPartial writes trlPartial's table to a directory of its own,
// its files written an hour ago (TRL's first step is taken as whole
// without waiting), and returns the directory, step 1's text and the
// path of step 2's file, cut.
func followedTRLPartial(t *testing.T) (dir string, step1 []byte, path2 string) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range []string{"completions_00001.jsonl", "completions_00002.jsonl"} {
		text, err := os.ReadFile(filepath.Join(trlPartial, name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		hourAgo := time.Now().Add(-time.Hour)
		if err := os.Chtimes(path, hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
		path2 = path
	}
	step1, err := os.ReadFile(filepath.Join(trlPartial, "completions_00001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, step1, path2
}

// TestStatsFollowStillWrittenRunAgreement: following trlPartial's table
// under settings that do not reproduce the log, the run's agreement as
// following ends compares the rows but step 2's, whose file's last line
// is unfinished, and says so, not "the whole run read".
func TestStatsFollowStillWrittenRunAgreement(t *testing.T) {
	shortQuiet(t)
	dir, _, _ := followedTRLPartial(t)
	f := startFollowing(t, "stats", "--follow", "--scale", "group", dir)
	f.await(t, "step 2 ")
	f.stop()
	const want = "rewardlens: warning: the run read but step 2, its file's last line unfinished: 16 of 16 rows differ from the logged advantage"
	if errOut := f.errOut.String(); !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}

// TestStatsFollowMatchLoggedLeavesOutTheStepStillWritten follows
// trlPartial's table: step 2's file, ending in an unfinished line from
// the first reading, makes step 2 provisional, with why, as stats
// --health words it, its last group said cut short by that line, not
// evaluation rows, and leaves it out of the fit once the input goes
// quiet, so the settings fitted on step 1 (--scale batch) stay and step 1
// keeps its line; once the line ends, step 2 is graded, fitted and
// checked as step 1 is, and the run's agreement no longer leaves it out.
func TestStatsFollowMatchLoggedLeavesOutTheStepStillWritten(t *testing.T) {
	shortQuiet(t)
	dir, step1, path2 := followedTRLPartial(t)
	cut, err := os.ReadFile(path2)
	if err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	// Step 2 whole: step 1's rows logged again at step 2, as the fixture's.
	step2 := bytes.ReplaceAll(step1, []byte(`{"step": 1,`), []byte(`{"step": 2,`))
	if !bytes.HasPrefix(step2, cut) {
		t.Fatal("the fixture's step 2 is not step 1's rows at step 2, cut")
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--match-logged", dir)
	provisional := "(provisional: " + path2 + " ends in an unfinished line, left out: its run is probably still writing it)\n"
	f.await(t, provisional)
	const found = "--match-logged: `--scale batch` (grpo, scale batch, epsilon 0.0001) reproduces the logged advantage"
	if errOut := f.errOut.String(); !strings.Contains(errOut, found) || strings.Contains(errOut, "the settings changed as rows came") {
		t.Fatalf("the settings fitted on step 1 did not stay as step 2 was read in part:\n%s", errOut)
	}
	cutGroup := `step 2: its last group read, …"Is 91 prime?<|im_end|>\n<|im_start|>assis"… (3 of 4 rows), is short of the row the reading left out after it (` + path2 + "'s unfinished last line)"
	if out, errOut := f.out.String(), f.errOut.String(); !strings.Contains(errOut, cutGroup) || strings.Contains(out+errOut, "evaluation rows") {
		t.Errorf("stderr lacks %q, or names evaluation rows:\n%s\nstderr:\n%s", cutGroup, out, errOut)
	}
	file, err := os.OpenFile(path2, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := file.Write(step2[len(cut):]); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 2 (updated)")
	code := f.stop()
	out, errOut := f.out.String(), f.errOut.String()
	updated := out[strings.Index(out, "step 2 (updated)"):]
	if code != 0 || strings.Contains(updated, "provisional") || strings.Contains(errOut, "left out of the verdict") {
		t.Errorf("step 2, whole, still provisional (status %d):\n%s\nstderr:\n%s", code, out, errOut)
	}
	if strings.Contains(out, "trainer_agreement") || strings.Contains(out, "step 1 (updated)") || strings.Contains(errOut, "the settings changed as rows came") || strings.Contains(errOut, "left out of the fit") {
		t.Errorf("step 2, whole, not checked as step 1 is, or step 1 changed:\n%s\nstderr:\n%s", out, errOut)
	}
}
