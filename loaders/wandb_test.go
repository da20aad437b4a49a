package loaders

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// The W&B tables of testdata/wandb hold TRL's completions of one logging
// step as wandb stores them (scripts/wandb_table.py): the run's file
// {"columns", "data"} and an artifact's entry with "_type": "table",
// "ncols", "nrows" and "column_types".
var (
	wandbRunTable      = filepath.Join("testdata", "wandb", "completions_3_62c7c8b697133048f6ec.table.json")
	wandbArtifactTable = filepath.Join("testdata", "wandb", "artifact", "completions.table.json")
)

// TestWandbTable reads both forms: each row a record, the columns its
// fields, rows numbered from 1, NaN read as the number; a row is read
// again alone.
func TestWandbTable(t *testing.T) {
	for _, path := range []string{wandbRunTable, wandbArtifactTable} {
		res, err := Load([]string{path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Trajectories) != 8 {
			t.Fatalf("%s: %d trajectories, want 8", path, len(res.Trajectories))
		}
		first := res.Trajectories[0]
		m := first.Metadata
		if first.ID != "0" || first.Line != 1 || first.Format != string(WandBTable) || m["step"] != 3.0 || m["prompt"] != "What is 6 * 7?" ||
			m["completion"] != "<think>6 * 7 = 42</think>42" || m["accuracy_reward"] != 1.0 || m["think_format_reward"] != 1.0 ||
			m["advantage"] != 0.8658754229545593 || len(m) != 6 {
			t.Errorf("%s: first row %s", path, brief(first))
		}
		seventh := res.Trajectories[6]
		if acc, ok := seventh.Metadata["accuracy_reward"].(float64); !ok || !math.IsNaN(acc) || seventh.Line != 7 {
			t.Errorf("%s: row 7 (accuracy NaN): %s", path, brief(seventh))
		}
		for i := range res.Trajectories {
			tr := &res.Trajectories[i]
			again, err := Reread(tr, nil)
			if err != nil {
				t.Fatalf("%s: Reread row %d: %v", path, i+1, err)
			}
			if brief(again) != brief(*tr) {
				t.Errorf("%s: row %d read again:\n got %s\nwant %s", path, i+1, brief(again), brief(*tr))
			}
		}
	}
}

// TestWandbTableDetection checks that a W&B table is told by its name
// (.table.json, over .json) and by its content, and that a JSONL record
// or a JSON file is not taken for one.
func TestWandbTableDetection(t *testing.T) {
	for name, want := range map[string]Format{
		"completions_3_ab.table.json": WandBTable, "x.table.json.gz": WandBTable, "x.json": JSON,
		"table.jsonl": JSONL, "x.table.jsonl": JSONL, "x.parquet": Parquet,
	} {
		gz := strings.HasSuffix(name, ".gz")
		if got := formatByName(strings.TrimSuffix(name, ".gz"), gz); got != want {
			t.Errorf("formatByName(%q) = %q, want %q", name, got, want)
		}
		if !isInputName(name) {
			t.Errorf("isInputName(%q) = false", name)
		}
	}
	run, err := os.ReadFile(wandbRunTable)
	if err != nil {
		t.Fatal(err)
	}
	artifact, err := os.ReadFile(wandbArtifactTable)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{
		string(run): true, string(artifact): true,
		` {"columns": [1, "b"], "data": []}`:                          true,
		`{"_type": "table-file", "path": "media/table/x.table.json"}`: false, // the reader's error says what it is
		`{"columns": ["a"], "x": 1}`:                                  false,
		`{"columns": "a", "data": []}`:                                false,
		`{"columns": [{"a": 1}], "data": []}`:                         false,
		`{"id": "a", "columns": [], "data": []}`:                      false,
		`{"_type": "image-file"}`:                                     false,
		`{"columns": ["a"]`:                                           false,
		`[{"columns": ["a"], "data": []}]`:                            false,
	} {
		if got := jsonread.IsWandbTable([]byte(text)); got != want {
			t.Errorf("isWandbTable(%.60q) = %v, want %v", text, got, want)
		}
	}
	// Standard input, or a name without a known extension: by content.
	res, err := Read(bytes.NewReader(run), "-", 0, Options{})
	if err != nil || len(res.Trajectories) != 8 {
		t.Fatalf("the run's table on standard input: %v", err)
	}
	res, err = Read(strings.NewReader(`{"columns": ["a"], "data": [[1]]}`+"\n"), "-", 0, Options{})
	if err != nil || len(res.Trajectories) != 1 || res.Trajectories[0].Metadata["a"] != 1.0 {
		t.Fatalf("a one-line table: %v", err)
	}
	// --input-format jsonl reads the same text as one record.
	res, err = Read(strings.NewReader(`{"columns": ["a"], "data": [[1]]}`), "-", 0, Options{Format: JSONL})
	if err != nil || len(res.Trajectories) != 1 || res.Trajectories[0].Metadata["columns"] != `["a"]` {
		t.Fatalf("--input-format jsonl: %v %v", err, res)
	}
	// A .json file holding a table says what it is.
	_, err = readString("completions.json", `{"columns": ["a"], "data": [[1]]}`, Options{})
	checkLineError(t, err, "completions.json:1:1: expected a JSON array of trajectories, found a W&B table: name it *.table.json or give --input-format wandb-table")
	// With --input-format json, the advice fits how the name would choose:
	// a table's name or none (the content chooses) drops the flag.
	for name, want := range map[string]string{
		"completions.table.json":    "drop --input-format json or give --input-format wandb-table",
		"completions.table.json.gz": "drop --input-format json or give --input-format wandb-table",
		"completions.txt":           "drop --input-format json or give --input-format wandb-table",
		"completions.json":          "give --input-format wandb-table, not json",
	} {
		_, err = readString(name, `{"columns": ["a"], "data": [[1]]}`, Options{Format: JSON})
		checkLineError(t, err, name+":1:1: expected a JSON array of trajectories, found a W&B table: "+want)
	}
	if f, err := ParseFormat("wandb-table"); err != nil || f != WandBTable {
		t.Errorf("ParseFormat(wandb-table) = %q, %v", f, err)
	}
}

// TestWandbTableRows checks the records of rows: integer column names, the
// rewardlens fields (id, batch, group) taken as such, cells of any JSON
// type, and an empty table.
func TestWandbTableRows(t *testing.T) {
	runReadCases(t, "t.table.json", []readCase{
		{"fields", `{"columns": ["id", "batch", "group", "score", 7], "data": [["a", 2, "g", 0.5, "x"], ["b", 2, "g", null, {"k": 1}]]}`, []want{
			{id: "a", batch: 2, group: "g", meta: map[string]any{"score": 0.5, "7": "x"}, src: "t.table.json", line: 1},
			{id: "b", batch: 2, group: "g", meta: map[string]any{"score": nil, "7": `{"k": 1}`}, src: "t.table.json", line: 2},
		}},
		{"other keys", `{"_type": "table", "ncols": 1, "columns": ["x"], "nrows": 1, "data": [[Infinity]], "column_types": {"wb_type": "typedDict"}}`, []want{
			{id: "0", meta: map[string]any{"x": math.Inf(1)}, src: "t.table.json", line: 1},
		}},
	})
	res, err := readString("t.table.json", `{"columns": ["x"], "data": []}`, Options{})
	if err == nil || err.Error() != "no trajectories in t.table.json" {
		t.Errorf("an empty table: %v, %v", res, err)
	}
}

// TestWandbTableErrors checks the errors, each at its place: the text's
// line and column for the table's shape, the row for a row.
func TestWandbTableErrors(t *testing.T) {
	runErrorCases(t, "t.table.json", []errorCase{
		{"not an object", `[1]`, "t.table.json:1:1: expected a W&B table, a JSON object with columns and data"},
		{"data first", `{"data": [[1]], "columns": ["a"]}`, `t.table.json:1:8: a W&B table's "data" before its "columns": the rows cannot be named`},
		{"no data", `{"columns": ["a"]}`, `t.table.json:1:18: not a W&B table: it needs "columns" and "data"`},
		{"twice", `{"columns": ["a"], "columns": ["b"], "data": []}`, `t.table.json:1:29: a W&B table with "columns" twice`},
		{"column twice", `{"columns": ["a", "a"], "data": [[1, 2]]}`, `t.table.json:1:13: W&B table column "a" given twice`},
		{"bad column", `{"columns": ["a", 1.5], "data": [[1, 2]]}`, `t.table.json:1:13: W&B table column 2: a name is a string or an integer, found 1.5`},
		{"table-file", `{"_type": "table-file", "columns": ["a"], "data": []}`, `t.table.json:1:11: a W&B "table-file" reference holds no rows: read the .table.json file its "path" names`},
		{"other type", `{"_type": "image-file", "columns": ["a"], "data": []}`, `t.table.json:1:11: not a W&B table: "_type" is "image-file"`},
		{"data not a list", `{"columns": ["a"], "data": {"x": 1}}`, `t.table.json:1:29: a W&B table's "data" must be a list of rows`},
		{"short row", `{"columns": ["a", "b"], "data": [[1, 2], [3]]}`, "t.table.json:2: a W&B table row of 1 cells, the table has 2 columns"},
		{"row not a list", `{"columns": ["a"], "data": [[1], "x"]}`, `t.table.json:2: a W&B table row must be a list of cells, found "x"`},
		{"bad field", `{"columns": ["batch"], "data": [[1.5]]}`, "t.table.json:1: batch: must be an integer, found 1.5"},
		{"syntax", "{\"columns\": [\"a\"],\n \"data\": [[1,]]}", "t.table.json:2:14: invalid JSON: invalid character ']' looking for beginning of value"},
		{"after", `{"columns": ["a"], "data": [[1]]} {}`, "t.table.json:1:35: invalid JSON: data after the W&B table"},
		{"closing after", `{"columns": ["a"], "data": [[1]]}}`, "t.table.json:1:34: invalid JSON: invalid character '}' looking for beginning of value"},
		{"cut", `{"columns": ["a"], "data": [[1]`, "t.table.json:1:32: invalid JSON: unexpected end of input"},
		{"cut after its columns", `{"columns": ["a"]`, "t.table.json:1:18: invalid JSON: unexpected end of input"},
	})
	// With SkipInvalid, a bad row is skipped and counted; the rest read.
	res, err := readString("t.table.json", `{"columns": ["a", "b"], "data": [[1, 2], [3], [4, 5]]}`, Options{SkipInvalid: true})
	if err != nil || len(res.Trajectories) != 2 || res.Skipped != 1 || res.Trajectories[1].Line != 3 {
		t.Fatalf("SkipInvalid: %v, %v", res, err)
	}
	// A row longer than MaxRecordBytes ends the reading at its row.
	_, err = readString("t.table.json", `{"columns": ["a"], "data": [[1], ["`+strings.Repeat("x", 300<<10)+`"]]}`, Options{MaxRecordBytes: 1 << 10})
	if err == nil || !strings.HasPrefix(err.Error(), "t.table.json:2: ") {
		t.Errorf("a long row: %v", err)
	}
}

// FuzzWandbTable reads arbitrary W&B tables strictly and with SkipInvalid
// (checkBothModes): never a panic, every error placed.
func FuzzWandbTable(f *testing.F) {
	for _, s := range []string{
		`{"columns": ["step", "prompt", "completion", "r", "advantage"], "data": [[3, "p", "c", 1.0, 0.5], [3, "p", "d", NaN, -0.5]]}`,
		`{"_type": "table", "columns": ["id", 7], "data": [["a", {"x": [1]}]], "ncols": 2, "nrows": 1, "column_types": {}}`,
		`{"columns": ["a", "a"], "data": []}`,
		`{"data": [[1]], "columns": ["a"]}`,
		`{"columns": ["a", "b"], "data": [[1, 2], [3], "x", [4, 5]]}`,
		"\ufeff{\"columns\": [\"batch\"], \"data\": [[1.5], [2]]}",
		`{"_type": "table-file", "path": "media/table/x.table.json"}`,
		`{"columns": [], "data": [[]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBothModes(t, "fuzz.table.json", data, WandBTable)
	})
}

// TestPeekWandbColumns: Peek gives a W&B table's columns in the table's
// order, in both of wandb's forms, and none for JSONL.
func TestPeekWandbColumns(t *testing.T) {
	want := []string{"step", "prompt", "completion", "accuracy_reward", "think_format_reward", "length", "parsed_answer", "advantage"}
	dir := filepath.Join("testdata", "wandb")
	got, err := Peek([]string{filepath.Join(dir, "log_extra")}, Options{})
	if err != nil || len(got) != 1 || !slices.Equal(got[0].Columns, want) {
		t.Fatalf("got %+v, %v; want columns %q", got, err, want)
	}
	got, err = Peek([]string{filepath.Join(dir, "artifact", "completions.table.json")}, Options{})
	if want := slices.Delete(slices.Clone(want), 5, 7); err != nil || len(got) != 1 || !slices.Equal(got[0].Columns, want) {
		t.Errorf("artifact: got %+v, %v; want columns %q", got, err, want)
	}
	jsonl := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"columns": ["a"], "data": [[1]]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Peek([]string{jsonl}, Options{Format: JSONL}); err != nil || len(got) != 1 || got[0].Columns != nil || got[0].Format != JSONL {
		t.Errorf("JSONL told: got %+v, %v; want no columns, format jsonl", got, err)
	}
	// A table named .json read as one (--input-format), and a gzipped
	// table: the columns come from the text the table is read from, and
	// Format says how (for the layouts' further reading).
	text, err := os.ReadFile(filepath.Join(dir, "log_extra", "completions_3_740f445ab3a2df12f485.table.json"))
	if err != nil {
		t.Fatal(err)
	}
	named := writeFile(t, t.TempDir(), "wb.json", text)
	gz := writeFile(t, t.TempDir(), "wb.table.json.gz", gzipped(string(text)))
	for path, opts := range map[string]Options{named: {Format: WandBTable}, gz: {}} {
		if got, err := Peek([]string{path}, opts); err != nil || len(got) != 1 || !slices.Equal(got[0].Columns, want) || got[0].Format != WandBTable {
			t.Errorf("%s: got %+v, %v; want columns %q, format wandb-table", path, got, err, want)
		}
	}
}
