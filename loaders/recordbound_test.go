package loaders

import (
	"github.com/rewardlens/rewardlens/engine/scoring"

	"io"
	"slices"
	"strings"
	"testing"
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
