package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui"
)

// verlValDir holds a legacy verl training dump (train: steps 1-3) and the
// validation dump _validate wrote beside it (val: steps 0 and 2, one
// sample per prompt, reward = score), whose prompts are the training ones.
var verlValDir = filepath.Join("testdata", "verlval")

// verlValidationApart is what the refusal of a validation dump given
// beside a training dump says, in either order of the arguments.
func verlValidationApart() string {
	val, train := filepath.Join(verlValDir, "val"), filepath.Join(verlValDir, "train")
	return filepath.Join(val, "0.jsonl") + ", " + filepath.Join(val, "2.jsonl") + " look like a verl validation dump" +
		" (trainer.validation_data_dir: _validate writes each score again as reward); " +
		filepath.Join(train, "1.jsonl") + ", " + filepath.Join(train, "2.jsonl") + ", " + filepath.Join(train, "3.jsonl") + " are training rollouts"
}

// TestVerlValidationBesideTraining: a validation dump given beside the
// training dump is refused by compute and stats, whichever comes first,
// naming the files of each kind (each file judged by its own records),
// instead of its samples joining the training steps' groups by input;
// each dump alone is read, the validation one with its note, the
// training one without.
func TestVerlValidationBesideTraining(t *testing.T) {
	val, train := filepath.Join(verlValDir, "val"), filepath.Join(verlValDir, "train")
	want := verlValidationApart()
	for _, args := range [][]string{
		{"compute", train, val},
		{"compute", val, train},
		{"stats", train, val},
		{"stats", val, train},
	} {
		out, errOut, code := run(t, "", args...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%v: status %d, stdout %d bytes, stderr %q; want status %d, stderr with %q", args, code, len(out), errOut, exitBadInput, want)
		}
	}
	const note = "this looks like a verl validation dump"
	if _, errOut := computeList(t, "", val); !strings.Contains(errOut, note) {
		t.Errorf("the validation dump alone: stderr lacks %q: %s", note, errOut)
	}
	if _, errOut := computeList(t, "", train); strings.Contains(errOut, "validation") {
		t.Errorf("the training dump alone is said to be validation output: %s", errOut)
	}
}

// TestVerlValidationBesideTrainingDashboard: the dashboard's load of a
// validation dump beside a training dump, in either order, fails with
// the same refusal, status 2, rather than opening on the validation step.
func TestVerlValidationBesideTrainingDashboard(t *testing.T) {
	val, train := filepath.Join(verlValDir, "val"), filepath.Join(verlValDir, "train")
	want := verlValidationApart()
	defer func(saved func(context.Context, ui.Input) error) { runUI = saved }(runUI)
	for _, args := range [][]string{{train, val}, {val, train}} {
		var loadErr error
		runUI = func(_ context.Context, in ui.Input) error {
			if in.Load == nil {
				return errors.New("no load")
			}
			_, loadErr = in.Load(func(done, total int64) {})
			return ui.LoadError{Err: loadErr}
		}
		_, errOut, code := run(t, "", args...)
		said := errOut
		if loadErr != nil {
			said = loadErr.Error()
		}
		if code != exitBadInput || !strings.Contains(said, want) {
			t.Errorf("dashboard %v: status %d, error %q (stderr %q); want status %d, %q", args, code, loadErr, errOut, exitBadInput, want)
		}
	}
}

// TestVerlValidationOnStdin: a validation dump on standard input beside
// the training dump is refused as a validation file would be, naming
// standard input, instead of its samples joining step 2's groups.
func TestVerlValidationOnStdin(t *testing.T) {
	val, err := os.ReadFile(filepath.Join(verlValDir, "val", "2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := "standard input looks like a verl validation dump"
	for _, cmd := range []string{"compute", "stats"} {
		out, errOut, code := run(t, string(val), cmd, filepath.Join(verlValDir, "train"), "-")
		if code != exitBadInput || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s train - < val/2.jsonl: status %d, stdout %d bytes, stderr %q; want status %d, %q", cmd, code, len(out), errOut, exitBadInput, want)
		}
	}
}

// copyVerlVal copies the file name of verlValDir's dump kind (train or
// val) into dir.
func copyVerlVal(t *testing.T, kind, name, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(verlValDir, kind, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerlValidationAppearsWhileFollowing: following, a file of the other
// dump appearing (verl writes val/{step}.jsonl at test_freq as it trains)
// is left out, said once on stderr, never merged: a validation file in a
// training run (step 2 stays 32 training rows, not 36), a training file
// in a validation run (step 2 stays the 4 validation samples).
func TestVerlValidationAppearsWhileFollowing(t *testing.T) {
	shortQuiet(t)
	for _, c := range []struct {
		runKind, runFile, newKind, newFile, wantStep, leftOutWhy string
	}{
		{"train", "1.jsonl", "val", "2.jsonl", "step 2  trajectories 32", "a verl validation dump"},
		{"val", "0.jsonl", "train", "2.jsonl", "step 2  trajectories 4", "verl training rollouts, not the validation dump followed"},
	} {
		root := t.TempDir()
		runDir, newDir := filepath.Join(root, c.runKind), filepath.Join(root, c.newKind)
		for _, d := range []string{runDir, newDir} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		copyVerlVal(t, c.runKind, c.runFile, runDir)
		f := startFollowing(t, "stats", "--follow", runDir, newDir)
		f.await(t, "step ")
		copyVerlVal(t, c.newKind, c.newFile, newDir)
		copyVerlVal(t, c.runKind, "2.jsonl", runDir)
		f.awaitErr(t, filepath.Join(newDir, c.newFile)+" ("+c.leftOutWhy)
		f.await(t, "step 2 ")
		f.stop()
		if out := f.out.String(); !strings.Contains(out, c.wantStep) {
			t.Errorf("following %s, %s/%s appeared: want %q:\n%s\nstderr:\n%s", c.runKind, c.newKind, c.newFile, c.wantStep, out, f.errOut.String())
		}
		if n := strings.Count(f.errOut.String(), filepath.Join(newDir, c.newFile)); n != 1 {
			t.Errorf("following %s: %s said %d times, want once:\n%s", c.runKind, c.newFile, n, f.errOut.String())
		}
	}
}

// TestVerlValidationCaughtMidLineWhileFollowing: a validation file caught
// as its first line is written is judged once that line is whole, so it
// is still left out, not read as training rollouts for want of a record.
func TestVerlValidationCaughtMidLineWhileFollowing(t *testing.T) {
	shortQuiet(t)
	root := t.TempDir()
	train, valDir := filepath.Join(root, "train"), filepath.Join(root, "val")
	for _, d := range []string{train, valDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyVerlVal(t, "train", "1.jsonl", train)
	f := startFollowing(t, "stats", "--follow", train, valDir)
	f.await(t, "step 1 ")
	val, err := os.ReadFile(filepath.Join(verlValDir, "val", "2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(valDir, "2.jsonl")
	if err := os.WriteFile(path, val[:40], 0o644); err != nil {
		t.Fatal(err)
	}
	// The follower looks at the directory as the file appears and again
	// at the next poll: the rest comes once it has looked at the cut line.
	time.Sleep(loaders.DefaultPoll * 3 / 2)
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.Write(val[40:]); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	copyVerlVal(t, "train", "2.jsonl", train)
	f.awaitErr(t, path+" (a verl validation dump")
	f.await(t, "step 2 ")
	f.stop()
	if out := f.out.String(); !strings.Contains(out, "step 2  trajectories 32") {
		t.Errorf("the validation file caught mid-line joined step 2:\n%s\nstderr:\n%s", out, f.errOut.String())
	}
}

// TestVerlValidationAppearsWhileFollowingDashboard: the dashboard's
// follower leaves the validation file that appears out too, its update
// saying so (the status line's left-out note, as for companions), and
// reads the training file beside it.
func TestVerlValidationAppearsWhileFollowingDashboard(t *testing.T) {
	root := t.TempDir()
	train, valDir := filepath.Join(root, "train"), filepath.Join(root, "val")
	for _, d := range []string{train, valDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyVerlVal(t, "train", "1.jsonl", train)
	var leftOut []loaders.LeftOutFile
	var rows int
	defer func(saved func(context.Context, ui.Input) error) { runUI = saved }(runUI)
	runUI = func(_ context.Context, in ui.Input) error {
		_, updates, err := in.Follow(ui.StreamHooks{Each: func([]scoring.Trajectory) error { return nil }})
		if err != nil {
			return err
		}
		copyVerlVal(t, "val", "2.jsonl", valDir)
		copyVerlVal(t, "train", "2.jsonl", train)
		for deadline := time.After(10 * time.Second); len(leftOut) == 0 || rows < 32; {
			select {
			case u := <-updates:
				leftOut = append(leftOut, u.LeftOut...)
				for _, tr := range u.Trajectories {
					if tr.Source != filepath.Join(train, "2.jsonl") {
						return fmt.Errorf("a row of %s read", tr.Source)
					}
					rows++
				}
			case <-deadline:
				return fmt.Errorf("after 10 s: left out %v, %d rows read", leftOut, rows)
			}
		}
		return nil
	}
	if _, errOut, code := run(t, "", "--follow", train, valDir); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if len(leftOut) != 1 || leftOut[0].Path != filepath.Join(valDir, "2.jsonl") || !strings.HasPrefix(leftOut[0].Why, "a verl validation dump") {
		t.Errorf("left out %v, want %s as a verl validation dump", leftOut, filepath.Join(valDir, "2.jsonl"))
	}
}
