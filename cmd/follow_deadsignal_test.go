package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// deadSignalSteps is two steps of three groups of two: step 0 has an
// all-pass group of equal scores, an all-fail one and a mixed one; step 1
// has a phantom group (acc all 0 while the shaped score varies), a
// zero-spread mixed one (other) and an all-pass one of equal scores.
const deadSignalSteps0 = `{"step":0,"group":"a","metadata":{"acc":1,"score":1}}
{"step":0,"group":"a","metadata":{"acc":1,"score":1}}
{"step":0,"group":"b","metadata":{"acc":0,"score":0}}
{"step":0,"group":"b","metadata":{"acc":0,"score":0}}
{"step":0,"group":"c","metadata":{"acc":1,"score":1}}
{"step":0,"group":"c","metadata":{"acc":0,"score":0}}
`

const deadSignalSteps1 = `{"step":1,"group":"a","metadata":{"acc":0,"score":-0.1}}
{"step":1,"group":"a","metadata":{"acc":0,"score":-0.3}}
{"step":1,"group":"b","metadata":{"acc":1,"score":0.5}}
{"step":1,"group":"b","metadata":{"acc":0,"score":0.5}}
{"step":1,"group":"c","metadata":{"acc":1,"score":1}}
{"step":1,"group":"c","metadata":{"acc":1,"score":1}}
`

// TestStatsFollowDeadSignal checks stats --follow's dead signal per step
// against hand-computed values, in text (a line under the step's, as
// stats prints it) and JSON, with dead_signal graded as the task metric
// is named.
//
// Step 0: groups 3, zero spread a (all pass) and b (all fail), c mixed;
// p = 3/6 = 0.5; dead share 2/3; expected (1/3)*3*(0.5^2+0.5^2) = 0.5.
// Step 1: a is phantom (acc all fail, scores differ), b zero spread other,
// c zero spread all pass; p = 3/6; dead share (1+1)/3; phantom share 1/3.
func TestStatsFollowDeadSignal(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl")
			if err := os.WriteFile(path, []byte(deadSignalSteps0), 0o644); err != nil {
				t.Fatal(err)
			}
			f := startFollowing(t, "stats", "--follow", "--health", "--format", format, "--objective", "score=metadata.score",
				"--task-metric", "metadata.acc", "--batch-by", "step", path)
			if format == "json" {
				f.await(t, `"step":0`)
			} else {
				f.await(t, "step 0 ")
			}
			testfile.Append(t, path, deadSignalSteps1)
			if format == "json" {
				f.await(t, `"step":1`)
			} else {
				f.await(t, "step 1 ")
			}
			f.stop()
			out := f.out.String()
			if format == "table" {
				want := []string{
					"  dead signal: 2 zero-spread groups (1 all-pass, 1 all-fail, 0 other), 0 phantom; all pass or all fail 0.6667, independent sampling at pass rate 0.5000: 0.5000\n",
					"  dead signal: 2 zero-spread groups (1 all-pass, 0 all-fail, 1 other), 1 phantom; all pass or all fail 0.6667, independent sampling at pass rate 0.5000: 0.5000\n",
				}
				lines := strings.SplitAfter(out, "\n")
				if len(lines) < 4 || lines[1] != want[0] || lines[3] != want[1] {
					t.Fatalf("output:\n%s\nwant the dead signal lines\n%s", out, strings.Join(want, ""))
				}
				if !strings.Contains(lines[0], "WARN dead_signal=0.6667") || !strings.Contains(lines[2], "ALERT phantom_signal=0.3333") {
					t.Errorf("dead_signal and phantom_signal not graded:\n%s", out)
				}
				return
			}
			type lineJSON struct {
				DeadSignal *deadSignalJSON `json:"dead_signal"`
			}
			var got []lineJSON
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var l lineJSON
				if err := json.Unmarshal([]byte(line), &l); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				got = append(got, l)
			}
			if len(got) != 2 || got[0].DeadSignal == nil || got[1].DeadSignal == nil {
				t.Fatalf("lines %+v", got)
			}
			want := deadSignalJSON{Groups: 3, ZeroSpread: 2, ZeroAllPass: 1, ZeroOther: 1, Phantom: 1, PassRate: 0.5, DeadShare: number(2.0 / 3), ExpectedDeadShare: 0.5, PhantomShare: number(1.0 / 3)}
			if *got[1].DeadSignal != want {
				t.Errorf("step 1 dead signal %+v, want %+v", *got[1].DeadSignal, want)
			}
			if got[0].DeadSignal.ZeroAllFail != 1 || got[0].DeadSignal.Phantom != 0 {
				t.Errorf("step 0 dead signal %+v", *got[0].DeadSignal)
			}
		})
	}
}

// TestStatsFollowDeadSignalAfterRereading: a file read again from its
// start (a run resumed from a checkpoint rewrites a step's file) keeps
// the dead signal, read of the records, of every step: the rewritten
// step's updated line and a later step's carry it and their findings,
// and the status says the ALERT (it went silent, "healthy", status 0).
func TestStatsFollowDeadSignalAfterRereading(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := t.TempDir()
	step0 := filepath.Join(dir, "0.jsonl")
	if err := os.WriteFile(step0, []byte(deadSignalSteps0), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "score=metadata.score",
		"--task-metric", "metadata.acc", "--batch-by", "step", dir)
	f.await(t, "step 0 ")
	// Group a's scores now vary while both its rows pass: a phantom.
	rewritten := strings.Replace(deadSignalSteps0, `"group":"a","metadata":{"acc":1,"score":1}`, `"group":"a","metadata":{"acc":1,"score":0.5}`, 1)
	if err := os.WriteFile(step0, []byte(rewritten), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 0 (updated)")
	if err := os.WriteFile(filepath.Join(dir, "1.jsonl"), []byte(deadSignalSteps1), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 1 ")
	code := f.stop()
	out := f.out.String()
	want := []string{
		"  dead signal: 1 zero-spread group (0 all-pass, 1 all-fail, 0 other), 1 phantom; all pass or all fail 0.6667, independent sampling at pass rate 0.5000: 0.5000\n",
		"  dead signal: 2 zero-spread groups (1 all-pass, 0 all-fail, 1 other), 1 phantom; all pass or all fail 0.6667, independent sampling at pass rate 0.5000: 0.5000\n",
	}
	lines := strings.SplitAfter(out, "\n")
	if len(lines) < 6 || lines[3] != want[0] || lines[5] != want[1] {
		t.Fatalf("output:\n%s\nwant the updated step 0 and step 1 with their dead signal lines\n%s\nstderr:\n%s", out, strings.Join(want, ""), f.errOut.String())
	}
	if !strings.Contains(lines[2], "ALERT phantom_signal=0.3333") || !strings.Contains(lines[4], "ALERT phantom_signal=0.3333") {
		t.Errorf("phantom_signal not graded:\n%s", out)
	}
	if code != 3 {
		t.Errorf("status %d, want 3 (the ALERTs); stderr:\n%s", code, f.errOut.String())
	}
}
