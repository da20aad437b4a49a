package cmd

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestLoggedAdvantageOverValidRows: stats compares the rewards with the
// logged advantage over the valid rows alone, as the trainer check does:
// an invalid row's reward (its group's mean) is no trainer's advantage,
// and its logged value is not counted as a row that differs.
func TestLoggedAdvantageOverValidRows(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"run.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":0.7071}}` + "\n" +
			`{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":-0.7071}}` + "\n" +
			`{"id":"c","batch":0,"group":"g","metadata":{"adv":5}}` + "\n",
	})
	out, errOut, code := run(t, "", "stats", "--format", "json", "--method", "grpo", "--objective", "x=metadata.x",
		"--logged-advantage", "metadata.adv", filepath.Join(dir, "run.jsonl"))
	var got struct {
		Batches []struct {
			Logged struct {
				Rows      int `json:"rows"`
				Differing int `json:"differing"`
			} `json:"logged_advantage"`
			Agreement struct {
				Rows      int `json:"rows"`
				Differing int `json:"differing"`
			} `json:"trainer_agreement"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got.Batches) != 1 {
		t.Fatalf("stats: status %d, %v, stderr %s:\n%s", code, err, errOut, out)
	}
	b := got.Batches[0]
	if b.Logged.Rows != 2 || b.Logged.Differing != 0 || b.Logged.Rows != b.Agreement.Rows || b.Logged.Differing != b.Agreement.Differing {
		t.Errorf("logged_advantage %+v, trainer_agreement %+v; want 2 rows, 0 differing, the same in both", b.Logged, b.Agreement)
	}
}
