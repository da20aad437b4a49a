package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNaturalCompare(t *testing.T) {
	// Sorted: each name before the next.
	sorted := []string{
		"", "0", "1", "01", "001", "2", "9", "10", "99999999999999999999999", "100000000000000000000000",
		"B", "a", "a1", "a2", "a10", "a10b", "a10c", "a11", "ab",
		"step_1.jsonl", "step_2.csv", "step_2_part_1", "step_2_part_10", "step_9.jsonl",
		"step_10.jsonl", "step_10.jsonl.gz", "step_10_part_2", "step_100.parquet",
	}
	for i := range sorted {
		for j := range sorted {
			if got := NaturalCompare(sorted[i], sorted[j]); (got < 0) != (i < j) || (got == 0) != (i == j) {
				t.Errorf("NaturalCompare(%q, %q) = %d", sorted[i], sorted[j], got)
			}
		}
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, NaturalCompare)
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("sorted: %q, want %q", shuffled, sorted)
	}
}

// TestNaturalCompareIsAnOrder checks antisymmetry and transitivity over
// every triple of a set of tricky names, so that sorting is well defined.
func TestNaturalCompareIsAnOrder(t *testing.T) {
	names := []string{"", "0", "00", "1", "01", "10", "a", "a0", "a00", "a1", "a01", "a1b", "a01b", "b", "B", "a-1", "a_1", "9z", "09z"}
	sign := func(x int) int { return min(max(x, -1), 1) }
	for _, a := range names {
		for _, b := range names {
			if sign(NaturalCompare(a, b)) != -sign(NaturalCompare(b, a)) {
				t.Errorf("not antisymmetric on %q, %q", a, b)
			}
			if a != b && NaturalCompare(a, b) == 0 {
				t.Errorf("%q and %q compare equal", a, b)
			}
			for _, c := range names {
				if NaturalCompare(a, b) < 0 && NaturalCompare(b, c) < 0 && NaturalCompare(a, c) >= 0 {
					t.Errorf("not transitive: %q < %q < %q but not %q < %q", a, b, c, a, c)
				}
			}
		}
	}
}

func TestIsInputName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.jsonl": true, "a.ndjson": true, "a.json": true, "a.csv": true, "a.parquet": true,
		"A.JSONL": true, "a.jsonl.gz": true, "a.csv.GZ": true, "a.json.gz": true, "a.ndjson.gz": true,
		"a.parquet.gz": false, "a.gz": false, "a.txt": false, "jsonl": false, "a.jsonl.bak": false, "a.tsv": false,
	} {
		if got := IsInputName(name); got != want {
			t.Errorf("IsInputName(%q) = %v, want %v", name, got, want)
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
		{id: "g", batch: 0, meta: map[string]any{"acc": 0.0}, src: filepath.Join(dir, "step_1.json.gz"), line: 1},
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
