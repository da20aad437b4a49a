package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestTRLStdinReadsAsTheFile: a TRL completions table on standard input
// with --from trl is read as the same file given by its path: the same
// reward columns (TRL's own advantage never one; log_extra columns left
// out by the column order of a W&B table or a Parquet file), the logged
// advantage compared, the same rewards, and the same messages, the file's
// name aside.
func TestTRLStdinReadsAsTheFile(t *testing.T) {
	for _, path := range []string{
		filepath.Join("testdata", "trl", "f32_tie", "completions", "completions_1_abc.table.json"),
		filepath.Join("testdata", "trl", "log_extra", "completions", "completions_00001.parquet"),
		filepath.Join("testdata", "trl", "reward_weights", "completions", "completions_00001.parquet"),
		trlFirstNone("format_reward.table.json"),
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fileOut, fileErr, fileCode := run(t, "", "compute", "--from", "trl", path)
		stdinOut, stdinErr, stdinCode := run(t, string(data), "compute", "--from", "trl", "-")
		if fileCode != 0 || stdinCode != 0 {
			t.Fatalf("%s: status %d by path, %d on standard input: %s%s", path, fileCode, stdinCode, fileErr, stdinErr)
		}
		fileRecords, stdinRecords := recordsWithoutSource(t, fileOut), recordsWithoutSource(t, stdinOut)
		if !reflect.DeepEqual(fileRecords, stdinRecords) {
			t.Errorf("%s: the records differ\nby path:\n%s\non standard input:\n%s", path, fileOut, stdinOut)
		}
		if _, logged := stdinRecords[0]["logged_advantage"]; !logged {
			t.Errorf("%s: no logged advantage on standard input:\n%s", path, stdinOut)
		}
		n := len(stdinRecords)
		want := strings.ReplaceAll(fileErr, path, fmt.Sprintf("standard input (its first %d records)", n))
		if stdinErr != want {
			t.Errorf("%s: messages on standard input\n%s\nwant (by path)\n%s", path, stdinErr, want)
		}
	}
}

// recordsWithoutSource returns compute's JSONL records, their source (the
// file's name or standard input's) left out.
func recordsWithoutSource(t *testing.T, out string) []map[string]any {
	t.Helper()
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		delete(r, "source")
		records = append(records, r)
	}
	return records
}

// TestTRLStdinWithoutARecordInItsPeek: --from trl on standard input whose
// first record does not end within what is peeked of it fails, naming
// what it could not take from a record, rather than reading the logged
// advantage as a reward (the defaults of no record); standard input
// followed is refused first.
func TestTRLStdinWithoutARecordInItsPeek(t *testing.T) {
	long := strings.Repeat("x", loaders.MaxStdinPeek)
	stdin := fmt.Sprintf(`{"step":1,"prompt":"p","completion":"%s","accuracy_reward":1,"advantage":0}`+"\n", long)
	out, errOut, code := run(t, stdin, "compute", "--from", "trl", "-")
	if code != 2 || out != "" || !strings.Contains(errOut, "standard input: no record within its first 16 MiB to take the defaults of --from trl from") {
		t.Errorf("status %d, stdout %d bytes, stderr %q", code, len(out), errOut)
	}
	// Standard input is not followed: no defaults either.
	_, errOut, code = run(t, `{"step":1,"prompt":"p","completion":"c","accuracy_reward":1,"advantage":0}`+"\n", "stats", "--follow", "--from", "trl", "-")
	if code != 2 || !strings.HasPrefix(errOut, `rewardlens: standard input ("-") cannot be followed`) {
		t.Errorf("followed: status %d, stderr %q", code, errOut)
	}
}
