package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComputeOnDirectory reads a directory: its files in natural order,
// each a batch, and --out may not overwrite one of them.
func TestComputeOnDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"step_10.jsonl": `{"id":"ten","metadata":{"accuracy":1}}` + "\n",
		"step_9.jsonl":  `{"id":"nine","metadata":{"accuracy":0}}` + "\n",
		"step_2.csv":    "id,accuracy\ntwo,0.5\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs := computeRecords(t, dir)
	for id, batch := range map[string]int64{"two": 0, "nine": 1, "ten": 2} {
		if recs[id].Batch != batch {
			t.Errorf("%s: batch %d, want %d", id, recs[id].Batch, batch)
		}
	}
	in := filepath.Join(dir, "step_9.jsonl")
	if _, errOut, code := run(t, "", "compute", "--out", in, dir); code != 2 || !strings.Contains(errOut, "is an input") {
		t.Errorf("writing over a file of the directory: status %d, stderr %q", code, errOut)
	}
	empty := t.TempDir()
	if _, errOut, code := run(t, "", "compute", empty); code != 2 || !strings.Contains(errOut, empty) {
		t.Errorf("a directory without inputs: status %d, stderr %q", code, errOut)
	}
}
