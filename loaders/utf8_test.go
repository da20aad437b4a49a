package loaders

import (
	"strings"
	"testing"
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
