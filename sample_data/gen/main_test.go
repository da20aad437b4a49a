package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// committed is the sample_data directory, seen from this package.
const committed = ".."

// TestCommittedFilesMatchGenerator regenerates everything into a temporary
// directory and compares it byte for byte with the committed files, so that
// the data and its generator cannot drift apart. On failure, run
// "go run ./sample_data/gen" from the module root and review the diff.
func TestCommittedFilesMatchGenerator(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	generated := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		generated[filepath.ToSlash(rel)] = true
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(committed, rel))
		if err != nil {
			t.Errorf("%s: generated but not committed: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: committed file differs from the generator's output (%d vs %d bytes); regenerate with go run ./sample_data/gen", rel, len(got), len(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"experiment.jsonl", "experiment.toml", "examples/absolute.jsonl",
		"examples/grpo.jsonl", "examples/svrl.jsonl", "examples/pareto.jsonl", "examples/factory.toml"} {
		if !generated[name] {
			t.Errorf("%s: not generated", name)
		}
	}

	// Every file of examples/ is generated, but the hand-written README.
	entries, err := os.ReadDir(filepath.Join(committed, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := "examples/" + e.Name(); !generated[name] && e.Name() != "README.md" {
			t.Errorf("%s: committed but not generated (stale?)", name)
		}
	}
}

// TestDeterministic checks that two runs write the same bytes.
func TestDeterministic(t *testing.T) {
	a, b := experimentJSONL(), experimentJSONL()
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of the generator differ")
	}
}
