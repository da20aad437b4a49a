package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesCountOne: the stats lines and warnings a user meets say
// "1 group", "1 trajectory", "1 row differs", not "1 groups".
func TestMessagesCountOne(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"one.jsonl": `{"id":"a","group":"g","metadata":{"acc":1,"adv":0.5}}` + "\n",
		"invalid.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"acc":1}}
{"id":"b","batch":1,"group":"g","metadata":{"acc":"x"}}
`,
		"sources.jsonl": `{"id":"a","group":"g","metadata":{"acc":1,"ds":"m"}}
{"id":"b","group":"g","metadata":{"acc":0,"ds":"m"}}
{"id":"c","group":"h","metadata":{"acc":1,"ds":"n"}}
`,
		"sources.toml": `[sources.m]
[[sources.m.objective]]
name = "acc"
expr = "acc"
[sources.n]
[[sources.n.objective]]
name = "acc"
expr = "acc"
`,
	})
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"stats", "--method", "absolute", "--objective", "acc=acc", "--logged-advantage", "adv", "--health", "one.jsonl"}, []string{
			"batch 0: 1 trajectory (0 invalid), 1 group, 1 front, frontier 1,",
			"reward vs logged advantage: 1 row, max |diff| 0.5000, mean |diff| 0.5000, 1 differs by more than 0.0001",
			"warning: 1 of 1 row differs from the logged advantage",
			"zero_spread  1 of 1 group has all-equal scores",
		}},
		{[]string{"stats", "--objective", "acc=acc", "--health", "invalid.jsonl"}, []string{
			"warning: step 1: 1 of 1 trajectory invalid (100%)",
			"invalid_fraction  1 of 1 trajectory invalid (100%)",
			// Its group g holds no valid trajectory: not "0 groups".
			"batch 1: 1 trajectory (1 invalid), 0 groups with a valid trajectory, 0 fronts,",
		}},
		{[]string{"stats", "--config", "sources.toml", "--source-by", "ds", "sources.jsonl"}, []string{
			"collapse 0.0000: of 1 group of distinct objective vectors",
			"source n: 1 trajectory (0 invalid)",
		}},
		{[]string{"compute", "--objective", "acc=acc", "--filter-groups", "acc", "one.jsonl"}, []string{
			"0 of 1 group dropped (zero spread of acc), 1 of 1 trajectory kept",
		}},
	} {
		args := append([]string(nil), c.args...)
		for k, a := range args {
			if strings.HasSuffix(a, ".jsonl") || strings.HasSuffix(a, ".toml") {
				args[k] = filepath.Join(dir, a)
			}
		}
		out, errOut, _ := run(t, "", args...)
		for _, w := range c.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%v: output does not say %q:\n%s%s", c.args, w, out, errOut)
			}
		}
	}
}

// TestFormatHelpSaysItsDefault: --format's help says its default once, as
// the rule it is (the --out extension's format, else the command's
// first), not a fixed default beside it that contradicts it; and that
// default is what is written.
func TestFormatHelpSaysItsDefault(t *testing.T) {
	for cmd, fallback := range map[string]string{"compute": "jsonl", "prompts": "jsonl", "stats": "table"} {
		out, _, code := run(t, "", cmd, "--help")
		line := ""
		for l := range strings.SplitSeq(out, "\n") {
			if strings.Contains(l, "--format string") {
				line = l
			}
		}
		if code != 0 || strings.Contains(line, `(default "`) || !strings.HasSuffix(line, "else "+fallback+")") {
			t.Errorf("%s --help: status %d, --format line %q", cmd, code, line)
		}
	}
	dir := writeFiles(t, map[string]string{"one.jsonl": `{"id":"a","group":"g","metadata":{"acc":1}}` + "\n"})
	in := filepath.Join(dir, "one.jsonl")
	if out, errOut, code := run(t, "", "compute", "--objective", "acc=acc", in); code != 0 || !strings.HasPrefix(out, `{"id":"a"`) {
		t.Errorf("compute to stdout: status %d, %q %s", code, out, errOut)
	}
	if out, errOut, code := run(t, "", "stats", "--objective", "acc=acc", in); code != 0 || !strings.HasPrefix(out, "method ") {
		t.Errorf("stats to stdout: status %d, %q %s", code, out, errOut)
	}
	csvOut := filepath.Join(dir, "r.csv")
	if _, errOut, code := run(t, "", "compute", "--objective", "acc=acc", "--out", csvOut, in); code != 0 {
		t.Fatalf("compute --out r.csv: status %d, %s", code, errOut)
	}
	if b, err := os.ReadFile(csvOut); err != nil || !strings.HasPrefix(string(b), "id,") {
		t.Errorf("--out r.csv holds %q (%v), want CSV", b, err)
	}
}
