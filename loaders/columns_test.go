package loaders

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPeekTextColumns: Peek gives a CSV file's header and a JSONL file's
// or JSON array's first record's keys in their order (pandas keeps a DataFrame's), gzipped
// or not and from standard input alike; the columns of ints are those
// whose numbers are written without a fraction where others write one
// (1.0), none where the writer drops it; a JSONL record with a metadata
// object has no column order.
func TestPeekTextColumns(t *testing.T) {
	dir := t.TempDir()
	csvText := ",step,prompt,completion,acc,num_tokens,sim,advantage\n0,1,p,c,1.0,235,0.5,0.25\n1,1,p,d,0.0,17,,-0.25\n"
	jsonlText := `{"step": 1, "prompt": "p", "completion": "c", "acc": 1.0, "num_tokens": 235, "sim": 0.5, "advantage": 0.25}` + "\n" +
		`{"step": 1, "prompt": "p", "completion": "d", "acc": 0.0, "num_tokens": 17, "sim": null, "advantage": -0.25}` + "\n"
	columns := []string{"step", "prompt", "completion", "acc", "num_tokens", "sim", "advantage"}
	for _, tc := range []struct {
		name, text string
		integers   []string
	}{
		{"t.csv", csvText, []string{"step", "num_tokens"}},
		{"t.csv.gz", string(gzipped(csvText)), []string{"step", "num_tokens"}},
		{"t.jsonl", jsonlText, []string{"step", "num_tokens"}},
		{"t.json", "[" + strings.ReplaceAll(strings.TrimSpace(jsonlText), "\n", ",") + "]", []string{"step", "num_tokens"}},
		{"go.jsonl", `{"step": 1, "prompt": "p", "completion": "c", "acc": 1, "num_tokens": 235, "sim": 0.5, "advantage": 0.25}` + "\n", nil},
	} {
		path := writeFile(t, dir, tc.name, []byte(tc.text))
		got, err := Peek([]string{path}, Options{})
		if err != nil || len(got) != 1 || !slices.Equal(got[0].Columns, columns) || !slices.Equal(got[0].Integers, tc.integers) {
			t.Errorf("%s: got %+v, %v; want columns %q, integers %q", tc.name, got, err, columns, tc.integers)
		}
	}
	ff, _ := PeekStdin(Options{Stdin: strings.NewReader(csvText)}, 4)
	if ff == nil || !slices.Equal(ff.Columns, columns) {
		t.Errorf("standard input: got %+v; want columns %q", ff, columns)
	}
	nested := writeFile(t, dir, "nested.jsonl", []byte(`{"prompt": "p", "metadata": {"acc": 1.0}, "sim": 0.5}`+"\n"))
	if got, err := Peek([]string{nested}, Options{}); err != nil || len(got) != 1 || got[0].Columns != nil {
		t.Errorf("%s: got %+v, %v; want no columns", filepath.Base(nested), got, err)
	}
}

// TestPeekTextColumnsOfTheFirstFile: of several CSV or JSONL files, the
// first told of has its columns, the others none (their first rows are
// not read again for an order no layout reads).
func TestPeekTextColumnsOfTheFirstFile(t *testing.T) {
	dir := t.TempDir()
	text := `{"step": 1, "prompt": "p", "completion": "c", "acc": 1.0}` + "\n"
	paths := []string{writeFile(t, dir, "a.jsonl", []byte(text)), writeFile(t, dir, "b.jsonl", []byte(text))}
	got, err := Peek(paths, Options{})
	if err != nil || len(got) != 2 || !slices.Equal(got[0].Columns, []string{"step", "prompt", "completion", "acc"}) || got[1].Columns != nil {
		t.Errorf("got %+v, %v; want the first file's columns alone", got, err)
	}
}
