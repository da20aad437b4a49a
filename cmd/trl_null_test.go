package cmd

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		{"all_none", []string{"accuracy_reward", "code_reward", "format_reward"}, "code_reward null in each of the 16 records read of "},
	} {
		for _, ext := range []string{".jsonl", ".json", ".table.json"} {
			t.Run(c.table+ext, func(t *testing.T) {
				recs, errOut := computeList(t, "", trlFirstNone(c.table+ext))
				rewards := c.rewards
				if ext == ".table.json" && c.table == "all_none" {
					rewards = []string{"accuracy_reward", "format_reward", "code_reward"} // the table's order
				}
				if want := "objectives " + strings.Join(rewards, ", ") + ","; !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q: %s", want, errOut)
				}
				if c.allNone != "" && !strings.Contains(errOut, c.allNone) || c.allNone == "" && strings.Contains(errOut, "null in each") {
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
					if !slices.Equal(names, c.rewards) {
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
