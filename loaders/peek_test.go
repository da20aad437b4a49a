package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPeekReadsEachFileOnce: Peek opens a file's text once to find its
// format, read its first trajectory and its columns (the columns read on
// from the text the load read), gzipped or not, its format told by name
// or content; a Parquet file's text is not opened (read where its footer
// and pages are). Only a first record longer than what Peek keeps
// (MaxStdinPeek) has its columns read of a second opening.
func TestPeekReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	csvText := "step,prompt,acc\n1,p,1.0\n2,q,0.0\n"
	jsonlText := `{"step": 1, "prompt": "p", "acc": 1.0}` + "\n" + `{"step": 2, "prompt": "q", "acc": 0.0}` + "\n"
	tableText := `{"columns": ["step", "prompt", "acc"], "data": [[1, "p", 1.0], [2, "q", 0.0]]}`
	long := `{"step": 1, "prompt": "` + strings.Repeat("p", MaxStdinPeek) + `", "acc": 1.0}` + "\n"
	columns := []string{"step", "prompt", "acc"}
	for _, tc := range []struct {
		name     string
		data     []byte
		columns  []string
		readings int64
	}{
		{"t.csv", []byte(csvText), columns, 1},
		{"t.csv.gz", gzipped(csvText), columns, 1},
		{"t.txt", []byte(csvText), columns, 1}, // by content
		{"t.jsonl", []byte(jsonlText), columns, 1},
		{"t.jsonl.gz", gzipped(jsonlText), columns, 1},
		{"t", []byte(jsonlText), columns, 1},
		{"t.json", []byte("[" + strings.ReplaceAll(strings.TrimSpace(jsonlText), "\n", ",") + "]"), columns, 1},
		{"t.table.json", []byte(tableText), columns, 1},
		{"t.parquet", parquetOfIDs(t, "a", "b"), []string{"id", "a"}, 0},
		{"long.jsonl", []byte(long), columns, 2},
	} {
		path := writeFile(t, dir, tc.name, tc.data)
		readings, _ := countTextReadings(t)
		got, err := Peek([]string{path}, Options{})
		if err != nil || len(got) != 1 || !slices.Equal(got[0].Columns, tc.columns) {
			t.Errorf("%s: got %v, %v; want columns %q", tc.name, got, err, tc.columns)
		}
		if readings.Load() != tc.readings {
			t.Errorf("%s: %d readings of its text, want %d", tc.name, readings.Load(), tc.readings)
		}
	}
}

// TestPeekFormatByAnyName: a format given by an alias or in another case
// is the format Load takes: Peek reads its columns and names it by its
// own name.
func TestPeekFormatByAnyName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(path, []byte(`{"step": 1, "prompt": "p", "acc": 1.0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Peek([]string{path}, Options{Format: JSONL})
	if err != nil || len(want) != 1 || len(want[0].Columns) == 0 {
		t.Fatalf("Peek as jsonl: %v, %+v", err, want)
	}
	for _, name := range []Format{"ndjson", "JSONL"} {
		got, err := Peek([]string{path}, Options{Format: name})
		if err != nil || len(got) != 1 {
			t.Fatalf("Peek as %s: %v, %+v", name, err, got)
		}
		if !slices.Equal(got[0].Columns, want[0].Columns) || got[0].Format != JSONL {
			t.Errorf("Peek as %s: columns %q, format %q; want %q, %q", name, got[0].Columns, got[0].Format, want[0].Columns, JSONL)
		}
	}
}
