package cmd

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/layouts"
)

// TestHelpNamesEveryMethodAndLayout: the root help names every method of
// the methods table, and --method's and --prompt-by's say the default of
// every trainer's layout.
func TestHelpNamesEveryMethodAndLayout(t *testing.T) {
	out, _, code := run(t, "", "--help")
	if code != 0 {
		t.Fatalf("--help: status %d", code)
	}
	description := out[:strings.Index(out, "Usage:")]
	for _, m := range engine.AllMethods() {
		if !strings.Contains(description, string(m)) {
			t.Errorf("the help's description does not name method %s:\n%s", m, description)
		}
	}
	flagLine := func(name string) string {
		for line := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "-") && strings.Contains(line, "--"+name+" ") {
				return line
			}
		}
		t.Fatalf("no --%s in the help", name)
		return ""
	}
	for _, name := range layouts.Names() {
		if !layouts.IsTrainer(name) {
			continue
		}
		if line := flagLine("method"); !strings.Contains(line, name) {
			t.Errorf("--method's help does not say %s's default: %s", name, line)
		}
	}
	if line := flagLine("prompt-by"); !strings.Contains(line, "open-instruct's prompt_tokens") {
		t.Errorf("--prompt-by's help does not say open-instruct's prompt: %s", line)
	}
	if line := flagLine("hv-ref"); strings.Contains(line, "(default [])") {
		t.Errorf("--hv-ref's help gives its default twice: %s", line)
	}
}

// TestComputeHelpNamesEveryColumn: compute's help names every column
// compute can write but the objectives' (all of them written here:
// sources, constraints, a logged advantage, the group filter), and every
// member of its JSONL record in the record's order.
func TestComputeHelpNamesEveryColumn(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"ds":"m","acc":1,"n":3,"adv":0.5}}
{"id":"b","group":"g","metadata":{"ds":"m","acc":0,"n":5,"adv":-0.5}}
`,
		"cfg.toml": `[sources.m]
[[sources.m.objective]]
name = "acc"
expr = "acc"
`,
	})
	out, errOut, code := run(t, "", "compute", "--format", "csv", "--config", filepath.Join(dir, "cfg.toml"),
		"--source-by", "ds", "--constraint", "n >= 0", "--logged-advantage", "adv", "--filter-groups", "acc",
		filepath.Join(dir, "data.jsonl"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	header := readCSV(t, out)[0]
	help, _, _ := run(t, "", "compute", "--help")
	help = strings.Join(strings.Fields(help[:strings.Index(help, "Usage:")]), " ")
	for _, column := range header {
		if column == "acc" {
			continue // the objective
		}
		if !strings.Contains(help, column) {
			t.Errorf("compute's help does not name column %s:\n%s", column, help)
		}
	}
	if len(header) < 13 {
		t.Errorf("header %v: not every column was written", header)
	}

	out, errOut, code = run(t, "", "compute", "--config", filepath.Join(dir, "cfg.toml"),
		"--source-by", "ds", "--constraint", "n >= 0", "--logged-advantage", "adv", "--filter-groups", "acc",
		filepath.Join(dir, "data.jsonl"))
	if code != 0 {
		t.Fatalf("JSONL: status %d: %s", code, errOut)
	}
	members := recordMembers(t, out[:strings.Index(out, "\n")])
	// The help's list of members ends its first paragraph.
	list := help[:strings.Index(help, "docs/CONTRACT.md says each")]
	at := make([]int, len(members))
	for k, member := range members {
		place := regexp.MustCompile(`\b` + member + `\b`).FindStringIndex(list)
		if place == nil {
			t.Fatalf("compute's help does not name member %s:\n%s", member, list)
		}
		at[k] = place[0]
		if k > 0 && at[k] < at[k-1] {
			t.Errorf("compute's help names %s before %s; the record has %v:\n%s", member, members[k-1], members, list)
		}
	}
}

// recordMembers returns the names of the members of the JSON object line
// in their order.
func recordMembers(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %q", line)
	}
	var members []string
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, name.(string))
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
	}
	return members
}
