package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// loggedRun is a run whose step 0 logs grpo's advantage (scale group) and
// step 1 the unscaled one (scale none).
const loggedRun = `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":0.7071}}
{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":-0.7071}}
{"id":"c","batch":1,"group":"g","metadata":{"x":1,"adv":0.5}}
{"id":"d","batch":1,"group":"g","metadata":{"x":0,"adv":-0.5}}
`

// TestStatsFollowLoggedAdvantage: stats --follow compares each printed
// step's rewards with the logged advantage as stats does per batch: the
// line "reward vs logged advantage" and the trainer check's warning under
// the step's line, the same members in its JSON lines; a logged advantage
// that reads a field no record has stops it, status 2, with stats' error;
// one whose field is null is warned of once, at the first step.
func TestStatsFollowLoggedAdvantage(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(loggedRun), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv"}
	out, _, code := run(t, "", append(append([]string{"stats", "--format", "json"}, flags...), path)...)
	var whole struct {
		Batches []struct {
			Logged    json.RawMessage `json:"logged_advantage"`
			Agreement struct {
				Warning string `json:"warning"`
			} `json:"trainer_agreement"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &whole); code != 0 || err != nil || len(whole.Batches) != 2 {
		t.Fatalf("stats: status %d, %v:\n%s", code, err, out)
	}

	f := startFollowing(t, append(append([]string{"stats", "--follow"}, flags...), path)...)
	f.await(t, "step 1 ")
	f.await(t, "  dead signal")
	f.stop()
	lines := strings.Split(f.out.String(), "\n")
	want := []string{
		"  reward vs logged advantage: 2 rows, max |diff| 9.320e-05, mean |diff| 9.320e-05, 0 differ by more than 0.0001",
		"  reward vs logged advantage: 2 rows, max |diff| 0.2070, mean |diff| 0.2070, 2 differ by more than 0.0001",
		"  warning: " + whole.Batches[1].Agreement.Warning,
	}
	if len(lines) < 7 || lines[1] != want[0] || lines[4] != want[1] || lines[5] != want[2] || !strings.Contains(want[2], "`--scale none` reproduces this batch") {
		t.Errorf("stdout:\n%s\nwant the lines:\n%s", f.out.String(), strings.Join(want, "\n"))
	}

	f = startFollowing(t, append(append([]string{"stats", "--follow", "--format", "json"}, flags...), path)...)
	f.await(t, `"step":1`)
	f.stop()
	for i, line := range strings.Split(strings.TrimSpace(f.out.String()), "\n") {
		var got struct {
			Logged    json.RawMessage `json:"logged_advantage"`
			Agreement struct {
				Warning string `json:"warning"`
			} `json:"trainer_agreement"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil || string(got.Logged) != strings.Join(strings.Fields(string(whole.Batches[i].Logged)), "") ||
			got.Agreement.Warning != whole.Batches[i].Agreement.Warning {
			t.Errorf("line %d: %s (%v); want logged_advantage %s, warning %q", i, line, err, whole.Batches[i].Logged, whole.Batches[i].Agreement.Warning)
		}
	}

	misnamed := []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adb", path}
	_, wantErr, _ := run(t, "", append([]string{"stats"}, misnamed...)...)
	f = startFollowing(t, append([]string{"stats", "--follow"}, misnamed...)...)
	select {
	case code = <-f.status:
		f.status <- code // for the cleanup
	case <-time.After(10 * time.Second):
		code = f.stop()
	}
	if code != exitBadInput || f.errOut.String() != wantErr || !strings.Contains(wantErr, "no field adb") {
		t.Errorf("misnamed: status %d, stderr %q, want %q", code, f.errOut.String(), wantErr)
	}

	nulls := filepath.Join(t.TempDir(), "nulls.jsonl")
	if err := os.WriteFile(nulls, []byte(strings.NewReplacer(`"adv":0.`, `"adv":null,"was":0.`, `"adv":-0.`, `"adv":null,"was":-0.`).Replace(loggedRun)), 0o644); err != nil {
		t.Fatal(err)
	}
	// A step whose rows are all invalid but logged is said to have no
	// valid row with one (the comparison counts valid rows), not none.
	invalids := filepath.Join(t.TempDir(), "invalid.jsonl")
	if err := os.WriteFile(invalids, []byte(strings.Replace(loggedRun, `"x":`, `"x":"a","was":`, 2)), 0o644); err != nil { // step 0's x not numbers
		t.Fatal(err)
	}
	f = startFollowing(t, append(append([]string{"stats", "--follow"}, flags...), invalids)...)
	f.await(t, "step 1 ")
	f.stop()
	if errOut := f.errOut.String(); strings.Contains(errOut, "no row has a logged advantage") ||
		!strings.Contains(errOut, "rewardlens: warning: step 0: no valid row has a logged advantage (a finite number)") {
		t.Errorf("invalid rows with logged advantages: stderr %q", errOut)
	}

	f = startFollowing(t, append(append([]string{"stats", "--follow"}, flags...), nulls)...)
	f.await(t, "step 1 ")
	f.stop()
	if errOut := f.errOut.String(); strings.Count(errOut, "no row has a logged advantage") != 1 ||
		!strings.Contains(errOut, "rewardlens: warning: step 0: no row has a logged advantage (a finite number): the rewards are compared with nothing\n") {
		t.Errorf("null logged advantages: stderr %q", errOut)
	}
}

// TestStatsFollowMatchLogged: with --match-logged, stats --follow computes
// with the settings that reproduce the logged advantages of the rows read
// so far, says which on stderr, and says so again when a later step makes
// them change (no one setting reproduces both steps here: the settings as
// given), the step printed before printed again under them. Following
// ends with the whole run's agreement line, as stats prints it.
func TestStatsFollowMatchLogged(t *testing.T) {
	shortQuiet(t)
	step0 := `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":1}}
{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":-1}}
`
	step1 := `{"id":"c","batch":1,"group":"g","metadata":{"x":1,"adv":0.5}}
{"id":"d","batch":1,"group":"g","metadata":{"x":0,"adv":-0.5}}
`
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(step0+step1), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv"}
	_, statsErr, _ := run(t, "", append(append([]string{"stats"}, flags...), whole)...)
	runWarning := strings.TrimPrefix(strings.TrimSpace(statsErr), "rewardlens: warning: ")
	if !strings.Contains(runWarning, "no one setting of the 34 tried reproduces every step") {
		t.Fatalf("stats' stderr:\n%s", statsErr)
	}

	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, []byte(step0), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, append(append([]string{"stats", "--follow", "--match-logged"}, flags...), path)...)
	f.await(t, "step 0  trajectories 2 (0 invalid)  reward mean 0.0000 std 1.0000")
	f.awaitErr(t, "rewardlens: --match-logged: `--method rloo` (rloo) reproduces the logged advantage to 0: computing with it (the 2 logged rows of the complete steps read so far)\n")
	testfile.Append(t, path, step1)
	f.awaitErr(t, "rewardlens: warning: the settings changed as rows came: --match-logged: 4 of 4 rows differ")
	f.await(t, "step 0 (updated)  trajectories 2 (0 invalid)  reward mean 0.0000 std 0.7070")
	f.await(t, "step 1 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	if want := "rewardlens: warning: the whole run read: " + runWarning + "\n"; !strings.HasSuffix(f.errOut.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to end with:\n%s", f.errOut.String(), want)
	}
}

// TestStatsFollowMatchLoggedPartialStep: --match-logged looks for the
// settings on the complete steps alone: a step read in part (its short
// group's rewards reproduce no logged advantage) changes nothing, whether
// it comes in two halves while following or ends the file as following
// starts, and the end's whole-run line leaves it out.
func TestStatsFollowMatchLoggedPartialStep(t *testing.T) {
	shortQuiet(t)
	// Logged by grpo --scale none: x minus the group's mean.
	half := func(step int, ids string) string {
		return strings.NewReplacer("S", strconv.Itoa(step), "I", ids[:1], "J", ids[1:]).Replace(
			`{"id":"SI","batch":S,"group":"g","metadata":{"x":1,"adv":0.5}}
{"id":"SJ","batch":S,"group":"g","metadata":{"x":1,"adv":0.5}}
`)
	}
	second := func(step int) string {
		return strings.NewReplacer("S", strconv.Itoa(step)).Replace(
			`{"id":"Sc","batch":S,"group":"g","metadata":{"x":0,"adv":-0.5}}
{"id":"Sd","batch":S,"group":"g","metadata":{"x":0,"adv":-0.5}}
`)
	}
	flags := []string{"stats", "--follow", "--match-logged", "--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv"}
	const found = "rewardlens: --match-logged: `--scale none`"

	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(half(0, "ab")+second(0)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, append(flags, path)...)
	f.await(t, "step 0  trajectories 4 (0 invalid)  reward mean 0.0000 std 0.5000")
	f.awaitErr(t, found)
	testfile.Append(t, path, half(1, "ab"))
	f.await(t, "step 1  trajectories 2 (0 invalid)")
	testfile.Append(t, path, second(1))
	f.await(t, "step 1 (updated)  trajectories 4 (0 invalid)  reward mean 0.0000 std 0.5000")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	if errOut := f.errOut.String(); strings.Contains(errOut, "settings changed") || strings.Contains(errOut, "run read") {
		t.Errorf("a step in two halves: stderr:\n%s", errOut)
	}

	live := filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(live, []byte(half(0, "ab")+second(0)+half(1, "ab")+second(1)+half(2, "ab")), 0o644); err != nil {
		t.Fatal(err)
	}
	f = startFollowing(t, append(flags, live)...)
	f.await(t, "step 2 ")
	f.awaitErr(t, found)
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	if !strings.Contains(errOut, "(the 8 logged rows of the complete steps read so far)") || strings.Contains(errOut, "settings changed") || strings.Contains(errOut, "run read") {
		t.Errorf("a file ending in a step read in part: stderr:\n%s", errOut)
	}
	if !strings.Contains(f.out.String(), "step 1  trajectories 4 (0 invalid)  reward mean 0.0000 std 0.5000") {
		t.Errorf("a file ending in a step read in part: stdout:\n%s", f.out.String())
	}

	// Without --match-logged the settings given differ: the end's line
	// says which step it leaves out.
	f = startFollowing(t, append(slices.DeleteFunc(slices.Clone(flags), func(s string) bool { return s == "--match-logged" }), live)...)
	f.await(t, "step 2 ")
	f.stop()
	if errOut := f.errOut.String(); !strings.Contains(errOut, "rewardlens: warning: the run read but step 2, read in part: ") {
		t.Errorf("the settings given: stderr:\n%s", errOut)
	}
}

// TestStatsFollowMatchLoggedInterrupted: a follow interrupted before the
// newest step's quiet time prints that step under the settings found with
// it, as a quiet time would have: a one-step log of grpo's unscaled
// advantages is not an ALERT of trainer_agreement under scale group.
func TestStatsFollowMatchLoggedInterrupted(t *testing.T) {
	followQuiet = time.Hour // no quiet time before the interrupt
	t.Cleanup(func() { followQuiet = 1500 * time.Millisecond })
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":0.75}}
{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":-0.25}}
{"id":"c","batch":0,"group":"g","metadata":{"x":0,"adv":-0.25}}
{"id":"d","batch":0,"group":"g","metadata":{"x":0,"adv":-0.25}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--match-logged", "--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv", path)
	time.Sleep(500 * time.Millisecond) // the first reading computed
	code := f.stop()
	if out := f.out.String(); code != 0 || strings.Contains(out, "trainer_agreement") || !strings.Contains(out, "step 0 ") {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, out, f.errOut.String())
	}
	if !strings.Contains(f.errOut.String(), "`--scale none`") {
		t.Errorf("stderr does not say the settings found:\n%s", f.errOut.String())
	}
}

// TestStatsFollowPartialStepNotGradedByTheLog: the rows of a step read in
// part differ from the log by their short groups: its line carries no
// trainer_agreement finding, and a follow stopped there ends 0.
func TestStatsFollowPartialStepNotGradedByTheLog(t *testing.T) {
	shortQuiet(t)
	step := func(s int, rows ...[2]float64) string {
		var b strings.Builder
		for k, r := range rows {
			fmt.Fprintf(&b, `{"id":"%d%d","batch":%d,"group":"g","metadata":{"x":%g,"adv":%g}}`+"\n", s, k, s, r[0], r[1])
		}
		return b.String()
	}
	// Logged by grpo --scale none: x minus the group's mean.
	whole := [][2]float64{{1, 0.5}, {1, 0.5}, {0, -0.5}, {0, -0.5}}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(step(0, whole...)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--method", "grpo", "--scale", "none", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv", path)
	f.await(t, "step 0  trajectories 4")
	testfile.Append(t, path, step(1, whole[:3]...))
	f.await(t, "step 1  trajectories ")
	code := f.stop()
	if out := f.out.String(); code != 0 || strings.Contains(out, "trainer_agreement") {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, out, f.errOut.String())
	}
}
