package loaders

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestFieldsEveryFormat sets group, batch and ID by expression in each
// format, and names the place of a record they fail on.
func TestFieldsEveryFormat(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"a.jsonl": `{"prompt":"p","step":3,"metadata":{"x":1}}` + "\n" + `{"prompt":"q","step":4,"metadata":{"x":2}}` + "\n",
		"b.json":  `[{"prompt":"p","step":3},` + "\n" + `{"prompt":"q","step":4}]`,
		"c.csv":   "prompt,step\np,3\nq,4\n",
	}
	for name, text := range files {
		path := writeFile(t, dir, name, []byte(text))
		res, err := Load([]string{path}, Options{Fields: fields})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ts := res.Trajectories
		if len(ts) != 2 || ts[0].Group != "p" || ts[0].Batch != 3 || ts[0].ID != "3:0" || ts[1].Group != "q" || ts[1].Batch != 4 || ts[1].ID != "4:1" {
			t.Errorf("%s: %+v", name, ts)
		}
		if ts[0].Pick != nil {
			t.Errorf("%s: picked with record fields", name)
		}
	}
	// TRL's Parquet fixture: group = prompt, batch = step (int64).
	res, err := Load([]string{filepath.Join("..", "sample_data", "trl", "completions")}, Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	if ts := res.Trajectories; len(ts) != 36 || ts[0].Batch != 1 || ts[35].Batch != 3 || !strings.Contains(ts[0].Group, "Solve x + 3 = 5.") {
		t.Errorf("TRL completions: %d trajectories, the first %+v", len(ts), ts[0])
	}

	bad := map[string]string{
		"a.jsonl": `{"prompt":"p","step":3}` + "\n" + `{"step":4}` + "\n",
		"b.json":  "[{\"prompt\":\"p\",\"step\":3},\n{\"prompt\":null,\"step\":4}]",
		"c.csv":   "prompt,step\np,3\n,4\n",
	}
	for name, text := range bad {
		path := writeFile(t, t.TempDir(), name, []byte(text))
		_, err := Load([]string{path}, Options{Fields: fields})
		want := path + `:2: group_by "prompt": missing`
		if name == "c.csv" {
			want = path + `:3: group_by "prompt": missing` // the header is line 1
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		res, err := Load([]string{path}, Options{Fields: fields, SkipInvalid: true})
		if err != nil || len(res.Trajectories) != 1 || res.Skipped != 1 {
			t.Errorf("%s skipping: %v, %+v", name, err, res)
		}
	}
}

// TestPeek checks what Peek tells of the trainers' fixtures.
func TestPeek(t *testing.T) {
	files, err := Peek([]string{filepath.Join("..", "sample_data", "verl"), filepath.Join("..", "sample_data", "trl", "completions")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Fatalf("%d files", len(files))
	}
	verl, trl := files[0], files[3]
	if !slices.Equal(verl.Names, []string{"acc", "format", "gts", "input", "output", "pred", "score", "step"}) || verl.Group != "" {
		t.Errorf("verl: %+v", verl)
	}
	// Parquet's float columns, whatever the first row holds.
	if !slices.Equal(trl.Floats, []string{"accuracy_reward", "advantage", "think_format_reward"}) ||
		!slices.Equal(trl.Names, []string{"accuracy_reward", "advantage", "completion", "prompt", "step", "think_format_reward"}) {
		t.Errorf("trl: %+v", trl)
	}
	// The other formats tell the nulls of the first record, which Parquet's
	// schema types.
	dir := t.TempDir()
	jsonl := writeFile(t, dir, "nulls.jsonl", []byte(`{"a":null,"b":1,"c":"x","d":null}`+"\n"))
	table := writeFile(t, dir, "nulls.table.json", []byte(`{"columns":["a","b","d"],"data":[[null,1,null]]}`))
	for _, path := range []string{jsonl, table} {
		if files, err := Peek([]string{path}, Options{}); err != nil || !slices.Equal(files[0].Nulls, []string{"a", "d"}) || !slices.Equal(files[0].Floats, []string{"b"}) {
			t.Errorf("Peek(%s): %v, %+v", path, err, files)
		}
	}
	var pq bytes.Buffer
	if err := parquet.Write(&pq, []struct {
		A *float64 `parquet:"a,optional"`
	}{{}}); err != nil {
		t.Fatal(err)
	}
	parquetNulls := writeFile(t, dir, "nulls.parquet", pq.Bytes())
	if files, err := Peek([]string{parquetNulls}, Options{}); err != nil || files[0].Nulls != nil || !slices.Equal(files[0].Floats, []string{"a"}) {
		t.Errorf("Peek(parquet): %v, %+v", err, files)
	}
	if _, err := Peek([]string{filepath.Join(t.TempDir(), "none.jsonl")}, Options{}); err == nil {
		t.Error("a missing file: no error")
	}
	// Only a JSONL file's first record is read: blank lines before it
	// count, what follows it does not.
	good := writeFile(t, dir, "good.jsonl", []byte("\n\n{\"input\":\"q\",\"score\":1}\nnot JSON\n"))
	bad := writeFile(t, dir, "bad.jsonl", []byte("\n\n{\"input\":\"q\",\n"))
	if files, err := Peek([]string{good}, Options{}); err != nil || !slices.Equal(files[0].Names, []string{"input", "score"}) {
		t.Errorf("Peek(good): %v, %+v", err, files)
	}
	if _, err := Peek([]string{bad}, Options{}); err == nil || !strings.HasPrefix(err.Error(), bad+":3:") {
		t.Errorf("Peek(bad): %v, want an error at line 3", err)
	}
}

// TestRereadFields reads a trajectory loaded with record fields again.
func TestRereadFields(t *testing.T) {
	fields, err := scoring.NewRecordFields("input", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Load([]string{filepath.Join("..", "sample_data", "verl", "2.jsonl")}, Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	lean := res.Trajectories[5]
	if !lean.DropBody() {
		t.Fatal("not droppable")
	}
	got, err := Reread(&lean, fields.Clone())
	if err != nil || got.Group != res.Trajectories[5].Group || got.ID != "2:5" || got.Metadata["score"] == nil {
		t.Errorf("Reread: %v, %+v", err, got)
	}
	if _, err := Reread(&lean, nil); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Errorf("Reread without the fields: %v", err)
	}
}

// TestFollowFields follows a verl-like dump as it grows and as a new step's
// file appears: the record fields apply to every line, the first reading's
// and those appended, and a line they fail on is reported, not kept.
func TestFollowFields(t *testing.T) {
	fields, err := scoring.NewRecordFields("input", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := writeFile(t, dir, "1.jsonl", []byte(`{"input":"p","step":1,"score":1}`+"\n"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := followOptions(false)
	opts.Fields = fields
	res, ch, err := Follow(ctx, []string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if ts := res.Trajectories; len(ts) != 1 || ts[0].Group != "p" || ts[0].Batch != 1 || ts[0].ID != "1:0" {
		t.Fatalf("first reading: %+v", res.Trajectories)
	}
	testfile.Append(t, path, `{"input":"q","step":1,"score":0}`+"\n"+`{"step":1,"score":0}`+"\n")
	writeFile(t, dir, "2.jsonl", []byte(`{"input":"p","step":2,"score":1}`+"\n"))
	var got []scoring.Trajectory
	var errs []string
	deadline := time.After(10 * time.Second)
	for len(got) < 2 || len(errs) < 1 {
		select {
		case u := <-ch:
			got = append(got, u.Trajectories...)
			if u.Err() != nil {
				errs = append(errs, u.Err().Error())
			}
		case <-deadline:
			t.Fatalf("updates: %+v, errors %q", got, errs)
		}
	}
	slices.SortFunc(got, func(a, b scoring.Trajectory) int { return strings.Compare(a.ID, b.ID) })
	if len(got) != 2 || got[0].ID != "1:1" || got[0].Group != "q" || got[1].ID != "2:0" || got[1].Batch != 2 {
		t.Errorf("updates: %+v", got)
	}
	if !strings.Contains(strings.Join(errs, "\n"), path+`:3: group_by "input": missing`) {
		t.Errorf("errors %q", errs)
	}
}

// TestRereadBatchByEveryFormat: records without an id, batched by an
// expression over a batch of their own, loaded from JSONL, a JSON array
// and CSV, are named BATCH:POSITION and read again as they were loaded,
// not taken for changed.
func TestRereadBatchByEveryFormat(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"run.jsonl": `{"batch":7,"group":"g","response":"a","metadata":{"step":3}}` + "\n" + `{"batch":7,"group":"g","response":"b","metadata":{"step":3}}` + "\n",
		"run.json":  `[{"batch":7,"group":"g","response":"a","metadata":{"step":3}}, {"batch":7,"group":"g","response":"b","metadata":{"step":3}}]`,
		"run.csv":   "batch,group,response,step\n7,g,a,3\n7,g,b,3\n",
	}
	fields, err := scoring.NewRecordFields("", "metadata.step", "")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Load([]string{path}, Options{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		lean := res.Trajectories[1]
		if !lean.DropBody() {
			t.Fatalf("%s: not droppable", name)
		}
		got, err := Reread(&lean, fields.Clone())
		if err != nil || got.ID != "3:1" || got.Batch != 3 || got.ResponseText() != "b" {
			t.Errorf("%s: Reread: %v, id %q batch %d response %q", name, err, got.ID, got.Batch, got.ResponseText())
		}
	}
}

// TestRereader reads trajectories of two files again with one Rereader,
// back and forth between the files, as Reread reads each; a record that
// changed is still an error, and the next one is read.
func TestRereader(t *testing.T) {
	fields, err := scoring.NewRecordFields("input", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "sample_data", "verl")
	res, err := Load([]string{filepath.Join(dir, "1.jsonl"), filepath.Join(dir, "2.jsonl")}, Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRereader(fields.Clone())
	defer r.Close()
	n := len(res.Trajectories)
	for _, i := range []int{0, n - 1, 1, n - 2, 5} {
		lean := res.Trajectories[i]
		lean.DropBody()
		got, err := r.Reread(&lean)
		want, werr := Reread(&lean, fields.Clone())
		if err != nil || werr != nil || !reflect.DeepEqual(got, want) || got.Metadata["output"] != res.Trajectories[i].Metadata["output"] {
			t.Errorf("trajectory %d: %v %+v, Reread: %v %+v", i, err, got, werr, want)
		}
	}
	moved := res.Trajectories[3]
	moved.DropBody()
	moved.Offset = res.Trajectories[4].Offset
	if _, err := r.Reread(&moved); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Errorf("another record at its offset: %v", err)
	}
	if _, err := r.Reread(&res.Trajectories[2]); err != nil {
		t.Errorf("after an error: %v", err)
	}
}

// TestPeekStdin: PeekStdin tells the first record's fields of standard
// input, read a byte at a time, and gives it back whole; an empty or bad
// standard input tells nothing and is given back as it was.
func TestPeekStdin(t *testing.T) {
	for _, c := range []struct {
		text  string
		names []string
	}{
		{"\n{\"input\":\"q\",\"score\":1}\n{\"input\":\"r\",\"score\":2}\n", []string{"input", "score"}},
		{"input,score\nq,1\nr,2\n", []string{"input", "score"}},
		{"", nil},
		{"{\"input\":\n", nil},
	} {
		ff, whole := PeekStdin(Options{Stdin: iotest.OneByteReader(strings.NewReader(c.text))}, 1)
		if got, err := io.ReadAll(whole); err != nil || string(got) != c.text {
			t.Errorf("%q given back as %q, %v", c.text, got, err)
		}
		if c.names == nil && ff != nil || c.names != nil && (ff == nil || !slices.Equal(ff.Names, c.names) || ff.Path != "-") {
			t.Errorf("%q: fields %+v, want names %q", c.text, ff, c.names)
		}
	}
}

// TestPeekStdinRecords: PeekStdin keeps standard input's first n records
// (fewer when it ends before them), and a W&B table's columns, or a
// JSONL record's keys, in their order, and gives standard input back whole.
func TestPeekStdinRecords(t *testing.T) {
	for _, c := range []struct {
		text    string
		n       int
		records int
		columns []string
	}{
		{"{\"score\":1,\"step\":1}\n{\"score\":2,\"step\":1}\n{\"score\":3,\"step\":2}\n", 2, 2, []string{"score", "step"}},
		{"{\"step\":1,\"score\":1}\n", 5, 1, []string{"step", "score"}},
		{`{"columns": ["step", "prompt", "zeta", "alpha"], "data": [[1, "p", 0.5, 1], [1, "p", 0.25, 0], [2, "q", 1, 1]]}`, 1024, 3, []string{"step", "prompt", "zeta", "alpha"}},
	} {
		ff, whole := PeekStdin(Options{Stdin: iotest.OneByteReader(strings.NewReader(c.text))}, c.n)
		if got, err := io.ReadAll(whole); err != nil || string(got) != c.text {
			t.Errorf("%q given back as %q, %v", c.text, got, err)
		}
		if ff == nil || len(ff.Records) != c.records || !slices.Equal(ff.Columns, c.columns) {
			t.Errorf("%q, %d records: fields %+v, want %d records, columns %q", c.text, c.n, ff, c.records, c.columns)
			continue
		}
		if last := ff.Records[len(ff.Records)-1].Metadata["score"]; !strings.HasPrefix(c.text, `{"columns"`) && last != float64(c.records) {
			t.Errorf("%q: the last record kept has score %v", c.text, last)
		}
	}
}

// TestPeekStdinPastItsBound: standard input whose first records take
// more than PeekStdin's bound gives the records whose lines end within
// it, not none (the record the bound cut failed the reading of those
// before it), and the reader after it gives standard input whole.
func TestPeekStdinPastItsBound(t *testing.T) {
	var b strings.Builder
	long := strings.Repeat("x", 20000)
	for i := range 1100 {
		fmt.Fprintf(&b, `{"step":1,"prompt":"p%d","completion":"%s","accuracy_reward":1,"advantage":0}`+"\n", i/8, long)
	}
	want := strings.Count(b.String()[:MaxStdinPeek], "\n") // the lines that end within the bound
	ff, whole := PeekStdin(Options{Stdin: strings.NewReader(b.String())}, 1024)
	if ff == nil || len(ff.Records) != want {
		got := 0
		if ff != nil {
			got = len(ff.Records)
		}
		t.Fatalf("%d records of standard input's first %d bytes, want the %d whose lines end there", got, MaxStdinPeek, want)
	}
	if all, err := io.ReadAll(whole); err != nil || string(all) != b.String() {
		t.Errorf("standard input after the peek: %d bytes (err %v), want its %d", len(all), err, b.Len())
	}
}
