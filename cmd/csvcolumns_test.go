package cmd

import (
	"encoding/csv"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readCSV parses compute's CSV output, failing the test on a parse error.
func readCSV(t *testing.T, text string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, text)
	}
	return rows
}

// checkUniqueColumns fails when a header names a column twice (pandas
// would rename it "NAME.1", csv.DictReader keep only the last).
func checkUniqueColumns(t *testing.T, header []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, name := range header {
		if seen[name] {
			t.Errorf("header %q names %q twice", strings.Join(header, ","), name)
		}
		seen[name] = true
	}
}

// TestCSVObjectiveNamedLikeAColumn: verl's objective "score" is written as
// the column objectives.score, next to the fixed score, and rewardlens
// reads its own CSV back by that name.
func TestCSVObjectiveNamedLikeAColumn(t *testing.T) {
	verl := filepath.Join(repoRoot, "sample_data", "verl")
	out, errOut, code := run(t, "", "compute", "--format", "csv", verl)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	rows := readCSV(t, out)
	wantHeader := "id,batch,group,score,reward,pareto_rank,crowding,valid,objectives.score"
	if got := strings.Join(rows[0], ","); got != wantHeader {
		t.Fatalf("header %q, want %q", got, wantHeader)
	}
	path := filepath.Join(t.TempDir(), "rewards.csv")
	if _, errOut, code := run(t, "", "compute", "--format", "csv", "--out", path, verl); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	back, errOut, code := run(t, "", "compute", "--format", "csv", "--method", "absolute", "--no-normalize",
		"--objective", `raw=metadata["objectives.score"]`, path)
	if code != 0 {
		t.Fatalf("reading the CSV back: status %d: %s", code, errOut)
	}
	backRows := readCSV(t, back)
	if len(backRows) != len(rows) {
		t.Fatalf("read back %d rows, want %d", len(backRows), len(rows))
	}
	last := len(rows[0]) - 1
	for i := 1; i < len(rows); i++ {
		if backRows[i][0] != rows[i][0] || backRows[i][len(backRows[i])-1] != rows[i][last] {
			t.Errorf("row %d: read back id %q objective %q, want %q %q", i, backRows[i][0], backRows[i][len(backRows[i])-1], rows[i][0], rows[i][last])
		}
	}
}

// TestCSVObjectiveColumnsUnique: every column compute's CSV can write,
// named as an objective, and an objective already named like a renamed
// one, give a header without a repeated name; an objective whose name
// clashes with nothing keeps it.
func TestCSVObjectiveColumnsUnique(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"g","metadata":{"ds":"m","acc":1,"len":3,"adv":0.5}}
{"id":"b","group":"g","metadata":{"ds":"m","acc":0,"len":5,"adv":-0.5}}
`,
		"cfg.toml": `[sources.m]
[[sources.m.objective]]
name = "source"
expr = "acc"
[[sources.m.objective]]
name = "objectives.source"
expr = "len"
[[sources.m.objective]]
name = "objectives.objectives.source"
expr = "acc"
[[sources.m.objective]]
name = "feasible"
expr = "len"
[[sources.m.objective]]
name = "kept"
expr = "acc"
[[sources.m.objective]]
name = "logged_advantage"
expr = "len"
[[sources.m.objective]]
name = "id"
expr = "acc"
[[sources.m.objective]]
name = "len"
expr = "len"
`,
	})
	out, errOut, code := run(t, "", "compute", "--format", "csv", "--config", filepath.Join(dir, "cfg.toml"),
		"--source-by", "ds", "--constraint", "len >= 0", "--logged-advantage", "adv", "--filter-groups", "len",
		filepath.Join(dir, "data.jsonl"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	header := readCSV(t, out)[0]
	checkUniqueColumns(t, header)
	want := "id,batch,group,source,score,reward,pareto_rank,crowding,valid,feasible,violation,logged_advantage,kept," +
		"objectives.objectives.objectives.source,objectives.source,objectives.objectives.source," +
		"objectives.feasible,objectives.kept,objectives.logged_advantage,objectives.id,len"
	if got := strings.Join(header, ","); got != want {
		t.Errorf("header\n%s\nwant\n%s", got, want)
	}
}

// TestCSVObjectiveColumnsRule: csvObjectiveColumns on names built to
// collide, each list giving unique columns none of which is fixed.
func TestCSVObjectiveColumnsRule(t *testing.T) {
	fixed := []string{"id", "score", "valid"}
	for _, names := range [][]string{
		{"score", "objectives.score"},
		{"objectives.score", "score", "objectives.objectives.score"},
		{"valid", "objectives.valid", "objectives.objectives.valid", "score", "id", "x"},
		{"objectives.objectives.id", "id", "objectives.id"},
	} {
		columns := csvObjectiveColumns(fixed, names)
		checkUniqueColumns(t, append(slices.Clone(fixed), columns...))
		for k, name := range names {
			if !slices.Contains(fixed, name) && columns[k] != name {
				t.Errorf("%q: column %q, want its name (no clash)", name, columns[k])
			}
		}
	}
}
