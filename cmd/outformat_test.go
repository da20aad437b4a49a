package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutFormatFromExtension: without --format, compute, prompts and stats
// write --out in the format its extension names (.csv, .json, .jsonl,
// .ndjson; another or none: the default); a --format that contradicts the
// extension, or an extension the command does not write, is written as
// asked, with a warning.
func TestOutFormatFromExtension(t *testing.T) {
	dir := t.TempDir()
	in := example("grpo.jsonl")
	compute := []string{"compute", "--objective", "accuracy=metadata.accuracy"}
	prompts := []string{"prompts", verlDir}
	stats := []string{"stats", "--objective", "accuracy=metadata.accuracy"}
	for _, c := range []struct {
		args    []string
		out     string
		start   string // what the file starts with
		warning string // "" for none
	}{
		{compute, "r.csv", "id,", ""},
		{compute, "r.CSV", "id,", ""},
		{compute, "r.json", "[\n", ""},
		{compute, "r.ndjson", `{"id":`, ""},
		{compute, "r.jsonl", `{"id":`, ""},
		{compute, "r.txt", `{"id":`, ""},
		{compute, "r", `{"id":`, ""},
		{append(compute, "--format", "csv"), "r.csv", "id,", ""},
		{append(compute, "--format", "jsonl"), "r.csv", `{"id":`, "r.csv is written as jsonl (--format jsonl), not the csv its extension names"},
		{append(compute, "--format", "csv"), "r.json", "id,", "r.json is written as csv (--format csv), not the json its extension names"},
		{prompts, "p.csv", "prompt,", ""},
		{prompts, "p.json", "[\n", ""},
		{stats, "s.json", "{\n", ""},
		{stats, "s.txt", "method ", ""},
		{stats, "s.csv", "method ", "s.csv is written as table: stats writes no csv (--format: table, json)"},
		{append(stats, "--format", "table"), "s.json", "method ", "s.json is written as table (--format table), not the json its extension names"},
	} {
		out := filepath.Join(dir, c.out)
		args := append(append([]string{}, c.args...), "--out", out)
		if c.args[0] != "prompts" {
			args = append(args, in)
		}
		_, stderr, code := run(t, "", args...)
		if code != exitOK {
			t.Errorf("%v: status %d, %q", args, code, stderr)
			continue
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(got), c.start) {
			t.Errorf("%v: the file starts %q, want %q", args, got[:min(len(got), 40)], c.start)
		}
		warned := strings.Contains(stderr, "warning: --out")
		if c.warning == "" && warned || c.warning != "" && !strings.Contains(stderr, "rewardlens: warning: --out "+filepath.Join(dir, c.warning)) {
			t.Errorf("%v: stderr %q, want the warning %q", args, stderr, c.warning)
		}
		os.Remove(out)
	}
}

// TestOutUnwritableExtension: an --out name whose extension names a
// compression (.gz, .zst, .bz2, .xz) or Parquet, which rewardlens does not
// write, is refused before anything is read (exit 2), with or without
// --format, and no file is left.
func TestOutUnwritableExtension(t *testing.T) {
	dir := t.TempDir()
	compute := []string{"compute", "--objective", "accuracy=metadata.accuracy"}
	stats := []string{"stats", "--objective", "accuracy=metadata.accuracy"}
	for _, c := range []struct {
		args []string
		out  string
		want string
	}{
		{compute, "r.csv.gz", "r.csv.gz: rewardlens writes no gzip; give " + filepath.Join(dir, "r.csv") + " and compress it"},
		{compute, "r.jsonl.gz", "r.jsonl.gz: rewardlens writes no gzip; give " + filepath.Join(dir, "r.jsonl") + " and compress it"},
		{append(compute, "--format", "csv"), "t.jsonl.GZ", "t.jsonl.GZ: rewardlens writes no gzip"},
		{compute, "r.jsonl.zst", "r.jsonl.zst: rewardlens writes no zstd"},
		{compute, "r.csv.bz2", "r.csv.bz2: rewardlens writes no bzip2"},
		{compute, "r.json.xz", "r.json.xz: rewardlens writes no xz"},
		{compute, "r.parquet", "r.parquet: rewardlens writes no Parquet (--format: jsonl, csv, json)"},
		{stats, "s.parquet", "s.parquet: rewardlens writes no Parquet (--format: table, json)"},
		{stats, "s.json.gz", "s.json.gz: rewardlens writes no gzip"},
		{[]string{"prompts"}, "p.csv.gz", "p.csv.gz: rewardlens writes no gzip"},
	} {
		out := filepath.Join(dir, c.out)
		args := append(append([]string{}, c.args...), "--out", out)
		if c.args[0] == "prompts" {
			args = []string{"prompts", "--out", out, verlDir}
		} else {
			args = append(args, "does-not-exist.jsonl") // refused before it is read
		}
		_, stderr, code := run(t, "", args...)
		if code != exitBadInput || !strings.Contains(stderr, "rewardlens: --out "+filepath.Join(dir, c.want)) {
			t.Errorf("%v: status %d, stderr %q, want %q", args, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s was written", args, c.out)
		}
	}
}
