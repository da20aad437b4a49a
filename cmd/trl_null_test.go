package cmd

import (
	"encoding/csv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// trlFirstNone is a table of testdata/trl/first_none (README.md there):
// TRL's completions whose first row has a None reward, written as text.
func trlFirstNone(name string) string {
	return filepath.Join("testdata", "trl", "first_none", name)
}

// TestTRLFirstRowNone checks that a reward column null in the first
// record, as pandas writes TRL's None (NaN), is still a reward in JSONL,
// JSON and W&B tables: every reward function is an objective and the
// rewards reproduce TRL's logged advantage. A column null in every record
// (a reward function that returned None for each) is one too, and the
// read-as line says so.
func TestTRLFirstRowNone(t *testing.T) {
	for _, c := range []struct {
		table string
		// rewards are the objectives, in the read-as line's order.
		rewards []string
		// allNone is what the read-as line says of a column null in
		// every record ("" for nothing).
		allNone string
	}{
		{"accuracy_reward", []string{"accuracy_reward", "format_reward"}, ""},
		{"format_reward", []string{"accuracy_reward", "format_reward"}, ""},
		{"all_none", []string{"accuracy_reward", "format_reward", "code_reward"}, "code_reward null in every record read of "}, // the table's order, which the records' keys keep
	} {
		for _, ext := range []string{".jsonl", ".json", ".table.json"} {
			t.Run(c.table+ext, func(t *testing.T) {
				recs, errOut := computeList(t, "", trlFirstNone(c.table+ext))
				if want := "objectives " + strings.Join(c.rewards, ", ") + ","; !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q: %s", want, errOut)
				}
				if c.allNone != "" && !strings.Contains(errOut, c.allNone) || c.allNone == "" && strings.Contains(errOut, "null in every") {
					t.Errorf("stderr: %s", errOut)
				}
				if strings.Contains(errOut, "warning") {
					t.Errorf("a warning: %s", errOut)
				}
				for i, r := range recs {
					var names []string
					for name := range r.Objectives {
						names = append(names, name)
					}
					slices.Sort(names)
					if !slices.Equal(names, slices.Sorted(slices.Values(c.rewards))) {
						t.Fatalf("record %d: objectives %v, want %v", i, names, c.rewards)
					}
				}
				if n, worst := trlReproduced(t, recs); n != 16 {
					t.Errorf("%d of 16 rows reproduce TRL's advantage (max |diff| %.3g)", n, worst)
				}
			})
		}
	}
}

// TestTRLNoneRewardIsNull checks that a None reward (null in TRL's
// table), which nansum counts 0 in the score, is written null in compute's
// objectives (an empty cell in CSV), not 0, and only there: a reward of 0
// stays 0. The rewards stay TRL's logged advantage (TestTRLCompletions).
func TestTRLNoneRewardIsNull(t *testing.T) {
	data, err := loaders.Load([]string{trlDir}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := computeList(t, "", trlDir)
	out, errOut, code := run(t, "", "compute", "--format", "csv", trlDir)
	if code != 0 {
		t.Fatalf("csv: status %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != len(recs)+1 || len(recs) != len(data.Trajectories) {
		t.Fatalf("%d records, %d CSV rows, %d trajectories: %v", len(recs), len(rows), len(data.Trajectories), err)
	}
	nulls, zeros := 0, 0
	for i, r := range recs {
		for _, name := range []string{"accuracy_reward", "think_format_reward"} {
			in := data.Trajectories[i].Metadata[name]
			got, ok := r.Objectives[name]
			cell := rows[i+1][slices.Index(rows[0], name)]
			switch {
			case !ok:
				t.Fatalf("record %s: no %s", r.ID, name)
			case in == nil && (got != nil || cell != ""):
				t.Errorf("record %s: %s null in the input, %s in JSONL, %q in CSV", r.ID, name, jsonNumber(got), cell)
			case in == nil:
				nulls++
			case got == nil || *got != in.(float64) || cell != strconv.FormatFloat(*got, 'g', -1, 64):
				t.Errorf("record %s: %s %v in the input, %s in JSONL, %q in CSV", r.ID, name, in, jsonNumber(got), cell)
			case *got == 0:
				zeros++
			}
		}
	}
	if nulls != 5 || zeros == 0 {
		t.Errorf("%d null rewards, %d of 0: the sample has 5 nulls and some 0", nulls, zeros)
	}
}

// jsonNumber shows a number of compute's JSONL output, "null" for nil.
func jsonNumber(x *float64) string {
	if x == nil {
		return "null"
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}
