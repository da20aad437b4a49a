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
