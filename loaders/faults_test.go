package loaders

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// TestBlankRunsLineNumbers: runs of blank lines ("\n", "\r\n", spaces and
// tabs), longer than the read buffer and cut by it anywhere, are skipped
// in bulk (issue 27, item 8) and still counted: each record keeps its
// line number and offset, and an error after them names its line.
func TestBlankRunsLineNumbers(t *testing.T) {
	var b bytes.Buffer
	line := 1
	var wantLines []int
	var wantOffsets []int64
	for i, run := range []string{"\n", " \r\n", "\t\n", "\n\n\n\n\n\n\n\n\n", "  \t \r\n"} {
		for range (input.BufferSize/len(run))*(i+1) + i*7 {
			b.WriteString(run)
			line += strings.Count(run, "\n")
		}
		wantLines = append(wantLines, line)
		wantOffsets = append(wantOffsets, int64(b.Len()))
		b.WriteString(`{"id":"r` + strconv.Itoa(i) + `","metadata":{"a":1}}` + "\n")
		line++
	}
	b.WriteString("\n\n \n{bad\n")
	badLine := line + 3
	_, err := Read(bytes.NewReader(b.Bytes()), "blank.jsonl", 0, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "blank.jsonl:"+strconv.Itoa(badLine)+":") {
		t.Fatalf("got %v, want the error at line %d", err, badLine)
	}
	res, err := Read(bytes.NewReader(b.Bytes()), "blank.jsonl", 0, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range res.Trajectories {
		if tr.Line != wantLines[i] || tr.Offset != wantOffsets[i] {
			t.Errorf("record %d at line %d, offset %d; want %d, %d", i, tr.Line, tr.Offset, wantLines[i], wantOffsets[i])
		}
	}
	if len(res.Trajectories) != len(wantLines) || res.Skipped != 1 {
		t.Errorf("%d records and %d skipped, want %d and 1", len(res.Trajectories), res.Skipped, len(wantLines))
	}
}

// TestLongLinesOwnBlocks: a line longer than the read buffer takes a block
// of its own and its response is not copied (the minor item of issue 27:
// the 256 MiB bound cost 3.6 times the bound); the responses read, by Load
// and by Stream, whose blocks are reused, are each their line's, whatever
// the lines around them.
func TestLongLinesOwnBlocks(t *testing.T) {
	lengths := []int{3, 200 << 10, 5, input.BufferSize, 70 << 10, 1, jsonread.ChunkedLine + 3<<20, 2}
	var b bytes.Buffer
	for i, n := range lengths {
		b.WriteString(`{"id":"` + strconv.Itoa(i) + `","response":"` + strings.Repeat(string(rune('a'+i)), n) + `"}` + "\n")
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(how string, ts []scoring.Trajectory) {
		t.Helper()
		if len(ts) != len(lengths) {
			t.Fatalf("%s: %d trajectories", how, len(ts))
		}
		for i, tr := range ts {
			want := `"` + strings.Repeat(string(rune('a'+i)), lengths[i]) + `"`
			if string(tr.Response) != want {
				t.Errorf("%s: response %d: %d bytes, starting %.10q, want %d of %q", how, i, len(tr.Response), tr.Response, len(want), want[1])
			}
		}
	}
	res, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check("Load", res.Trajectories)
	var kept []scoring.Trajectory
	if _, err := Stream([]string{path}, Options{}, func(ts []scoring.Trajectory) error {
		kept = append(kept, ts...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check("Stream", kept)
}

// TestParquetMaxRowsStops: with MaxRows, a Parquet file is read no
// further than the row past the cap (issue 27, item 4): a bad row 50 of
// 10,000 is never reached with MaxRows 5, where the reading went on to a
// chunk of 8,192 rows and failed on it; without the cap, it fails.
func TestParquetMaxRowsStops(t *testing.T) {
	rows := make([]flatRow, 10000)
	for i := range rows {
		rows[i] = flatRow{ID: "r" + strconv.Itoa(i), Group: "g", Accuracy: 1}
	}
	rows[49].StepCount = -1
	path := writeParquet(t, "many.parquet", rows)
	if _, err := Load([]string{path}, Options{}); err == nil || !strings.Contains(err.Error(), path+":50:") {
		t.Fatalf("without a cap: %v, want the error of row 50", err)
	}
	res, err := Load([]string{path}, Options{MaxRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != 5 || !res.Capped {
		t.Errorf("%d trajectories, capped %v; want 5, capped", len(res.Trajectories), res.Capped)
	}
	files, err := Peek([]string{path}, Options{})
	if err != nil || len(files) != 1 {
		t.Errorf("Peek: %v, %v", files, err)
	}
}

// TestParquetPageBound: a page of more values than parquet-go should
// decode at once (a row bomb: millions of run-length encoded values in a
// few bytes) is an error naming the file, the row group and the column,
// found from the page headers before any page is decoded, by Load and by
// Peek.
func TestParquetPageBound(t *testing.T) {
	rows := make([]flatRow, 1000)
	for i := range rows {
		rows[i] = flatRow{ID: "r", Group: "g"}
	}
	path := writeParquet(t, "bomb.parquet", rows)
	defer func(old int64) { parquetread.MaxPageValues = old }(parquetread.MaxPageValues)
	parquetread.MaxPageValues = 999
	want := path + ": row group 1, column id: a page of 1000 values, more than rewardlens decodes at once (999)"
	if _, err := Load([]string{path}, Options{MaxRows: 1}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load: %v, want %q", err, want)
	}
	if _, err := Peek([]string{path}, Options{}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Peek: %v, want %q", err, want)
	}
	parquetread.MaxPageValues = 1000
	if _, err := Load([]string{path}, Options{}); err != nil {
		t.Errorf("at the bound: %v", err)
	}
}

// TestJSONAfterBlankLines: the blank lines before a JSON array are passed
// before the decoder sees them (issue 27, item 8's sibling): more of them
// than the record bound is no "record too long", and the elements keep
// their lines, offsets (read again by them) and error places.
func TestJSONAfterBlankLines(t *testing.T) {
	text := strings.Repeat("\n", 3000) + " \r\n" + `[{"id":"a","metadata":{"x":1}},` + "\n\n" + `{"id":"b","metadata":{"x":2}}]` + "\n"
	path := filepath.Join(t.TempDir(), "blank.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Load([]string{path}, Options{MaxRecordBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trajectories) != 2 {
		t.Fatalf("%d trajectories", len(res.Trajectories))
	}
	for i, want := range []struct {
		line int
		off  int64
	}{{3002, 3003 + 1}, {3004, int64(strings.Index(text, `{"id":"b"`))}} {
		tr := res.Trajectories[i]
		if tr.Line != want.line || tr.Offset != want.off {
			t.Errorf("trajectory %d at line %d, offset %d; want %d, %d", i, tr.Line, tr.Offset, want.line, want.off)
		}
		again, err := Reread(&tr, nil)
		if err != nil || again.ID != tr.ID {
			t.Errorf("trajectory %d read again: %v, %v", i, again.ID, err)
		}
	}
	bad := strings.Repeat("\n", 5) + "[{\"id\":\"a\"} x]"
	if _, err := Read(strings.NewReader(bad), "bad.json", 0, Options{}); err == nil || !strings.HasPrefix(err.Error(), "bad.json:6:13: ") {
		t.Errorf("got %v, want the error at 6:13", err)
	}
}
