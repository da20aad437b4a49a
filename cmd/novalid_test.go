package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestObjectiveTypo is issue 12's case: an objective that names a field no
// record has makes every trajectory invalid. compute and stats write
// nothing and exit 2, naming the objective, the cause and the field meant.
func TestObjectiveTypo(t *testing.T) {
	const want = "rewardlens: all 5120 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?\n"
	outPath := filepath.Join(t.TempDir(), "rewards.jsonl")
	for _, args := range [][]string{
		{"compute"},
		{"compute", "--out", outPath},
		{"compute", "--format", "csv", "--method", "grpo"},
		{"stats"},
		{"stats", "--health", "--format", "json"},
	} {
		out, errOut, code := run(t, "", append(args, "--objective", "acc=metadata.acuracy", samplePath)...)
		if code != exitBadInput || out != "" || errOut != want {
			t.Errorf("%v: status %d, stdout %.100q, stderr %q; want 2, nothing, %q", args, code, out, errOut, want)
		}
	}
	if _, err := os.Stat(outPath); !os.IsNotExist(err) {
		t.Errorf("--out: %s was written (%v)", outPath, err)
	}
	// The bare name and the svrl computer's task say the same.
	_, errOut, code := run(t, "", "compute", "--objective", "safety=safty", samplePath)
	if code != exitBadInput || !strings.Contains(errOut, "objective safety = safty: no trajectory has field safty; did you mean safety?") {
		t.Errorf("bare name: status %d, stderr %q", code, errOut)
	}
	_, errOut, code = run(t, "", "compute", "--computer", "svrl", "--task", "metadata.acuracy", samplePath)
	if code != exitBadInput || !strings.Contains(errOut, "objective task = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?") {
		t.Errorf("svrl: status %d, stderr %q", code, errOut)
	}
	// Nothing close: the fields the records have are listed.
	_, errOut, code = run(t, "", "compute", "--objective", "reward=metadata.reward", samplePath)
	if code != exitBadInput || !strings.Contains(errOut, "no trajectory has field reward; the first records have accuracy, initial_budget, max_steps, prompt, response_length, safety, verification_spent\n") {
		t.Errorf("no suggestion: status %d, stderr %q", code, errOut)
	}
}

// runWithInvalid is a run of batches of 10 trajectories in 2 groups, the
// first invalid[b] of batch b without an accuracy.
func runWithInvalid(invalid ...int) string {
	var b strings.Builder
	for step, n := range invalid {
		for i := range 10 {
			md := fmt.Sprintf(`{"accuracy":%d,"length":%d}`, i%2, 100+i*7+step)
			if i < n {
				md = fmt.Sprintf(`{"length":%d}`, 100+i)
			}
			fmt.Fprintf(&b, `{"id":"s%d-%d","batch":%d,"group":"g%d","metadata":%s}`+"\n", step, i, step, i%2, md)
		}
	}
	return b.String()
}

// TestMostlyInvalidBatchWarns: a batch 60% invalid is computed, with a
// warning on stderr that names its step, the count, the fraction and the
// main cause; a batch 20% invalid gets no warning.
func TestMostlyInvalidBatchWarns(t *testing.T) {
	in := runWithInvalid(0, 6, 2)
	const warning = "rewardlens: warning: step 1: 6 of 10 trajectories invalid (60%), mostly acc: missing (6)\n"
	recs, errOut := computeList(t, in, "--objective", "acc=metadata.accuracy", "--objective", "len=metadata.length", "-")
	if len(recs) != 30 {
		t.Errorf("%d records, want 30", len(recs))
	}
	if !strings.Contains(errOut, warning) || strings.Count(errOut, "warning") != 1 {
		t.Errorf("compute's stderr %q, want the warning %q once", errOut, warning)
	}
	out, errOut, code := run(t, in, "stats", "--objective", "acc=metadata.accuracy", "-")
	if code != 0 || !strings.Contains(errOut, warning) || !strings.Contains(out, "batch 1: 10 trajectories (6 invalid)") {
		t.Errorf("stats: status %d, stderr %q, output\n%s", code, errOut, out)
	}
	// Many such batches: the first five are named, the rest counted.
	_, errOut, _ = run(t, runWithInvalid(9, 9, 9, 9, 9, 9, 10, 0), "stats", "--objective", "acc=metadata.accuracy", "-")
	if !strings.Contains(errOut, "warning: step 4: 9 of 10") || strings.Contains(errOut, "step 5:") ||
		!strings.Contains(errOut, "rewardlens: warning: and 2 more steps with more than half of the trajectories invalid\n") {
		t.Errorf("many batches: stderr %q", errOut)
	}
}

// TestInvalidFractionHealth: stats --health reports invalid_fraction at its
// first WARN (20% invalid) and ALERT (60%) steps, in JSON and in the table,
// an ALERT giving status 3.
func TestInvalidFractionHealth(t *testing.T) {
	args := []string{"--objective", "acc=metadata.accuracy", "--objective", "len=metadata.length", "-"}
	h := statsHealth(t, 0, runWithInvalid(0, 1, 2, 0, 0), args...)
	var got []string
	for _, f := range h.Findings {
		if f.Check == "invalid_fraction" {
			got = append(got, fmt.Sprintf("%s %d %g > %g", f.Level, f.Step, f.Value, f.Threshold))
		}
	}
	if len(got) != 1 || got[0] != "WARN 2 0.2 > 0.1" {
		t.Errorf("20%% invalid: invalid_fraction findings %q, want WARN at step 2, 0.2 > 0.1", got)
	}
	h = statsHealth(t, exitHealthAlert, runWithInvalid(0, 2, 0, 6, 0), args...)
	got = nil
	for _, f := range h.Findings {
		if f.Check == "invalid_fraction" {
			got = append(got, fmt.Sprintf("%s %d %g > %g", f.Level, f.Step, f.Value, f.Threshold))
		}
	}
	if want := "WARN 1 0.2 > 0.1,ALERT 3 0.6 > 0.5"; strings.Join(got, ",") != want {
		t.Errorf("invalid_fraction findings %q, want %q", got, want)
	}
	out, errOut, code := run(t, runWithInvalid(0, 2, 0, 6, 0), append([]string{"stats", "--health"}, args...)...)
	if code != exitHealthAlert || !strings.Contains(errOut, "health: 1 ALERT: invalid_fraction at step 3") {
		t.Errorf("table: status %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"WARN   step 1  invalid_fraction  2 of 10 trajectories invalid (20%), mostly acc: missing (2)",
		"ALERT  step 3  invalid_fraction  6 of 10 trajectories invalid (60%), mostly acc: missing (6)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the table:\n%s", want, out)
		}
	}
}

// TestStatsFollowNoValid: stats --follow on a run none of whose
// trajectories fits the objective stops at the first complete batch, with
// status 2 and the error of compute.
func TestStatsFollowNoValid(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(sampleSteps(t, 0, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "acc=metadata.acuracy", path)
	code := <-f.status
	f.status <- code // for the cleanup
	want := "rewardlens: all 256 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?\n"
	if code != exitBadInput || f.out.String() != "" || f.errOut.String() != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 2, nothing, %q", code, f.out.String(), f.errOut.String(), want)
	}
}

// TestStatsFollowMostlyInvalid: once the run started well, a batch that
// comes mostly invalid is printed with its ALERT and warned of on stderr.
func TestStatsFollowMostlyInvalid(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	all := strings.SplitAfter(runWithInvalid(0, 0, 0, 7, 0), "\n")
	if err := os.WriteFile(path, []byte(strings.Join(all[:30], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "acc=metadata.accuracy", "--objective", "len=metadata.length", path)
	f.await(t, "step 2 ")
	testfile.Append(t, path, strings.Join(all[30:], ""))
	f.await(t, "step 4 ")
	if code := f.stop(); code != exitHealthAlert {
		t.Errorf("status %d, want %d (stderr %q)", code, exitHealthAlert, f.errOut.String())
	}
	lines := stepLines(f.out.String())
	if len(lines) != 5 || !strings.Contains(lines[3], "trajectories 10 (7 invalid)") || !strings.Contains(lines[3], "ALERT invalid_fraction=0.7000") {
		t.Errorf("lines:\n%s", f.out.String())
	}
	const warning = "rewardlens: warning: step 3: 7 of 10 trajectories invalid (70%), mostly acc: missing (7)\n"
	if errOut := f.errOut.String(); strings.Count(errOut, warning) != 1 || strings.Count(errOut, "warning") != 1 {
		t.Errorf("stderr %q, want %q once", errOut, warning)
	}
}

// TestNoValidHostileFields: the field names the error lists come from the
// data: their control characters and escape sequences are escaped.
func TestNoValidHostileFields(t *testing.T) {
	var b strings.Builder
	for i, h := range hostile {
		key, _ := json.Marshal("k" + h)
		fmt.Fprintf(&b, `{"id":"%d","metadata":{%s:1,"accuracy":1}}`+"\n", i, key)
	}
	for _, objective := range []string{"acc=metadata.acuracy", "x=metadata.nothing_like_it"} {
		out, errOut, code := run(t, b.String(), "compute", "--objective", objective, "-")
		if code != exitBadInput || out != "" || !strings.Contains(errOut, "no trajectory has field") {
			t.Errorf("%s: status %d, stderr %q", objective, code, errOut)
		}
		checkClean(t, objective, errOut)
	}
}

// TestConstraintTypo: a constraint or gate that reads a field no record
// has is refused as an objective would be, with the name meant (among
// the fields and the objectives) or the fields there are.
func TestConstraintTypo(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"--constraint", "safty >= 0.8", "constraint safty >= 0.8: missing in 5117 trajectories; the first record of each input has no field safty; did you mean safety?"},
		{"--gate", "accuracy: safty >= 0.8", "gate accuracy: safty >= 0.8: evaluation error in 5117 trajectories (the first: invalid operation: <nil> >= float64); the first record of each input has no field safty; did you mean safety?"},
		{"--constraint", "zzzqqq", "constraint zzzqqq: missing in 5117 trajectories; the first record of each input has no field zzzqqq; the first records have accuracy, initial_budget"},
	} {
		out, errOut, code := run(t, "", "stats", tc.flag, tc.value, samplePath)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s %q: status %d, stdout %.100q, stderr %q; want 2, nothing, %q", tc.flag, tc.value, code, out, errOut, tc.want)
		}
	}
}
