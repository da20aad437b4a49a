package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestIsInputName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.jsonl": true, "a.ndjson": true, "a.json": true, "a.csv": true, "a.parquet": true,
		"A.JSONL": true, "a.jsonl.gz": true, "a.csv.GZ": true, "a.json.gz": true, "a.ndjson.gz": true,
		"a.parquet.gz": false, "a.gz": false, "a.txt": false, "jsonl": false, "a.jsonl.bak": false, "a.tsv": false,
	} {
		if got := isInputName(name); got != want {
			t.Errorf("isInputName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestExpand checks the order (natural, not lexical), that other files and
// subdirectories are left out, and that files, "-" and missing paths are
// kept where they stand.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"step_10.jsonl", "step_9.csv", "step_1.json.gz", "step_2.ndjson", "step_11.parquet", "notes.txt", "README.md"} {
		writeFile(t, dir, name, []byte("{}"))
	}
	if err := os.Mkdir(filepath.Join(dir, "step_0.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "step_0.jsonl"), "inner.jsonl", []byte("{}"))
	got, err := Expand([]string{"first.jsonl", dir, "-", "missing.csv"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"first.jsonl"}
	for _, name := range []string{"step_1.json.gz", "step_2.ndjson", "step_9.csv", "step_10.jsonl", "step_11.parquet"} {
		want = append(want, filepath.Join(dir, name))
	}
	want = append(want, "-", "missing.csv")
	if !slices.Equal(got, want) {
		t.Errorf("Expand:\n got %q\nwant %q", got, want)
	}
}

func TestExpandEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "notes.txt", []byte("{}"))
	_, err := Expand([]string{dir})
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "no input files") {
		t.Errorf("empty directory: error %v, want one naming %s", err, dir)
	}
}

// TestLoadDirectoryMixedFormats loads a directory of JSONL, CSV, gzipped
// JSON and NDJSON files: each file is a batch, its index among the
// expanded inputs, in natural order, unless its rows carry a batch; a file
// given after the directory takes the next index.
func TestLoadDirectoryMixedFormats(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "step_10.jsonl", []byte(`{"id":"j","metadata":{"acc":1}}`+"\n"))
	writeFile(t, dir, "step_9.csv", []byte("id,acc\nc,0.5\n"))
	writeFile(t, dir, "step_1.json.gz", gzipped(`[{"id":"g","metadata":{"acc":0}}]`))
	writeFile(t, dir, "step_2.ndjson", []byte(`{"id":"n","batch":77}`+"\n"))
	after := writeFile(t, t.TempDir(), "after.jsonl", []byte(`{"id":"a"}`+"\n"))
	res, err := Load([]string{dir, after}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "g", batch: 0, meta: map[string]any{"acc": 0.0}, src: filepath.Join(dir, "step_1.json.gz"), line: 1, element: 1},
		{id: "n", batch: 77, src: filepath.Join(dir, "step_2.ndjson"), line: 1},
		{id: "c", batch: 2, meta: map[string]any{"acc": 0.5}, src: filepath.Join(dir, "step_9.csv"), line: 2},
		{id: "j", batch: 3, meta: map[string]any{"acc": 1.0}, src: filepath.Join(dir, "step_10.jsonl"), line: 1},
		{id: "a", batch: 4, src: after, line: 1},
	})
}

// TestLoadDirectoryErrorNamesTheFile: a bad file in a directory is reported
// with its own path and line.
func TestLoadDirectoryErrorNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.jsonl", []byte("{}\n"))
	bad := writeFile(t, dir, "b.jsonl", []byte("{}\n{\n"))
	_, err := Load([]string{dir}, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), bad+":2:") {
		t.Errorf("error %v, want one at %s:2", err, bad)
	}
}
