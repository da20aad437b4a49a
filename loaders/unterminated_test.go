package loaders

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnterminatedCSV: Load names a CSV file whose last row has no line
// end and is read as complete, at the line the row starts; not one that
// ends with a line end, a JSONL file, nor the newest file
// of a directory whose last row was left out as unfinished.
func TestUnterminatedCSV(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct {
		name, text string
		line       int // 0: not named
	}{
		{"cut.csv", "id,x\na,1\nb,1000", 3},
		{"quoted.csv", "id,x\na,1\n\"b\nc\",2", 3},
		{"ended.csv", "id,x\na,1\nb,1000\n", 0},
		{"lines.jsonl", `{"id":"a"}`, 0},
	} {
		path := write(c.name, c.text)
		res, err := Load([]string{path}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var want []Unterminated
		if c.line > 0 {
			want = []Unterminated{{path, c.line}}
		}
		if !slices.Equal(res.Unterminated, want) {
			t.Errorf("%s: %v, want %v", c.name, res.Unterminated, want)
		}
	}
	sub := filepath.Join(dir, "run")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write("run/1.csv", "id,x\na,1\n")
	write("run/2.csv", "id,x\nb,2\nc")
	res, err := Load([]string{sub}, Options{})
	if err != nil || len(res.Unfinished) != 1 || len(res.Unterminated) != 0 || len(res.Trajectories) != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	want := "2.csv:3: the last row has no line end: read as complete; a file still being written may have its last value cut"
	if got := (Unterminated{"2.csv", 3}).String(); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestUnterminatedCSVStream: standard input, which cannot be looked at
// again once read, names a CSV whose last row has no line end as a file
// does, found as it is read: at the line the row starts, and not when it
// ends with a line end, is JSONL, or is gzipped (a file is not checked
// then either).
func TestUnterminatedCSVStream(t *testing.T) {
	var gzipped bytes.Buffer
	zw := gzip.NewWriter(&gzipped)
	zw.Write([]byte("id,x\na,1\nb,1000"))
	zw.Close()
	for _, c := range []struct {
		name, text string
		line       int // 0: not named
	}{
		{"cut", "id,x\na,1\nb,1000", 3},
		{"quoted", "id,x\na,1\n\"b\nc\",2", 3},
		{"quoted last", "id,x\na,\"1\n2\"", 2},
		{"ended", "id,x\na,1\nb,1000\n", 0},
		{"jsonl", `{"id":"a"}`, 0},
		{"gzipped", gzipped.String(), 0},
	} {
		res, err := Load([]string{"-"}, Options{Stdin: strings.NewReader(c.text)})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var want []Unterminated
		if c.line > 0 {
			want = []Unterminated{{"<stdin>", c.line}}
		}
		if !slices.Equal(res.Unterminated, want) {
			t.Errorf("%s: %v, want %v", c.name, res.Unterminated, want)
		}
	}
}
