package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// nullAcc is a batch whose acc is None (null) in two of four records:
// present 1 and 3.
const nullAcc = `{"id":"a","step":0,"prompt":"p","metadata":{"acc":1,"fmt":1}}
{"id":"b","step":0,"prompt":"p","metadata":{"acc":null,"fmt":1}}
{"id":"c","step":0,"prompt":"p","metadata":{"acc":3,"fmt":0}}
{"id":"d","step":0,"prompt":"p","metadata":{"acc":null,"fmt":0}}
`

// TestStatsMissingLeftOut: under nansum a None objective value counts 0
// in the score but is left out of the objective's summary and counted in
// `missing`, in JSON and in the table; the correlation takes the rows
// with both values. Hand-computed: acc over 1 and 3 is count 2, missing 2,
// mean 2, std 1, min 1, p25 1.5, median 2, p75 2.5, max 3 (with the nulls
// as 0s: count 4, mean 1, std 1.2247, min 0); fmt over a and c is 1, 0, so
// their correlation is -1 (-0.4082 with the 0s). TRL's fixture's step 1
// has 5 of 11 accuracy rewards 1 and one None: mean 5/11, std
// sqrt(30)/11 (5/12 and 0.4930 with the None as 0).
func TestStatsMissingLeftOut(t *testing.T) {
	dir := writeFiles(t, map[string]string{"runs.jsonl": nullAcc})
	args := []string{"stats", "--nansum", "--objective", "acc=metadata.acc", "--objective", "fmt=metadata.fmt", filepath.Join(dir, "runs.jsonl")}
	out, errOut, code := run(t, "", append(args, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var report struct {
		Batches []struct {
			Objectives []struct {
				Name                                  string
				Count, Missing                        int
				Mean, Std, Min, P25, Median, P75, Max float64
			}
			Score       struct{ Count int }
			Correlation [][]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Batches) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	b := report.Batches[0]
	acc, format := b.Objectives[0], b.Objectives[1]
	if acc.Count != 2 || acc.Missing != 2 || acc.Mean != 2 || acc.Std != 1 || acc.Min != 1 || acc.P25 != 1.5 || acc.Median != 2 || acc.P75 != 2.5 || acc.Max != 3 {
		t.Errorf("acc: %+v, want count 2, missing 2, mean 2, std 1, min 1, p25 1.5, median 2, p75 2.5, max 3", acc)
	}
	if format.Count != 4 || format.Missing != 0 || format.Mean != 0.5 || b.Score.Count != 4 {
		t.Errorf("fmt %+v, score count %d: want count 4, missing 0, mean 0.5; score count 4", format, b.Score.Count)
	}
	if !strings.Contains(out, `"max": 3,
          "missing": 2`) {
		t.Errorf("missing does not follow the summary:\n%s", out)
	}
	if b.Correlation[0][1] != -1 {
		t.Errorf("correlation of acc and fmt %v, want -1 over the rows with both", b.Correlation[0][1])
	}
	table, _, _ := run(t, "", args...)
	for _, want := range []string{
		"goal  count  missing    mean     std      min      p25  median     p75     max",
		"acc   max      2        2  2.0000  1.0000   1.0000   1.5000  2.0000  2.5000  3.0000",
		"score            4           0.7500",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}

	trl, errOut, code := run(t, "", "stats", trlDir)
	if code != exitOK {
		t.Fatalf("TRL: status %d: %s", code, errOut)
	}
	if want := "accuracy_reward   max     11        1  0.4545  0.4979"; !strings.Contains(trl, want) {
		t.Errorf("TRL's step 1 lacks %q:\n%s", want, trl)
	}
	// Without nansum a null makes the trajectory invalid: no column.
	plain, _, _ := run(t, "", "stats", example("grpo.jsonl"))
	if strings.Contains(plain, "missing  ") {
		t.Errorf("a missing column without nansum:\n%s", plain)
	}
}
