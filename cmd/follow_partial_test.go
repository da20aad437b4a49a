package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// verlStepInPart makes a directory with verl's sample dumps of steps 1
// and 2 and the first 3 lines of step 3's (three groups of one: its run
// is writing it line by line), and returns it and the rest of step 3.
// The tests read it with --group-of-one zero (TRL's convention), which
// leaves a group of one without signal, so that the part ALERTs
// dead_signal (verl's own, score, gives it signal); zero_spread WARNs that
// groups of one row each cannot be judged.
func verlStepInPart(t *testing.T) (dir, rest string) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range []string{"1.jsonl", "2.jsonl", "3.jsonl"} {
		data, err := os.ReadFile(filepath.Join(verlDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "3.jsonl" {
			lines := strings.SplitAfter(string(data), "\n")
			data, rest = []byte(strings.Join(lines[:3], "")), strings.Join(lines[3:], "")
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, rest
}

// TestStatsFollowPartialStepWithdrawn: the newest step printed on the
// quiet timer with fewer trajectories than the step before it is marked
// partial, its ALERTs provisional; the rest of its lines print it again,
// healthy, and a later step starting confirms it, unmarked. The ALERTs
// withdrawn, the status is 0: the lines end healthy.
func TestStatsFollowPartialStepWithdrawn(t *testing.T) {
	shortQuiet(t)
	dir, rest := verlStepInPart(t)
	// Step 3 is graded against steps 1 and 2: a provisional step is no
	// part of the baseline.
	const inPart = "fewer rows than step 2's 12, 3 of its 3 groups short of that step's 4: its run is probably still writing it"
	const written = "fewer rows than step 2's 12, rows of it having come while following: its run is probably still writing it"
	f := startFollowing(t, "stats", "--follow", "--health", "--group-of-one", "zero", dir)
	f.await(t, "step 3  trajectories 3 (0 invalid)  reward mean 0.0000 std 0.0000  frontier 3  WARN zero_spread=1.0000, ALERT dead_signal=1.0000, ALERT variance_collapse=0.0000 (provisional: "+inPart+")\n")
	testfile.Append(t, filepath.Join(dir, "3.jsonl"), rest)
	f.await(t, "step 3 (updated)  trajectories 10 (0 invalid)  reward mean 0.0000 std 0.7746  frontier 7  healthy (provisional: "+written+")\n")
	data, err := os.ReadFile(filepath.Join(verlDir, "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	step4 := strings.ReplaceAll(string(data), `"step": 1`, `"step": 4`)
	if err := os.WriteFile(filepath.Join(dir, "4.jsonl"), []byte(step4), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 3  trajectories 10 (0 invalid)  reward mean 0.0000 std 0.7746  frontier 7  healthy\n") // unmarked, not updated: the same numbers
	f.await(t, "step 4  trajectories 12 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, f.out.String(), f.errOut.String())
	}
	if out := f.out.String(); strings.Count(out, "(provisional: ") != 2 {
		t.Errorf("stdout:\n%s", out)
	}
}

// TestStatsFollowPartialStepWarningWithdrawn: a step printed in part,
// whose groups are short, has its warning of groups of unequal size
// hedged as the trainer check's is, and its line's verdict provisional,
// healthy too; its whole line, its groups even, withdraws the warning
// (it stood, said as if the step were whole, and "healthy" as final).
func TestStatsFollowPartialStepWarningWithdrawn(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	var step3 []string
	for _, name := range []string{"1.jsonl", "2.jsonl"} {
		data, err := os.ReadFile(filepath.Join(verlDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		step3 = strings.SplitAfter(strings.ReplaceAll(string(data), `"step": 1,`, `"step": 3,`), "\n")
	}
	step3 = strings.SplitAfter(strings.ReplaceAll(strings.Join(step3, ""), `"step": 2,`, `"step": 3,`), "\n")
	path := filepath.Join(dir, "3.jsonl")
	f := startFollowing(t, "stats", "--follow", dir)
	f.await(t, "step 2 ")
	if err := os.WriteFile(path, []byte(strings.Join(step3[:5], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 3  trajectories 5 ")
	testfile.Append(t, path, strings.Join(step3[5:], ""))
	f.await(t, "step 3 (updated)  trajectories 12 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr:\n%s", code, f.errOut.String())
	}
	if out := f.out.String(); !strings.Contains(out, "step 3  trajectories 5 (0 invalid)  reward mean 0.2000 std 0.6000  frontier 4  healthy (provisional: fewer rows than step 2's 12, rows of it having come while following: its run is probably still writing it)\n") {
		t.Errorf("the partial line is not provisional:\n%s", out)
	}
	errOut := f.errOut.String()
	hedged := "rewardlens: warning (step read in part): step 3: groups of unequal size"
	withdrawn := "rewardlens: withdrawn (step 3's updated line has it no more): step 3: groups of unequal size"
	if !strings.Contains(errOut, hedged) || !strings.Contains(errOut, withdrawn) || strings.Contains(errOut, "rewardlens: warning: step 3:") {
		t.Errorf("stderr:\n%s\nwant the warning hedged, then withdrawn", errOut)
	}
}

// TestStatsFollowPartialStepLeftOutOfStatus: following ended while a
// step is in part, its last line's ALERTs are provisional, as those of
// stats --health's file still being written: listed, in JSON each
// finding and the line with why, but left out of the status (0), stderr
// saying so in stats --health's words.
func TestStatsFollowPartialStepLeftOutOfStatus(t *testing.T) {
	shortQuiet(t)
	dir, _ := verlStepInPart(t)
	f := startFollowing(t, "stats", "--follow", "--health", "--group-of-one", "zero", "--format", "json", dir)
	f.await(t, `"step":3,"trajectories":3,`)
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, want 0: step 3's ALERTs are provisional; stderr:\n%s", code, f.errOut.String())
	}
	const why = "fewer rows than step 2's 12, 3 of its 3 groups short of that step's 4: its run is probably still writing it"
	lines := strings.Split(strings.TrimSpace(f.out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"step":3,`) || !strings.Contains(last, `"check":"dead_signal","level":"ALERT"`) || !strings.Contains(last, `"provisional":"`+why+`"},{"check":"variance_collapse"`) ||
		!strings.HasSuffix(last, `"provisional":"`+why+`"}`) {
		t.Errorf("step 3's line should carry its ALERTs, each provisional, and why:\n%s", last)
	}
	errOut := f.errOut.String()
	if want := "rewardlens: health: step 3 left out of the verdict (exit status): " + why + "; its findings (2 ALERTs, 1 WARN) are provisional\n"; !strings.Contains(errOut, want) || strings.Contains(errOut, "health: 1 ALERT") {
		t.Errorf("stderr should say step 3 left out of the verdict, %q, and no ALERT:\n%s", want, errOut)
	}
}

// TestStatsFollowStatusOfTheLastLines: the status is told by each step's
// last line: a step's ALERT stands when no later line of that step
// withdrew it, though its file was then rewritten with other steps (the
// result at the end holds none of it: the status was 0).
func TestStatsFollowStatusOfTheLastLines(t *testing.T) {
	shortQuiet(t)
	dir, _ := verlStepInPart(t)
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	part, err := os.ReadFile(filepath.Join(dir, "3.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, part, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--group-of-one", "zero", path)
	f.await(t, "step 3  trajectories 3 (0 invalid)  reward mean 0.0000 std 0.0000  frontier 3  WARN zero_spread=1.0000, ALERT dead_signal=1.0000\n")
	whole, err := os.ReadFile(filepath.Join(verlDir, "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 1  trajectories 12 (0 invalid)  reward mean 0.0000 std 0.7071  frontier 9  healthy\n")
	if code := f.stop(); code != exitHealthAlert || !strings.Contains(f.errOut.String(), "health: 1 ALERT: dead_signal at step 3") {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, f.out.String(), f.errOut.String())
	}
}

// TestStatsFollowFirstLineBeingWritten: a followed file whose first line
// is being written (no line end, not complete JSON yet) as following
// starts is waited for while it has no line end, however long its run
// takes to write the rest (a logger that does not flush each line): once
// the line is whole, it is read as verl's (it was an error, exit 2). A
// first line ended but not JSON is the error it was.
func TestStatsFollowFirstLineBeingWritten(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "1.jsonl")
	line := `{"input":"p1","output":"a","gts":"x","score":1,"step":4}` + "\n"
	if err := os.WriteFile(path, []byte(line[:20]), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", path)
	time.Sleep(3 * awaitPoll) // a run that does not flush each line: several looks see it cut
	testfile.Append(t, path, line[20:])
	f.await(t, "step 4 ")
	if code := f.stop(); code != 0 || !strings.Contains(f.errOut.String(), "read as verl rollout dumps") {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}

	// A first line ended but not JSON stays an error.
	if err := os.WriteFile(path, []byte(line[:20]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "", "stats", "--follow", path); code != exitBadInput || !strings.Contains(errOut, path+":1:") {
		t.Errorf("status %d, stderr %q", code, errOut)
	}
}

// TestStatsFollowShortStepNotPartial: verl's sample run, followed once
// written, ends with step 3, of 10 trajectories after 12 (two of its
// prompts with one rollout): a complete step, neither being written (no
// line of it came while following) nor with most of its groups short,
// is not marked partial, and its findings are not provisional.
func TestStatsFollowShortStepNotPartial(t *testing.T) {
	shortQuiet(t)
	f := startFollowing(t, "stats", "--follow", verlDir)
	f.await(t, "step 3 ")
	if code := f.stop(); code != 0 || strings.Contains(f.out.String(), "provisional") {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, f.out.String(), f.errOut.String())
	}
}

// TestStatsFollowStepBeingWrittenPartial: a step whose lines come while
// following, fewer than the step before's, is marked partial though its
// groups are whole (its run writes them one after another): its file is
// being written.
func TestStatsFollowStepBeingWrittenPartial(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var step0, step1 strings.Builder
	for i := range 12 {
		fmt.Fprintf(&step0, `{"step":0,"group":"g%d","metadata":{"a":%d}}`+"\n", i/4, i%3)
		if i < 8 {
			fmt.Fprintf(&step1, `{"step":1,"group":"g%d","metadata":{"a":%d}}`+"\n", i/4, i%3)
		}
	}
	if err := os.WriteFile(path, []byte(step0.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "a=metadata.a", "--batch-by", "step", path)
	f.await(t, "step 0 ")
	testfile.Append(t, path, step1.String())
	f.await(t, "step 1  trajectories 8 (0 invalid)  reward mean 0.0000 std 1.0000  frontier 2  healthy (provisional: fewer rows than step 0's 12, rows of it having come while following: its run is probably still writing it)\n")
	f.stop()
}

// TestStatsFollowStepWrittenThenQuiet: verl's sample steps 1 and 2
// followed, step 3's file (10 trajectories after 12, its groups whole but
// two) comes while following: printed on the quiet timer partial, as
// being written, it gets its final line, unmarked, when a quiet interval
// more passes with nothing come; at the interrupt, before any quiet time,
// its last line is final too: that of the step read whole at the start
// (TestStatsFollowShortStepNotPartial). It stayed partial.
func TestStatsFollowStepWrittenThenQuiet(t *testing.T) {
	final := "step 3  trajectories 10 (0 invalid)  reward mean 0.0000 std 0.8944  frontier 7  healthy\n"
	for _, tc := range []struct {
		name  string
		quiet time.Duration
	}{
		{"quiet", 200 * time.Millisecond},
		{"interrupt", time.Hour}, // only the interrupt prints the newest step
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := followQuiet
			followQuiet = tc.quiet
			t.Cleanup(func() { followQuiet = old })
			dir := t.TempDir()
			testkit.CopyWhole(t, verlDir, dir, "1.jsonl")
			testkit.CopyWhole(t, verlDir, dir, "2.jsonl")
			f := startFollowing(t, "stats", "--follow", "--health", dir)
			f.await(t, "step 1 ")
			testkit.CopyWhole(t, verlDir, dir, "3.jsonl")
			if tc.quiet == time.Hour {
				f.await(t, "step 2 ") // printed as step 3 starts: step 3's rows are read
			} else {
				f.await(t, "step 3  trajectories 10 (0 invalid)  reward mean 0.0000 std 0.8944  frontier 7  healthy (provisional: fewer rows than step 2's 12, rows of it having come while following: its run is probably still writing it)\n")
				f.await(t, final)
			}
			if code := f.stop(); code != 0 {
				t.Errorf("status %d, stderr:\n%s", code, f.errOut.String())
			}
			if lines := stepLines(f.out.String()); lines[len(lines)-1]+"\n" != final {
				t.Errorf("the last line is not step 3's final one:\n%s", f.out.String())
			}
		})
	}
}
