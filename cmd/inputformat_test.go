package cmd

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInputFormatWinsOverName runs compute on trainers' files named as
// another format, or as none, with --input-format saying theirs: the
// layout's recognition and the defaults it reads further records for
// (verl's overlong penalty, open-instruct's normalisation, TRL's reward
// columns) read them in that format, so the output and stderr are those
// of the file named as its format. Before, the layouts read the file
// again by its name: a W&B table named .json failed, verl's penalty and
// open-instruct's normalisation fell back to their defaults.
func TestInputFormatWinsOverName(t *testing.T) {
	dir := t.TempDir()
	verl := readText(t, filepath.Join(repoRoot, "cmd", "testdata", "verl", "dapo_overlong_rounded", "dump", "1.jsonl"))
	openInstruct := readText(t, filepath.Join(repoRoot, "cmd", "testdata", "openinstruct", "standard", "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl"))
	table := readText(t, filepath.Join(wandbDir, "completions_3_62c7c8b697133048f6ec.table.json"))
	logExtra := readText(t, filepath.Join(wandbDir, "log_extra", "completions_3_740f445ab3a2df12f485.table.json"))
	parquet := readText(t, filepath.Join(repoRoot, "cmd", "testdata", "trl", "log_extra", "completions", "completions_00001.parquet"))
	for _, c := range []struct {
		text, named, misnamed, format string
		flags                         []string
	}{
		{verl, "verl.jsonl", "verl.json", "jsonl", nil},
		{verl, "verl.jsonl", "verl.csv", "jsonl", nil},
		{gzipText(t, verl), "verl.jsonl.gz", "verl.json.gz", "jsonl", nil},
		{jsonArray(t, verl), "verl.json", "verl.jsonl", "json", nil},
		{jsonArray(t, verl), "verl.json", "verl.jsonl.gz", "json", nil},
		{csvText(t, verl), "verl.csv", "verl.json", "csv", nil},
		{openInstruct, "oi.jsonl", "oi.json", "jsonl", nil},
		{jsonArray(t, openInstruct), "oi.json", "oi.jsonl", "json", nil},
		{csvText(t, openInstruct), "oi.csv", "oi.jsonl", "csv", nil},
		{parquet, "trl.parquet", "trl.json", "parquet", nil},
		{table, "wb.table.json", "wb.json", "wandb-table", nil},
		{table, "wb.table.json", "wb.json", "wandb-table", []string{"--from", "trl"}},
		{table, "wb.table.json", "wb.jsonl", "wandb-table", nil},
		{logExtra, "extra.table.json", "extra.jsonl", "wandb-table", []string{"--method", "grpo"}},
		{gzipText(t, logExtra), "extra.table.json", "extra.json.gz", "wandb-table", []string{"--method", "grpo"}},
	} {
		named, misnamed := filepath.Join(dir, c.named), filepath.Join(dir, c.misnamed)
		writeText(t, named, c.text)
		writeText(t, misnamed, c.text)
		wantOut, wantErr, wantCode := run(t, "", append([]string{"compute"}, append(c.flags, named)...)...)
		out, errOut, code := run(t, "", append([]string{"compute", "--input-format", c.format}, append(c.flags, misnamed)...)...)
		if wantCode != 0 || code != 0 || out != wantOut || strings.ReplaceAll(errOut, misnamed, named) != wantErr {
			t.Errorf("%s as %s (%d): stderr %q\nwant, as %s (%d): %q\nsame stdout: %v", c.misnamed, c.format, code, errOut, c.named, wantCode, wantErr, out == wantOut)
		}
	}
}

// TestInputFormatJSONOnTable: a W&B table named as one, given
// --input-format json, fails with the advice that fits: drop the flag or
// give wandb-table (it said to name the file *.table.json, as it was).
func TestInputFormatJSONOnTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "X.table.json")
	writeText(t, path, readText(t, filepath.Join(wandbDir, "completions_3_62c7c8b697133048f6ec.table.json")))
	out, errOut, code := run(t, "", "compute", "--input-format", "json", path)
	if want := "rewardlens: " + path + ":1:1: expected a JSON array of trajectories, found a W&B table: drop --input-format json or give --input-format wandb-table\n"; code != 2 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, %q", code, out, errOut, want)
	}
}

// TestGzippedTableColumns: a gzipped W&B table, named as one, keeps its
// column order for the TRL layout, as the table does: its log_extra
// column is left out of the rewards. Before, the columns were looked for
// in the compressed bytes, and every float column was a reward.
func TestGzippedTableColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "completions.table.json.gz")
	writeText(t, path, gzipText(t, readText(t, filepath.Join(wandbDir, "log_extra", "completions_3_740f445ab3a2df12f485.table.json"))))
	_, errOut, code := run(t, "", "compute", "--method", "grpo", path)
	if want := "log_extra columns length left out"; code != 0 || !strings.Contains(errOut, want) || strings.Contains(errOut, "warning") {
		t.Errorf("exit %d, stderr lacks %q or warns: %s", code, want, errOut)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipText(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// jsonObjects returns the objects of the JSONL text.
func jsonObjects(t *testing.T, jsonl string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(jsonl), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, obj)
	}
	return objs
}

// jsonArray returns the JSONL text's objects as a JSON array.
func jsonArray(t *testing.T, jsonl string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(jsonl), "\n")
	return "[" + strings.Join(lines, ",\n") + "]\n"
}

// csvText returns the JSONL text's objects as CSV: a column per key of
// the first, each cell a string as it is, any other value as JSON.
func csvText(t *testing.T, jsonl string) string {
	t.Helper()
	objs := jsonObjects(t, jsonl)
	var keys []string
	for k := range objs[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(keys)
	for _, obj := range objs {
		row := make([]string, len(keys))
		for i, k := range keys {
			if s, ok := obj[k].(string); ok {
				row[i] = s
			} else {
				v, _ := json.Marshal(obj[k])
				row[i] = string(v)
			}
		}
		w.Write(row)
	}
	w.Flush()
	return b.String()
}

// TestStdinTrainerWarning: standard input alone whose first record has
// a trainer's fields (a verl dump, here gzipped and as a JSON array too)
// is read with --from auto as the file of the same bytes is, the
// trainer's layout recognised; beside another input it is read as plain
// records, and a warning says so and names --from verl, every record
// still read. --from verl reads it as the file is read; --from plain
// warns of no trainer's fields (of the dump's rows without a group only),
// and plain records of nothing.
func TestStdinTrainerWarning(t *testing.T) {
	path := filepath.Join(repoRoot, "sample_data", "verl", "1.jsonl")
	dump := readText(t, path)
	warning := "rewardlens: warning: standard input is read as plain records, though its first record has the fields of a verl rollout dump (input, output, score, step): give --from verl to read it as one, or --from plain to keep it plain\n"
	asPlain, _, _ := run(t, "", "compute", "--from", "plain", path)
	asFile, fileErr, _ := run(t, "", "compute", path)
	for _, stdin := range []string{dump, gzipText(t, dump), jsonArray(t, dump)} {
		out, errOut, code := run(t, stdin, "compute", "-")
		if code != 0 || errOut != fileErr || out != asFile {
			t.Errorf("exit %d, stderr %q, want %q; same stdout as the file: %v", code, errOut, fileErr, out == asFile)
		}
	}
	plainOne := filepath.Join(t.TempDir(), "one.jsonl")
	writeText(t, plainOne, `{"id":"extra","metadata":{"score":1}}`+"\n")
	if _, errOut, code := run(t, dump, "compute", "--objective", `score=metadata["score"]`, "-", plainOne); code != 0 || !strings.HasPrefix(errOut, warning) {
		t.Errorf("beside another input: exit %d, stderr %q, want it to start %q", code, errOut, warning)
	}
	if out, errOut, code := run(t, dump, "compute", "--from", "verl", "-"); code != 0 || errOut != fileErr || out != asFile {
		t.Errorf("--from verl: exit %d, stderr %q, want %q; same stdout: %v", code, errOut, fileErr, out == asFile)
	}
	// Read as plain records, the dump has no group: said, with its input
	// to group by.
	ungrouped := "rewardlens: warning: no trajectory has a group (a group field, or --group-by): each batch is one comparison group, so pareto's rewards are per batch, z-scored, not per prompt; give each record a group field, or --group-by input (the first record has input)\n"
	if out, errOut, code := run(t, dump, "compute", "--from", "plain", "-"); code != 0 || withoutInferredNote(errOut) != ungrouped || out != asPlain {
		t.Errorf("--from plain: exit %d, stderr %q, same stdout: %v", code, errOut, out == asPlain)
	}
	// Plain records, more than the first reads take: all of them read,
	// no warning.
	var plain strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&plain, `{"id":"r%d","group":"p%d","metadata":{"accuracy":%d}}`+"\n", i, i/4, i%3)
	}
	plainPath := filepath.Join(t.TempDir(), "plain.jsonl")
	writeText(t, plainPath, plain.String())
	want, _, _ := run(t, "", "compute", plainPath)
	if out, errOut, code := run(t, plain.String(), "compute", "-"); code != 0 || withoutInferredNote(errOut) != "" || out != want {
		t.Errorf("plain records: exit %d, stderr %q, same stdout: %v", code, errOut, out == want)
	}
}
