package cmd

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wandbDir holds TRL's completions table of one step as wandb stores it
// (scripts/wandb_table.py): the run's media file and, in artifact/, an
// artifact's entry.
var wandbDir = filepath.Join(repoRoot, "loaders", "testdata", "wandb")

// wandbTable is a W&B table file's JSON.
type wandbTable struct {
	Columns []string `json:"columns"`
	Data    [][]any  `json:"data"`
}

// readWandbTable reads the step-3 table of wandbDir. encoding/json reads
// no NaN: the one cell that holds it is read as null.
func readWandbTable(t *testing.T) wandbTable {
	t.Helper()
	var table wandbTable
	text, err := os.ReadFile(filepath.Join(wandbDir, "completions_3_62c7c8b697133048f6ec.table.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(strings.Replace(string(text), "NaN", "null", 1)), &table); err != nil {
		t.Fatal(err)
	}
	return table
}

// TestWandbTables runs compute --method grpo with no other flag on TRL's
// completions downloaded from W&B, in both forms: the TRL layout
// recognises the table's columns as it does the parquet's, and every
// reward is the advantage TRL logged, to float32 rounding.
func TestWandbTables(t *testing.T) {
	table := readWandbTable(t)
	advantage := len(table.Columns) - 1
	if table.Columns[advantage] != "advantage" {
		t.Fatalf("columns %q", table.Columns)
	}
	for _, input := range []string{wandbDir, filepath.Join(wandbDir, "artifact", "completions.table.json")} {
		recs, errOut := computeList(t, "", "--method", "grpo", input)
		if !strings.Contains(errOut, "read as TRL completions: group = prompt (its consecutive rows, 4 at most: num_generations), batch = step, objectives accuracy_reward, think_format_reward, a null reward adds nothing, logged advantage = advantage") {
			t.Errorf("%s: stderr %q", input, errOut)
		}
		if len(recs) != len(table.Data) {
			t.Fatalf("%s: %d records, want %d", input, len(recs), len(table.Data))
		}
		for i, r := range recs {
			want := table.Data[i][advantage].(float64)
			if math.Abs(r.Reward-want) > 1e-6 || r.Batch != 3 || r.Group != table.Data[i][1] {
				t.Errorf("%s record %d: reward %.9g batch %d group %q, want %.9g, 3, %q", input, i, r.Reward, r.Batch, r.Group, want, table.Data[i][1])
			}
		}
		// By hand: the first prompt's rewards (accuracy + format) are 2, 1,
		// 1, 2: mean 1.5, sample std sqrt(1/3); TRL's epsilon 1e-4.
		if want := 0.5 / (math.Sqrt(1.0/3) + 1e-4); math.Abs(recs[0].Reward-want) > 1e-12 {
			t.Errorf("%s: first reward %.17g, want %.17g", input, recs[0].Reward, want)
		}
	}
}

// TestWandbTableLogExtra: a W&B table keeps TRL's column order, so a float
// log_extra column right after the rewards (length) is told apart as in
// TRL's Parquet file: left out, and the logged advantage reproduced.
func TestWandbTableLogExtra(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "grpo", filepath.Join(wandbDir, "log_extra"))
	if want := "rewards = the first 2 float columns, whose sum reproduces the logged advantage; log_extra columns length left out"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	if n, worst := trlReproduced(t, recs); n != len(recs) || n != 8 {
		t.Errorf("%d of %d rows reproduce TRL's advantage (max |diff| %.3g)", n, len(recs), worst)
	}
	if strings.Contains(errOut, "warning") {
		t.Errorf("a warning: %s", errOut)
	}
}

// TestWandbTableUniquePrompts: GRPOTrainer.log with log_unique_prompts=True
// drops the repeated prompts before its wandb.Table, one row kept per
// prompt: every group is of one row, which the TRL layout says rather
// than computing each row's own group silently.
func TestWandbTableUniquePrompts(t *testing.T) {
	table := readWandbTable(t)
	seen := map[any]bool{}
	unique := table.Data[:0]
	for _, row := range table.Data { // df.drop_duplicates(subset=["prompt"])
		if !seen[row[1]] {
			seen[row[1]] = true
			unique = append(unique, row)
		}
	}
	table.Data = unique
	text, err := json.Marshal(table)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "completions_3_62c7c8b697133048f6ec.table.json"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "stats", dir)
	if want := "step 3: every prompt group has 1 row where TRL writes num_generations rows per prompt: probably a table logged with log_unique_prompts=True"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stderr lacks %q:\n%s", code, want, errOut)
	}
}
