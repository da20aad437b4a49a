package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// trlJSONLines returns the rows of fixture name of
// testdata/trl/fixtures.json (scripts/trl_fixtures.py, TRL's own code) as
// JSON lines, each row's columns in the table's order.
func trlJSONLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "trl", "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Fixtures []struct {
			Name    string
			Columns []struct {
				Name   string
				Values []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, f := range file.Fixtures {
		if f.Name != name {
			continue
		}
		lines := make([]string, len(f.Columns[0].Values))
		for i := range lines {
			fields := make([]string, len(f.Columns))
			for k, c := range f.Columns {
				key, _ := json.Marshal(c.Name)
				fields[k] = string(key) + ": " + string(c.Values[i])
			}
			lines[i] = "{" + strings.Join(fields, ", ") + "}\n"
		}
		return lines
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// TestStatsFollowTRLWholeStep: following a TRL table written as JSON
// lines into an empty directory, num_generations and the reward columns
// are read from its first step whole, not from the first row written,
// and the wait is said. Read from that row (no run of two rows of one
// prompt), the whole run was grouped by prompt text, and the prompt in
// two slots of the batch differed from the log on each of its 8 rows.
// A Parquet table, written whole, is read at once.
func TestStatsFollowTRLWholeStep(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	old := layoutQuiet
	layoutQuiet = 4 * awaitPoll
	t.Cleanup(func() { layoutQuiet = old })
	lines := trlJSONLines(t, "duplicate_prompt")
	dir := t.TempDir()
	table := filepath.Join(dir, "completions.jsonl")
	if err := os.WriteFile(table, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "waiting for a first record")
	testfile.Append(t, table, lines[0])
	f.awaitErr(t, "waiting for the first step in "+table+" to be whole (a record of the next step, or the file unmodified for 1s), to read num_generations and the reward columns from it")
	time.Sleep(2 * awaitPoll)
	testfile.Append(t, table, strings.Join(lines[1:], ""))
	f.await(t, "step 1  trajectories 16 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	errOut := f.errOut.String()
	if !strings.Contains(errOut, "group = prompt (its consecutive rows, 4 at most: num_generations)") || !strings.Contains(errOut, "1 prompt in more than one group of "+table) || strings.Contains(errOut, "differ from the logged advantage") {
		t.Errorf("stderr:\n%s", errOut)
	}

	// Parquet: not waited for past layoutQuiet.
	layoutQuiet = time.Hour
	dir = t.TempDir()
	f = startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "waiting for a first record")
	data, err := os.ReadFile(filepath.Join(trlFixture("duplicate_prompt"), "completions_00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), "completions_00001.parquet")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "completions_00001.parquet")); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 1  trajectories 16 ")
	if code := f.stop(); code != 0 || strings.Contains(f.errOut.String(), "waiting for the first step") {
		t.Errorf("Parquet: status %d, stderr:\n%s", code, f.errOut.String())
	}
}
