package loaders

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestTextNotUTF8 checks that every text format rejects a string that is
// not UTF-8 at its place, and skips its record with SkipInvalid: read as
// U+FFFD, the two groups written in Latin-1 ("caf\xe9", "caf\xe8") would
// be one.
func TestTextNotUTF8(t *testing.T) {
	const bad = "invalid UTF-8: byte 0xe9 is not UTF-8 text"
	tests := []struct {
		name, path, text string
		want             string // the error's start
		rows             int    // the trajectories read with SkipInvalid; -1: none, an error either way
	}{
		{"JSONL in Latin-1", "testdata/utf8/latin1.jsonl", "", "testdata/utf8/latin1.jsonl:1:37: " + bad, -1},
		{"CSV in Latin-1", "testdata/utf8/latin1.csv", "", "testdata/utf8/latin1.csv:2:3: " + bad, -1},
		{"CSV header", "t.csv", "id,gr\xe9,acc\na,b,1\n", "t.csv:1:4: " + bad, -1},
		{"CSV unnamed column", "t.csv", "id,,acc\na,caf\xe9,1\nb,x,0\n", "t.csv:2:3: " + bad, 1},
		{"JSON array", "t.json", "[{\"id\":\"a\"},\n {\"group\":\"caf\xe9\"}]", "t.json:2:15: " + bad, 1},
		{"W&B table row", "t.table.json", `{"_type":"table","columns":["id","group"],"data":[["a","x"],["b","caf` + "\xe9" + `"]]}`, "t.table.json:2: " + bad, 1},
		{"W&B table columns", "t.table.json", `{"_type":"table","columns":["id","gr` + "\xe9" + `"],"data":[["a","x"]]}`, `t.table.json:1:28: a W&B table's "columns": ` + bad, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, skip := range []bool{false, true} {
				var res *Result
				var err error
				if tt.text == "" {
					res, err = Load([]string{tt.path}, Options{SkipInvalid: skip})
				} else {
					res, err = Read(strings.NewReader(tt.text), tt.path, 0, Options{SkipInvalid: skip})
				}
				if tt.rows < 0 && skip {
					if err == nil {
						t.Fatal("skipping: read, without an error")
					}
					continue
				}
				if !skip {
					if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
						t.Fatalf("skip %v: error %v, want %q...", skip, err, tt.want)
					}
					continue
				}
				if err != nil {
					t.Fatalf("skipping: %v", err)
				}
				if len(res.Trajectories) != tt.rows || res.Skipped == 0 {
					t.Errorf("skipping: %d trajectories, %d skipped; want %d read and the rest skipped", len(res.Trajectories), res.Skipped, tt.rows)
				}
			}
		})
	}
}

// utf8Row has a text field column, a text metadata column, a response and
// a metadata map, each of which may hold text that is not UTF-8.
type utf8Row struct {
	ID       string            `parquet:"id"`
	Group    string            `parquet:"group"`
	Response string            `parquet:"response"`
	Tag      string            `parquet:"tag"`
	Score    float64           `parquet:"score"`
	Metadata map[string]string `parquet:"metadata"`
}

// utf8StructRow has its metadata as a struct, which can be picked.
type utf8StructRow struct {
	ID       string `parquet:"id"`
	Metadata struct {
		Accuracy float64 `parquet:"accuracy"`
		Model    string  `parquet:"model"`
	} `parquet:"metadata"`
}

// TestParquetNotUTF8 checks that a Parquet text value that is not UTF-8,
// in a field's column, a metadata column, a response not picked, a map's
// key or value or a struct's member, is its row's error naming the row and
// the column, as the text formats' is (TestTextNotUTF8), skipped with
// SkipInvalid: never read as it is, nor as U+FFFD. Read with the metadata
// picked (Stream with a Pick), the struct's rows are checked alike.
func TestParquetNotUTF8(t *testing.T) {
	const bad = "invalid UTF-8: byte 0xe9 is not UTF-8 text"
	good := func(id string) utf8Row {
		return utf8Row{ID: id, Group: "g", Response: "r", Tag: "t", Score: 1, Metadata: map[string]string{"k": "v"}}
	}
	tests := []struct {
		name string
		set  func(r *utf8Row)
		want string // after PATH:2:
	}{
		{"group", func(r *utf8Row) { r.Group = "caf\xe9" }, "column group, byte 4: " + bad},
		{"metadata column", func(r *utf8Row) { r.Tag = "\xe9t\xe9" }, "column tag, byte 1: " + bad},
		{"response", func(r *utf8Row) { r.Response = "ok caf\xe9" }, "column response, byte 7: " + bad},
		{"map key", func(r *utf8Row) { r.Metadata = map[string]string{"caf\xe9": "v"} }, "column metadata.key_value.key, byte 4: " + bad},
		{"map value", func(r *utf8Row) { r.Metadata = map[string]string{"k": "caf\xe9"} }, "column metadata.key_value.value, byte 4: " + bad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := []utf8Row{good("a"), good("b"), good("c")}
			tt.set(&rows[1])
			path := writeParquet(t, "t.parquet", rows)
			checkNotUTF8(t, path, path+":2: "+tt.want, nil)
		})
	}

	structs := make([]utf8StructRow, 3)
	for i := range structs {
		structs[i].ID, structs[i].Metadata.Model = fmt.Sprint("s", i), "m"
	}
	structs[1].Metadata.Model = "caf\xe9"
	path := writeParquet(t, "struct.parquet", structs)
	for _, pick := range []*scoring.Pick{nil, {Keys: []string{"accuracy"}}} {
		checkNotUTF8(t, path, path+":2: column metadata.model, byte 4: "+bad, pick)
	}
}

// checkNotUTF8 reads the Parquet file path, whose second row of three is
// not UTF-8, with the metadata picked by pick (nil: none): its error
// starts with want; skipping, the other two rows are read.
func checkNotUTF8(t *testing.T, path, want string, pick *scoring.Pick) {
	t.Helper()
	for _, skip := range []bool{false, true} {
		opts := Options{SkipInvalid: skip}
		if pick != nil {
			opts.Pick = func(*scoring.Trajectory) *scoring.Pick { return pick }
		}
		var ids []string
		res, err := Stream([]string{path}, opts, func(ts []scoring.Trajectory) error {
			for _, tr := range ts {
				ids = append(ids, tr.ID)
			}
			return nil
		})
		if !skip {
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("pick %v: error %v, want %q...", pick, err, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("pick %v, skipping: %v", pick, err)
		}
		if len(ids) != 2 || res.Skipped != 1 || !strings.HasPrefix(res.SkipReasons[0].Error(), want) {
			t.Errorf("pick %v, skipping: read %v, %d skipped (%v); want the first and the last, the second skipped", pick, ids, res.Skipped, res.SkipReasons)
		}
	}
	// With --max-rows, rows are read one by one (not in blocks).
	_, err := Load([]string{path}, Options{MaxRows: 3})
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("row by row: error %v, want %q...", err, want)
	}
}
