package loaders

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"": "", "json": JSON, "JSON": JSON, "jsonl": JSONL, "ndjson": JSONL, "NDJSON": JSONL, "csv": CSV, "Parquet": Parquet} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseFormat("xml")
	if err == nil || err.Error() != `unknown format "xml" (valid: json, jsonl, ndjson, csv, parquet, wandb-table)` {
		t.Errorf("ParseFormat(xml) error = %v", err)
	}
	_, err = readString("t.jsonl", "{}", Options{Format: "yaml"})
	if err == nil || !strings.Contains(err.Error(), `unknown format "yaml"`) {
		t.Errorf("Read with format yaml: error = %v", err)
	}
}

func TestLineErrorText(t *testing.T) {
	if got := (&LineError{Path: "a.jsonl", Line: 3, Msg: "bad"}).Error(); got != "a.jsonl:3: bad" {
		t.Errorf("got %q", got)
	}
	if got := (&LineError{Path: "a.jsonl", Line: 3, Col: 7, Msg: "bad"}).Error(); got != "a.jsonl:3:7: bad" {
		t.Errorf("got %q", got)
	}
}

// writeFile writes data to name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	return path
}

// gzipped returns s compressed.
func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func TestLoadFormatsAndBatches(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		writeFile(t, dir, "a.jsonl", []byte("{\"id\":\"a0\"}\n{\"id\":\"a1\",\"batch\":7}\n")),
		writeFile(t, dir, "b.JSON", []byte(`[{"id":"b0"}]`)),
		writeFile(t, dir, "c.csv", []byte("id,x\nc0,1\n")),
		writeFile(t, dir, "d.ndjson.gz", gzipped(`{"id":"d0"}`)),
		writeFile(t, dir, "e.json.GZ", gzipped(`[{}]`)),
		writeFile(t, dir, "f.csv.gz", gzipped("x\n2\n")),
		writeFile(t, dir, "g.txt", []byte(" \n[{\"id\":\"g0\"}]")),
		writeFile(t, dir, "h", []byte("\n{\"id\":\"h0\"}")),
		writeFile(t, dir, "i.log", []byte("x,y\n1,2\n")),
		writeFile(t, dir, "j.data", gzipped(`[{"id":"j0"}]`)),
		writeFile(t, dir, "k.jsonl", gzipped(`{"id":"k0"}`)),
		writeFile(t, dir, "l.jsonl.gz", []byte(`{"id":"l0"}`)), // not compressed after all
	}
	res, err := Load(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "a0", src: paths[0], line: 1},
		{id: "a1", batch: 7, src: paths[0], line: 2},
		{id: "b0", batch: 1, src: paths[1], line: 1, element: 1},
		{id: "c0", batch: 2, meta: map[string]any{"x": 1.0}, src: paths[2], line: 2},
		{id: "d0", batch: 3, src: paths[3], line: 1},
		{id: "0", batch: 4, src: paths[4], line: 1, element: 1},
		{id: "0", batch: 5, meta: map[string]any{"x": 2.0}, src: paths[5], line: 2},
		{id: "g0", batch: 6, src: paths[6], line: 2, element: 1},
		{id: "h0", batch: 7, src: paths[7], line: 2},
		{id: "0", batch: 8, meta: map[string]any{"x": 1.0, "y": 2.0}, src: paths[8], line: 2},
		{id: "j0", batch: 9, src: paths[9], line: 1, element: 1},
		{id: "k0", batch: 10, src: paths[10], line: 1},
		{id: "l0", batch: 11, src: paths[11], line: 1},
	})
}

func TestFormatOption(t *testing.T) {
	// The option wins over the extension.
	res, err := readString("t.csv", `{"id":"a"}`, Options{Format: JSONL})
	if err != nil || len(res.Trajectories) != 1 || res.Trajectories[0].ID != "a" {
		t.Errorf("got %v, %v", res, err)
	}
	res, err = readString("t.json", "id\na\n", Options{Format: "CSV"})
	if err != nil || len(res.Trajectories) != 1 || res.Trajectories[0].ID != "a" {
		t.Errorf("got %v, %v", res, err)
	}
	// A .json file holding JSONL is read as an array, and says so.
	_, err = readString("t.json", "{\"id\":\"a\"}\n{\"id\":\"b\"}\n", Options{})
	checkLineError(t, err, "t.json:1:1: expected a JSON array of trajectories, found an object")
}

func TestLoadStdin(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "a.jsonl", []byte(`{"id":"f"}`))
	tests := []struct {
		name  string
		stdin []byte
		opts  Options
		line  int // of the trajectory read from stdin
		// element is its Trajectory.Element.
		element int
	}{
		{"sniffed JSONL", []byte("\n {\"id\":\"s\"}"), Options{}, 2, 0},
		{"sniffed JSON", []byte(` [{"id":"s"}]`), Options{}, 1, 1},
		{"sniffed CSV", []byte("id\ns\n"), Options{}, 2, 0},
		{"gzipped", gzipped("\ufeff{\"id\":\"s\"}"), Options{}, 1, 0},
		{"format given", []byte(`{"id":"s"}`), Options{Format: JSONL}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Stdin = bytes.NewReader(tt.stdin)
			res, err := Load([]string{file, "-"}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkTrajectories(t, res, []want{{id: "f", src: file, line: 1}, {id: "s", batch: 1, src: "<stdin>", line: tt.line, element: tt.element}})
		})
	}

	_, err := Load([]string{"-"}, Options{Stdin: strings.NewReader("{x}")})
	checkLineError(t, err, "<stdin>:1:2: invalid JSON: invalid character 'x' looking for beginning of object key string")

	_, err = Load([]string{"-", file, "-"}, Options{Stdin: strings.NewReader("{}")})
	if err == nil || err.Error() != `standard input ("-") given more than once` {
		t.Errorf("stdin twice: error %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", []byte("{}"))
	missing := filepath.Join(dir, "missing.jsonl")

	_, err := Load([]string{good, missing}, Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: error %v", err)
	}
	empty := t.TempDir()
	writeFile(t, empty, "notes.txt", []byte("{}"))
	_, err = Load([]string{empty}, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), empty+": no input files in the directory") {
		t.Errorf("directory without input files: error %v", err)
	}
	_, err = Load(nil, Options{})
	if err == nil || err.Error() != "no input files" {
		t.Errorf("no paths: error %v", err)
	}
	bad := writeFile(t, dir, "bad.gz", []byte{0x1f, 0x8b, 0})
	_, err = Load([]string{bad}, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("bad gzip header: error %v", err)
	}
	corrupt := gzipped(strings.Repeat("{}\n", 1000))
	corrupt[len(corrupt)-5] ^= 0xff // the checksum
	_, err = Read(bytes.NewReader(corrupt), "c.jsonl.gz", 0, Options{})
	if !errors.Is(err, gzip.ErrChecksum) || !strings.HasPrefix(err.Error(), "c.jsonl.gz:") {
		t.Errorf("corrupt gzip: error %v", err)
	}
}

func TestNoTrajectories(t *testing.T) {
	inputs := map[string]string{
		"empty.jsonl": "", "blank.jsonl": " \n\r\n\t", "empty.json": "", "blank.json": "\n ", "array.json": " [ ] ",
		"empty.csv": "", "header.csv": "id,x\n", "unknown": "", "blank": "\n\n",
	}
	for name, input := range inputs {
		_, err := readString(name, input, Options{})
		if err == nil || err.Error() != "no trajectories in "+name {
			t.Errorf("%s: error %v, want no trajectories in %s", name, err, name)
		}
	}
	_, err := Load([]string{"-"}, Options{Stdin: strings.NewReader("")})
	if err == nil || err.Error() != "no trajectories in <stdin>" {
		t.Errorf("empty stdin: error %v", err)
	}
	// When everything was skipped, the error says why.
	_, err = readString("t.jsonl", "{x}\n[]\n", Options{SkipInvalid: true})
	want := "no trajectories in t.jsonl (2 skipped, the first: t.jsonl:1:2: invalid JSON: invalid character 'x' looking for beginning of object key string)"
	if err == nil || err.Error() != want {
		t.Errorf("all skipped: error %v, want %s", err, want)
	}
}

func TestLoadSkipInvalidAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	var first, second strings.Builder
	for range 70 {
		first.WriteString("{x}\n")
		second.WriteString("[]\n")
	}
	first.WriteString("{}\n")
	second.WriteString("{}\n{}\n")
	a := writeFile(t, dir, "a.jsonl", []byte(first.String()))
	b := writeFile(t, dir, "b.jsonl", []byte(second.String()))
	res, err := Load([]string{a, b}, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "0", src: a, line: 71},
		{id: "0", batch: 1, src: b, line: 71},
		{id: "1", batch: 1, src: b, line: 72},
	})
	if res.Skipped != 140 || len(res.SkipReasons) != 100 {
		t.Fatalf("Skipped %d with %d reasons, want 140 with 100", res.Skipped, len(res.SkipReasons))
	}
	if r := res.SkipReasons[70]; r.Path != b || r.Line != 1 {
		t.Errorf("reason 70 is %v, want one from line 1 of %s", r, b)
	}
}

func TestLoadLeavesFilesAlone(t *testing.T) {
	dir := t.TempDir()
	data := []byte("{\"metadata\":{\"x\":NaN}}\r\n")
	path := writeFile(t, dir, "a.jsonl", data)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load([]string{path}, Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, data) || !after.ModTime().Equal(before.ModTime()) || after.Mode() != before.Mode() {
		t.Errorf("the input changed")
	}
}

func TestLoadReportsProgressOverAllInputs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	lineA := `{"metadata":{"x":1}}` + "\n"
	lineB := `{"metadata":{"x":22}}` + "\n" + `{"metadata":{"x":3}}` + "\n"
	if err := os.WriteFile(a, []byte(lineA), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(lineB), 0o644); err != nil {
		t.Fatal(err)
	}
	var last, lastTotal int64
	calls := 0
	_, err := Load([]string{a, b}, Options{Progress: func(done, total int64) {
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		last, lastTotal = done, total
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := int64(len(lineA) + len(lineB))
	if calls == 0 || last != want || lastTotal != want {
		t.Errorf("progress ended at %d of %d after %d calls, want %d of %d", last, lastTotal, calls, want, want)
	}
}
