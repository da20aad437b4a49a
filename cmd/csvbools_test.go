package cmd

import (
	"path/filepath"
	"testing"
)

// TestCSVBoolsAsJSON: a CSV cell True or False (pandas' to_csv, Python's
// csv) is the bool JSON's true or false is: compute, stats and prompts
// give the same on the sample verl dumps saved by pandas as CSV as on the
// JSONL, and on a small table with its bools written either way.
func TestCSVBoolsAsJSON(t *testing.T) {
	pandasCSV := filepath.Join("testdata", "verl", "pandas_csv")
	bools := filepath.Join("testdata", "csvbools")
	for _, c := range []struct {
		name      string
		args      []string
		csv, json string
	}{
		{"verl compute", []string{"compute"}, pandasCSV, verlDir},
		{"verl stats", []string{"stats"}, pandasCSV, verlDir},
		{"verl stats health", []string{"stats", "--health"}, pandasCSV, verlDir},
		{"verl prompts", []string{"prompts"}, pandasCSV, verlDir},
		{"acc as objective", []string{"compute", "--method", "grpo", "--objective", "acc=acc"}, filepath.Join(bools, "bools.csv"), filepath.Join(bools, "bools.jsonl")},
		{"acc in an expression", []string{"compute", "--method", "grpo", "--objective", "acc=acc ? 2 : len"}, filepath.Join(bools, "bools.csv"), filepath.Join(bools, "bools.jsonl")},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "", append(c.args, c.csv)...)
			wantOut, wantErr, wantCode := run(t, "", append(c.args, c.json)...)
			if wantCode != 0 {
				t.Fatalf("JSON: status %d: %s", wantCode, wantErr)
			}
			if code != wantCode || out != wantOut || errOut != wantErr {
				t.Errorf("CSV: status %d, stdout\n%s\nstderr\n%s\nwant status %d, stdout\n%s\nstderr\n%s", code, out, errOut, wantCode, wantOut, wantErr)
			}
		})
	}
}
