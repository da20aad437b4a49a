package loaders

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// writeParquet writes rows with parquet-go to name in a new temporary
// directory and returns its path.
func writeParquet[T any](t *testing.T, name string, rows []T, opts ...parquet.WriterOption) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := parquet.WriteFile(path, rows, opts...); err != nil {
		t.Fatal(err)
	}
	return path
}

// flatRow has the trajectory fields (docs/CONTRACT.md, Trajectories) as
// columns and every other column as
// metadata, as pandas' to_parquet writes a flattened frame.
type flatRow struct {
	ID        string   `parquet:"id"`
	Batch     int64    `parquet:"batch"`
	Group     string   `parquet:"group"`
	StepCount int32    `parquet:"step_count"`
	Response  string   `parquet:"response,optional"`
	Done      bool     `parquet:"done"`
	Accuracy  float64  `parquet:"accuracy"`
	Safety    *float64 `parquet:"safety,optional"`
	Tokens    int32    `parquet:"tokens"`
	Tag       string   `parquet:"tag"`
	Big       uint64   `parquet:"big"`
}

// TestParquetFlat reads a flat file over two row groups: the fields by
// name, the rest as metadata (integers as numbers, a null as null), and
// rows numbered across the row groups.
func TestParquetFlat(t *testing.T) {
	safety := 0.75
	path := writeParquet(t, "flat.parquet", []flatRow{
		{ID: "a", Batch: 3, Group: "p1", StepCount: 4, Response: "The answer is 42.", Done: true, Accuracy: 1, Safety: &safety, Tokens: 412, Tag: "x", Big: 1 << 40},
		{ID: "", Batch: 3, Group: "p1", StepCount: 0, Done: false, Accuracy: 0.5, Tokens: 7, Tag: "", Big: 2},
		{ID: "c", Batch: 4, Group: "p2", Accuracy: 0, Tokens: -1, Tag: "y"},
	}, parquet.MaxRowsPerRowGroup(2))
	res, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "a", batch: 3, group: "p1", steps: 4, resp: `"The answer is 42."`, src: path, line: 1,
			meta: map[string]any{"accuracy": 1.0, "safety": 0.75, "tokens": 412.0, "tag": "x", "big": float64(1 << 40)}},
		{id: "1", batch: 3, group: "p1", notDone: true, src: path, line: 2,
			meta: map[string]any{"accuracy": 0.5, "safety": nil, "tokens": 7.0, "tag": "", "big": 2.0}},
		{id: "c", batch: 4, group: "p2", notDone: true, src: path, line: 3,
			meta: map[string]any{"accuracy": 0.0, "safety": nil, "tokens": -1.0, "tag": "y", "big": 0.0}},
	})
}

type scores struct {
	Accuracy float64  `parquet:"accuracy"`
	Safety   *float64 `parquet:"safety,optional"`
	Model    string   `parquet:"model"`
}

type structRow struct {
	ID       string  `parquet:"id"`
	Metadata *scores `parquet:"metadata,optional"`
	Extra    float64 `parquet:"extra"`
}

type mapRow struct {
	ID       string             `parquet:"id"`
	Batch    int64              `parquet:"batch"`
	Metadata map[string]float64 `parquet:"metadata"`
}

// TestParquetNested reads metadata as a struct column (a null struct is no
// metadata, a null member a null value, a flat column joins it) and as a
// map column (an empty map is no metadata).
func TestParquetNested(t *testing.T) {
	safety := 0.5
	structs := writeParquet(t, "struct.parquet", []structRow{
		{ID: "s0", Metadata: &scores{Accuracy: 1, Safety: &safety, Model: "m"}, Extra: 2},
		{ID: "s1", Metadata: &scores{Accuracy: 0}, Extra: 3},
		{ID: "s2", Extra: 4},
	})
	maps := writeParquet(t, "map.parquet", []mapRow{
		{ID: "m0", Batch: 9, Metadata: map[string]float64{"accuracy": 1, "length": 0.4}},
		{ID: "m1", Batch: 9, Metadata: map[string]float64{}},
		{ID: "m2", Batch: 9, Metadata: map[string]float64{"accuracy": 0.5}},
	})
	res, err := Load([]string{structs, maps}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "s0", src: structs, line: 1, meta: map[string]any{"accuracy": 1.0, "safety": 0.5, "model": "m", "extra": 2.0}},
		{id: "s1", src: structs, line: 2, meta: map[string]any{"accuracy": 0.0, "safety": nil, "model": "", "extra": 3.0}},
		{id: "s2", src: structs, line: 3, meta: map[string]any{"extra": 4.0}},
		{id: "m0", batch: 9, src: maps, line: 1, meta: map[string]any{"accuracy": 1.0, "length": 0.4}},
		{id: "m1", batch: 9, src: maps, line: 2},
		{id: "m2", batch: 9, src: maps, line: 3, meta: map[string]any{"accuracy": 0.5}},
	})
}

type jsonMetaRow struct {
	ID       string  `parquet:"id"`
	Response float64 `parquet:"response"`
	Metadata string  `parquet:"metadata"`
}

// TestParquetJSONMetadata reads a metadata column of JSON text, as CSV
// does, and keeps a numeric response as a JSON number.
func TestParquetJSONMetadata(t *testing.T) {
	path := writeParquet(t, "json.parquet", []jsonMetaRow{{ID: "j", Response: 2.5, Metadata: `{"accuracy": 1, "note": "ok"}`}})
	res, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{{id: "j", resp: "2.5", src: path, line: 1, meta: map[string]any{"accuracy": 1.0, "note": "ok"}}})
}

type badBatchRow struct {
	Batch float64 `parquet:"batch"`
}

type dupRow struct {
	Accuracy float64 `parquet:"accuracy"`
	Metadata scores  `parquet:"metadata"`
}

type listBatchRow struct {
	Batch []int64 `parquet:"batch,list"`
}

type listMetaRow struct {
	Metadata struct {
		Values []float64 `parquet:"values,list"`
	} `parquet:"metadata"`
}

// TestParquetErrors: a bad row is reported as PATH:ROW, and skipped with
// SkipInvalid; a schema the loader cannot read, or a file that is no
// Parquet, is an error naming the file.
func TestParquetErrors(t *testing.T) {
	bad := writeParquet(t, "bad.parquet", []badBatchRow{{Batch: 1}, {Batch: 2.5}, {Batch: 3}})
	_, err := Load([]string{bad}, Options{})
	checkLineError(t, err, bad+`:2: batch: must be an integer, found "2.5"`)
	res, err := Load([]string{bad}, Options{SkipInvalid: true})
	if err != nil || len(res.Trajectories) != 2 || res.Skipped != 1 || res.Trajectories[1].Batch != 3 {
		t.Errorf("skipping: %v, %+v", err, res)
	}

	dup := writeParquet(t, "dup.parquet", []dupRow{{Accuracy: 1}})
	_, err = Load([]string{dup}, Options{})
	checkLineError(t, err, dup+`:1: metadata.accuracy: given both as a column and in the metadata column`)

	for _, tc := range []struct {
		path, msg string
	}{
		{writeParquet(t, "list.parquet", []listBatchRow{{Batch: []int64{1}}}), ": column batch: must be a single value"},
		{writeParquet(t, "listmeta.parquet", []listMetaRow{{}}), ": column metadata: member values: must be a single value"},
		{writeFile(t, t.TempDir(), "text.parquet", []byte("id\nx\n")), ": not a Parquet file"},
	} {
		_, err := Load([]string{tc.path}, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.path+tc.msg) {
			t.Errorf("error %v, want %q", err, tc.path+tc.msg)
		}
	}
}

// TestParquetStream reads Parquet from a stream without a name that says
// so: the magic bytes do.
func TestParquetStream(t *testing.T) {
	var buf bytes.Buffer
	if err := parquet.Write(&buf, []mapRow{{ID: "x", Metadata: map[string]float64{"a": 1}}}); err != nil {
		t.Fatal(err)
	}
	res, err := Load([]string{"-"}, Options{Stdin: &buf})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{{id: "x", src: "<stdin>", line: 1, meta: map[string]any{"a": 1.0}}})
}

type idRow struct {
	ID string  `parquet:"id"`
	A  float64 `parquet:"a"`
}

// TestParquetInDirectory mixes Parquet with JSONL in a directory: the
// Parquet file, second in natural order, is batch 1.
func TestParquetInDirectory(t *testing.T) {
	dir := t.TempDir()
	p := writeParquet(t, "x.parquet", []idRow{{ID: "p", A: 1}})
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "step_10.parquet", data)
	writeFile(t, dir, "step_2.jsonl", []byte(`{"id":"j","metadata":{"a":0}}`+"\n"))
	res, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkTrajectories(t, res, []want{
		{id: "j", batch: 0, src: filepath.Join(dir, "step_2.jsonl"), line: 1, meta: map[string]any{"a": 0.0}},
		{id: "p", batch: 1, src: filepath.Join(dir, "step_10.parquet"), line: 1, meta: map[string]any{"a": 1.0}},
	})
}
