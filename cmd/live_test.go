package cmd

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// liveFixture is a live run's directory of loaders/testdata/live.
func liveFixture(name string) string {
	return filepath.Join(repoRoot, "loaders", "testdata", "live", name)
}

// TestComputeUnfinishedNewestFile: compute and stats on a live run's
// directory, with and without --skip-invalid-lines, read what is complete,
// leave the newest file's unfinished part out and warn naming it: a
// JSONL line cut short, a TRL Parquet file without its footer (the layout
// recognised on the others), an empty newest file, a JSON array and a
// W&B table cut short.
func TestComputeUnfinishedNewestFile(t *testing.T) {
	const why = " (the newest file of its directory: its run is probably still writing it)\n"
	for _, c := range []struct {
		dir, newest, what string
		args              []string
		rows              int
	}{
		{"jsonl", "step_10.jsonl", "last line left out: no line end, and not complete JSON", nil, 5},
		{"parquet", "completions_00003.parquet", "left out: no Parquet footer yet", []string{"--method", "grpo"}, 24},
		{"empty", "step_2.parquet", "left out: empty", nil, 1},
		{"json", "step_2.json", "left out: its JSON ends before its value does", nil, 2},
		{"wandb", "step_2.table.json", "left out: its JSON ends before its value does", nil, 2},
	} {
		warning := "rewardlens: warning: " + filepath.Join(liveFixture(c.dir), c.newest) + ": " + c.what + why
		for _, extra := range [][]string{nil, {"--skip-invalid-lines"}} {
			args := append(append(append([]string{"compute"}, c.args...), extra...), liveFixture(c.dir))
			out, errOut, code := run(t, "", args...)
			if code != 0 || strings.Count(out, "\n") != c.rows || strings.Count(errOut, warning) != 1 || strings.Contains(errOut, "skipped") {
				t.Errorf("%v: status %d, %d rows, stderr %q; want 0, %d rows, %q once", args, code, strings.Count(out, "\n"), errOut, c.rows, warning)
			}
			args[0] = "stats"
			if _, errOut, code := run(t, "", args...); code != 0 || strings.Count(errOut, warning) != 1 {
				t.Errorf("%v: status %d, stderr %q; want 0 and %q once", args, code, errOut, warning)
			}
		}
	}
	_, errOut, _ := run(t, "", "compute", "--method", "grpo", liveFixture("parquet"))
	if !strings.Contains(errOut, "read as TRL completions") {
		t.Errorf("the TRL layout not recognised beside an unfinished file: %q", errOut)
	}
}

// TestComputeUnfinishedStaysAnError: a broken file that is not the newest
// of its directory (a JSON array cut short too), the newest whose syntax
// error comes before its cut end, and a directory with nothing complete
// yet, fail with status 2 and say where.
func TestComputeUnfinishedStaysAnError(t *testing.T) {
	bad := filepath.Join(liveFixture("broken-older"), "step_1.jsonl")
	if _, errOut, code := run(t, "", "compute", liveFixture("broken-older")); code != exitBadInput || !strings.Contains(errOut, bad+":2:") {
		t.Errorf("a broken older file: status %d, stderr %q; want 2 and %s:2", code, errOut, bad)
	}
	for dir, want := range map[string]string{
		"json-older":  "step_1.json:2:28: invalid JSON: unexpected end of input",
		"json-syntax": "step_2.json:2:2: invalid JSON: expected comma after array element",
	} {
		want = filepath.Join(liveFixture(dir), want)
		if _, errOut, code := run(t, "", "stats", liveFixture(dir)); code != exitBadInput || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr %q; want 2 and %s", dir, code, errOut, want)
		}
	}
	only := filepath.Join(liveFixture("only-unfinished"), "run.jsonl")
	for _, extra := range []string{"--skip-invalid-lines", "--method=grpo"} {
		_, errOut, code := run(t, "", "compute", extra, liveFixture("only-unfinished"))
		if want := "no trajectories yet: " + only + ": left out: its only line has no line end"; code != exitBadInput || !strings.Contains(errOut, want) {
			t.Errorf("nothing complete yet (%s): status %d, stderr %q; want 2 and %q", extra, code, errOut, want)
		}
	}
}

// TestComputeUnfinishedGzip: compute and stats on a directory whose newest
// file is a gzipped JSONL ending mid-line, its gzip stream whole or cut
// short, read its complete lines and warn of the last one, as of a plain
// JSONL file's.
func TestComputeUnfinishedGzip(t *testing.T) {
	const lines = "{\"id\":\"2a\",\"metadata\":{\"acc\":1}}\n{\"id\":\"2b\",\"metadata\":{\"acc\":0.5}}\n"
	const cutLine = "{\"id\":\"2c\",\"metadata\":{\"acc\":0."
	for _, cut := range []bool{false, true} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(lines))
		zw.Flush()
		zw.Write([]byte(cutLine))
		zw.Flush()
		if !cut {
			zw.Close()
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "step_1.jsonl"), []byte("{\"id\":\"1a\",\"metadata\":{\"acc\":1}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		newest := filepath.Join(dir, "step_2.jsonl.gz")
		if err := os.WriteFile(newest, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		warning := "rewardlens: warning: " + newest + ": last line left out: no line end, and not complete JSON (the newest file of its directory: its run is probably still writing it)\n"
		out, errOut, code := run(t, "", "compute", dir)
		if code != 0 || strings.Count(out, "\n") != 3 || strings.Count(errOut, warning) != 1 {
			t.Errorf("compute, stream cut %t: status %d, %d rows, stderr %q; want 0, 3 rows, %q once", cut, code, strings.Count(out, "\n"), errOut, warning)
		}
		if _, errOut, code := run(t, "", "stats", dir); code != 0 || strings.Count(errOut, warning) != 1 {
			t.Errorf("stats, stream cut %t: status %d, stderr %q; want 0 and %q once", cut, code, errOut, warning)
		}
	}
}

// TestStatsFollowParquetWithoutFooter: stats --follow on a TRL run whose
// newest Parquet file has no footer yet warns of it and follows the
// others; the file is read once its writer completes it.
func TestStatsFollowParquetWithoutFooter(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := t.TempDir()
	for _, name := range []string{"completions_00001.parquet", "completions_00002.parquet", "completions_00003.parquet"} {
		data, err := os.ReadFile(filepath.Join(liveFixture("parquet"), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := startFollowing(t, "stats", "--follow", "--method", "grpo", dir)
	f.await(t, "step 2 ")
	newest := filepath.Join(dir, "completions_00003.parquet")
	f.awaitErr(t, "rewardlens: warning: "+newest+": left out: no Parquet footer yet (its run is probably still writing it: read when it changes)\n")
	whole, err := os.ReadFile(filepath.Join(repoRoot, "sample_data", "trl", "completions", "completions_00003.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newest, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 3 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d (stderr %q)", code, f.errOut.String())
	}
}
