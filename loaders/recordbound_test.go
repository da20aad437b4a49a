package loaders

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// longLineInput is three JSONL records, the second a line of n bytes
// (spaces inside the object: valid JSON, as a gzip bomb of spaces would
// be), without holding it: it is generated as it is read.
func longLineInput(n int) io.Reader {
	return io.MultiReader(
		strings.NewReader(`{"id":"a","metadata":{"x":1}}`+"\n"+`{"id":"b",`),
		io.LimitReader(spaces{}, int64(n)),
		strings.NewReader(`"metadata":{"x":2}}`+"\n"+`{"id":"c","metadata":{"x":3}}`+"\n"),
	)
}

type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestMaxRecordBytes: a JSONL line longer than the bound is an error at
// its line, found as it is read; with SkipInvalid it is skipped and
// counted and the lines after it are read (issue 16).
func TestMaxRecordBytes(t *testing.T) {
	_, err := Read(longLineInput(4<<20), "bomb.jsonl", 0, Options{MaxRecordBytes: 1 << 20})
	if err == nil || err.Error() != "bomb.jsonl:2: record longer than 1 MiB" {
		t.Errorf("error %v, want bomb.jsonl:2: record longer than 1 MiB", err)
	}
	res, err := Read(longLineInput(4<<20), "bomb.jsonl", 0, Options{MaxRecordBytes: 1 << 20, SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range res.Trajectories {
		got = append(got, tr.ID)
	}
	if !slices.Equal(got, []string{"a", "c"}) || res.Skipped != 1 || res.Trajectories[1].Line != 3 {
		t.Errorf("skipping: %v, skipped %d, line of c %d", got, res.Skipped, res.Trajectories[1].Line)
	}
	// Under the bound, the same line is read.
	res, err = Read(longLineInput(1<<20), "ok.jsonl", 0, Options{MaxRecordBytes: 4 << 20})
	if err != nil || len(res.Trajectories) != 3 {
		t.Errorf("under the bound: %v, %d trajectories", err, len(res.Trajectories))
	}
}

// TestMaxRecordBytesJSONAndCSV: a JSON array element or a CSV row longer
// than the bound (spaces or a quoted field of 64 MiB, made as they are
// read, as a gzip bomb would) ends the reading at its line, without
// holding it, even when skipping: the decoders cannot resume within it.
// The same records under the bound are read.
func TestMaxRecordBytesJSONAndCSV(t *testing.T) {
	jsonInput := func(n int) io.Reader {
		return io.MultiReader(
			strings.NewReader("[\n"+`{"id":"a","metadata":{"x":1}},`+"\n"+`{"id":"b",`),
			io.LimitReader(spaces{}, int64(n)),
			strings.NewReader(`"metadata":{"x":2}}]`+"\n"),
		)
	}
	csvInput := func(n int) io.Reader {
		return io.MultiReader(
			strings.NewReader("id,note\na,x\nb,\""),
			io.LimitReader(spaces{}, int64(n)),
			strings.NewReader("\"\nc,y\n"),
		)
	}
	// A row whose first field is quoted and cut by the bound: the reader
	// places none of its fields (it was a panic), and a header so.
	csvFirstQuoted := func(n int) io.Reader {
		return io.MultiReader(
			strings.NewReader("id,note\n\"a\nb\",x\n\""),
			io.LimitReader(spaces{}, int64(n)),
			strings.NewReader("\",z\nc,y\n"),
		)
	}
	csvHeader := func(n int) io.Reader {
		return io.MultiReader(
			strings.NewReader("\""),
			io.LimitReader(spaces{}, int64(n)),
			strings.NewReader("\",note\na,x\n"),
		)
	}
	for _, c := range []struct {
		name  string
		input func(int) io.Reader
		want  string
		n     int // trajectories under the bound
	}{
		{"bomb.json", jsonInput, "bomb.json:3: record longer than 1 MiB", 2},
		{"bomb.csv", csvInput, "bomb.csv:3: record longer than 1 MiB", 3},
		{"first.csv", csvFirstQuoted, "first.csv:4: record longer than 1 MiB", 3},
		{"header.csv", csvHeader, "header.csv:1: record longer than 1 MiB", 1},
	} {
		for _, skip := range []bool{false, true} {
			_, err := Read(c.input(64<<20), c.name, 0, Options{MaxRecordBytes: 1 << 20, SkipInvalid: skip})
			if err == nil || err.Error() != c.want {
				t.Errorf("%s (skip %v): error %v, want %s", c.name, skip, err, c.want)
			}
		}
		res, err := Read(c.input(1<<20), c.name, 0, Options{MaxRecordBytes: 4 << 20})
		if err != nil || len(res.Trajectories) != c.n {
			t.Errorf("%s under the bound: %v, %d trajectories, want %d", c.name, err, len(res.Trajectories), c.n)
		}
	}
}

// TestMaxRows reads two files with a cap below, at and above their
// trajectories, with Load and Stream: the first ones in input order, the
// result Capped only when some were left unread.
func TestMaxRows(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", []byte(idLines("a", 5)))
	b := writeFile(t, dir, "b.jsonl", []byte(idLines("b", 5)))
	for _, c := range []struct {
		max    int
		want   []string
		capped bool
	}{
		{3, ids("a", 3), true},
		{7, append(ids("a", 5), ids("b", 2)...), true},
		{10, append(ids("a", 5), ids("b", 5)...), false},
		{0, append(ids("a", 5), ids("b", 5)...), false},
	} {
		res, err := Load([]string{a, b}, Options{MaxRows: c.max})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tr := range res.Trajectories {
			got = append(got, tr.ID)
			if tr.Metadata["a"] == nil {
				t.Fatalf("max %d: %s lost its metadata", c.max, tr.ID)
			}
		}
		if !slices.Equal(got, c.want) || res.Capped != c.capped {
			t.Errorf("Load, max %d: %v, capped %v; want %v, %v", c.max, got, res.Capped, c.want, c.capped)
		}
		got = nil
		res, err = Stream([]string{a, b}, Options{MaxRows: c.max}, func(ts []scoring.Trajectory) error {
			for _, tr := range ts {
				got = append(got, tr.ID)
			}
			return nil
		})
		if err != nil || !slices.Equal(got, c.want) || res.Capped != c.capped {
			t.Errorf("Stream, max %d: %v, capped %v, %v; want %v, %v", c.max, got, res.Capped, err, c.want, c.capped)
		}
	}
}

// TestMaxRowsTellsTheCutGroup: a reading that MaxRows stops tells whether
// the first row not read has the batch and group of the last read (the
// cap cut that group) or not, in each format, from a file, standard input
// and across two files; read whole, it is not capped.
func TestMaxRowsTellsTheCutGroup(t *testing.T) {
	// Step 0: a a b b; step 1: b b.
	rows := []flatRow{{Batch: 0, Group: "a"}, {Batch: 0, Group: "a"}, {Batch: 0, Group: "b"}, {Batch: 0, Group: "b"}, {Batch: 1, Group: "b"}, {Batch: 1, Group: "b"}}
	var jsonl, csv strings.Builder
	csv.WriteString("batch,group\n")
	for _, r := range rows {
		fmt.Fprintf(&jsonl, `{"batch":%d,"group":%q}`+"\n", r.Batch, r.Group)
		fmt.Fprintf(&csv, "%d,%s\n", r.Batch, r.Group)
	}
	array := "[" + strings.Join(strings.Split(strings.TrimSpace(jsonl.String()), "\n"), ",") + "]"
	dir := t.TempDir()
	inputs := map[Format]string{
		"jsonl":   writeFile(t, dir, "run.jsonl", []byte(jsonl.String())),
		"json":    writeFile(t, dir, "run.json", []byte(array)),
		"csv":     writeFile(t, dir, "run.csv", []byte(csv.String())),
		"parquet": writeParquet(t, "run.parquet", rows, parquet.MaxRowsPerRowGroup(3)),
	}
	want := map[int]scoring.RowCap{
		1: scoring.CappedInGroup, 2: scoring.CappedBetweenGroups, 3: scoring.CappedInGroup,
		4: scoring.CappedBetweenGroups, 5: scoring.CappedInGroup, 6: scoring.Uncapped,
	}
	for format, path := range inputs {
		for max, w := range want {
			res, err := Load([]string{path}, Options{MaxRows: max})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.RowCap(); got != w {
				t.Errorf("%s, max %d: RowCap %d, want %d", format, max, got, w)
			}
			res, err = Stream([]string{"-"}, Options{MaxRows: max, Format: format, Stdin: strings.NewReader(readText(t, path))}, func([]scoring.Trajectory) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if got := res.RowCap(); got != w {
				t.Errorf("%s on standard input, max %d: RowCap %d, want %d", format, max, got, w)
			}
		}
	}
	// Two files: the second's first row continues the first's last group,
	// or starts another.
	first := writeFile(t, dir, "0.jsonl", []byte(`{"batch":0,"group":"a"}`+"\n"))
	for next, w := range map[string]scoring.RowCap{"a": scoring.CappedInGroup, "b": scoring.CappedBetweenGroups} {
		second := writeFile(t, dir, "1-"+next+".jsonl", []byte(fmt.Sprintf(`{"batch":0,"group":%q}`+"\n", next)))
		res, err := Load([]string{first, second}, Options{MaxRows: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.RowCap(); got != w {
			t.Errorf("next file's group %q: RowCap %d, want %d", next, got, w)
		}
	}
	if got := (&Result{Capped: true}).RowCap(); got != scoring.CappedUntold {
		t.Errorf("a Result made capped: RowCap %d, want CappedUntold", got)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCappedWarningSaysTheCut: the warning of a capped reading says what
// RowCap tells: the group cut, named; the groups whole; or, untold (a
// Result made capped, or CappedInGroup with sources), that the last group
// may lack members.
func TestCappedWarningSaysTheCut(t *testing.T) {
	// Step 0: a a b b.
	path := writeFile(t, t.TempDir(), "run.jsonl", []byte(`{"batch":0,"group":"a"}
{"batch":0,"group":"a"}
{"batch":0,"group":"b"}
{"batch":0,"group":"b"}
`))
	const read = "read only the first %d %s (--max-rows); the rest of the input was not read"
	for _, c := range []struct {
		max     int
		sources bool
		want    string
	}{
		{1, false, fmt.Sprintf(read, 1, "trajectory") + `, and the cap cut the last group read (step 0, group "a")`},
		{3, false, fmt.Sprintf(read, 3, "trajectories") + `, and the cap cut the last group read (step 0, group "b")`},
		{2, false, fmt.Sprintf(read, 2, "trajectories") + "; the first row not read begins another group: the groups read are whole"},
		{1, true, fmt.Sprintf(read, 1, "trajectory") + ", so the last group read may lack members"},
		{2, true, fmt.Sprintf(read, 2, "trajectories") + "; the first row not read begins another group: the groups read are whole"},
	} {
		res, err := Load([]string{path}, Options{MaxRows: c.max})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.CappedWarning(c.max, c.sources); got != c.want {
			t.Errorf("max %d, sources %v: %q\nwant %q", c.max, c.sources, got, c.want)
		}
	}
	if got, want := (&Result{Capped: true}).CappedWarning(5, false), fmt.Sprintf(read, 5, "trajectories")+", so the last group read may lack members"; got != want {
		t.Errorf("a Result made capped: %q, want %q", got, want)
	}
}

// TestMaxRowsReadsNothingPastTheCap: a malformed record past the cap
// (in the block read ahead) does not fail the reading; one that is the
// row read past the cap leaves it untold whether the cap cut a group;
// one within the cap fails it. So across files, the cap counted over all.
func TestMaxRowsReadsNothingPastTheCap(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "run.jsonl", []byte(`{"group":"a"}
{"group":"a"}
{"group":"a"}
{bad json
`))
	for _, c := range []struct {
		max  int
		want scoring.RowCap
	}{{1, scoring.CappedInGroup}, {2, scoring.CappedInGroup}, {3, scoring.CappedUntold}} {
		res, err := Load([]string{path}, Options{MaxRows: c.max})
		if err != nil {
			t.Fatalf("max %d: %v", c.max, err)
		}
		if len(res.Trajectories) != c.max || res.RowCap() != c.want {
			t.Errorf("max %d: %d trajectories, RowCap %d; want %d, %d", c.max, len(res.Trajectories), res.RowCap(), c.max, c.want)
		}
		n := 0
		res, err = Stream([]string{path}, Options{MaxRows: c.max}, func(ts []scoring.Trajectory) error { n += len(ts); return nil })
		if err != nil || n != c.max || res.RowCap() != c.want {
			t.Errorf("Stream, max %d: %d trajectories, RowCap %d, %v; want %d, %d", c.max, n, res.RowCap(), err, c.max, c.want)
		}
	}
	if _, err := Load([]string{path}, Options{MaxRows: 4}); err == nil || !strings.Contains(err.Error(), "run.jsonl:4:") {
		t.Errorf("max 4, the bad line within the cap: %v, want its error", err)
	}
	// Two rows of a first file, then a second whose line 2 is bad: with
	// a cap of 2, the second file's first row is the one past the cap.
	first := writeFile(t, dir, "0.jsonl", []byte(`{"group":"a"}`+"\n"+`{"group":"a"}`+"\n"))
	second := writeFile(t, dir, "1.jsonl", []byte(`{"group":"b"}`+"\n{bad json\n"))
	res, err := Load([]string{first, second}, Options{MaxRows: 2})
	if err != nil {
		t.Fatalf("two files, max 2: %v", err)
	}
	if len(res.Trajectories) != 2 || res.RowCap() != scoring.CappedBetweenGroups {
		t.Errorf("two files, max 2: %d trajectories, RowCap %d; want 2, %d", len(res.Trajectories), res.RowCap(), scoring.CappedBetweenGroups)
	}
}
