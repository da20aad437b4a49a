package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedFilesMatchGenerator regenerates the fixtures into a
// temporary directory and compares them byte for byte with the committed
// ones, so that the data and its generator cannot drift apart. On failure,
// run "go run ./sample_data/gentrainers" from the module root and review
// the diff.
func TestCommittedFilesMatchGenerator(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		n++
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join("..", rel))
		if err != nil {
			t.Errorf("%s: generated but not committed: %v", rel, err)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s: the committed file differs from what gentrainers writes", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Errorf("%d files generated, want 3 verl dumps and 3 TRL tables", n)
	}
}

// TestTRLAdvantage checks the float32 advantage of the generator against
// a group by hand: rewards 2, 1, 1, 2 (mean 1.5, sample std 1/sqrt(3)).
func TestTRLAdvantage(t *testing.T) {
	p := trlSteps[0][0]
	want := 0.5 / (1/1.7320508075688772 + 1e-4)
	if got := float64(trlAdvantage(p, 0)); got-want > 1e-6 || want-got > 1e-6 {
		t.Errorf("advantage %v, want %v", got, want)
	}
	// A row whose every reward is None gets 0 and stays out of the others'
	// baseline: rewards 2, 1, 1 (mean 4/3, sample std 1/sqrt(3)).
	q := trlSteps[2][1]
	if got := trlAdvantage(q, 0); got != 0 {
		t.Errorf("unscorable row: %v", got)
	}
	want = (2 - 4.0/3) / (1/1.7320508075688772 + 1e-4)
	if got := float64(trlAdvantage(q, 2)); got-want > 1e-6 || want-got > 1e-6 {
		t.Errorf("advantage %v, want %v", got, want)
	}
}

// TestCommittedTRLFixturesMatchGenerator writes the TRL tables of
// cmd/testdata/trl/fixtures.json again and compares them byte for byte
// with the committed ones. On failure, run the commands in
// scripts/trl_fixtures.py's doc comment and review the diff.
func TestCommittedTRLFixturesMatchGenerator(t *testing.T) {
	committed := filepath.Join("..", "..", "cmd", "testdata", "trl")
	dir := t.TempDir()
	if err := writeTRLFixtures(filepath.Join(committed, "fixtures.json"), dir); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		n++
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if got, err := os.ReadFile(filepath.Join(committed, rel)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the committed file differs from what gentrainers writes (%v)", rel, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 54 {
		t.Errorf("%d tables written, want 54", n)
	}
}
