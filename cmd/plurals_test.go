package cmd

import (
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
