package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourcesConfig: a config's [sources.NAME] sections and source_by
// score each record by its source's objectives and weights, compute
// writes its source, stats splits the batch by source.
func TestSourcesConfig(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"m1","group":"p","metadata":{"data_source":"math","acc":1,"len":100}}
{"id":"m2","group":"p","metadata":{"data_source":"math","acc":0,"len":50}}
{"id":"c1","group":"p","metadata":{"data_source":"code","pass":0.5}}
{"id":"c2","group":"p","metadata":{"data_source":"code","pass":1}}
`,
		"cfg.toml": `method = "absolute"
normalize = false
[sources.math]
[[sources.math.objective]]
name = "acc"
expr = "acc"
weight = 1
[[sources.math.objective]]
name = "len"
expr = "metadata.len / 100"
goal = "min"
weight = 0.5
[sources.code]
weights = { pass = 2 }
[[sources.code.objective]]
name = "pass"
expr = "pass"
`,
	})
	data, cfg := filepath.Join(dir, "data.jsonl"), filepath.Join(dir, "cfg.toml")
	out, errOut, code := run(t, "", "compute", "--config", cfg, "--source-by", "data_source", data)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	// math: 1 acc - 0.5 len; code: 2 pass.
	// Ranks within one source: m1 (acc 1, len 1) and m2 (0, 0.5) are
	// both on the front; c2 dominates c1.
	want := map[string]struct {
		source string
		score  float64
		rank   int
	}{"m1": {"math", 0.5, 0}, "m2": {"math", -0.25, 0}, "c1": {"code", 1, 1}, "c2": {"code", 2, 0}}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID         string              `json:"id"`
			Source     string              `json:"source"`
			Score      float64             `json:"score"`
			ParetoRank int                 `json:"pareto_rank"`
			Objectives map[string]*float64 `json:"objectives"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		w := want[r.ID]
		if r.Source != w.source || r.Score != w.score || r.ParetoRank != w.rank {
			t.Errorf("%s: source %s score %v rank %d, want %s %v %d", r.ID, r.Source, r.Score, r.ParetoRank, w.source, w.score, w.rank)
		}
		if other := map[string]string{"math": "pass", "code": "acc"}[r.Source]; r.Objectives[other] != nil {
			t.Errorf("%s: another source's objective %s is %v, want null", r.ID, other, *r.Objectives[other])
		}
	}
	out, errOut, code = run(t, "", "stats", "--config", cfg, "--source-by", "data_source", data)
	if code != 0 || !strings.Contains(out, "source math: 2 trajectories (0 invalid)") || !strings.Contains(out, "source code: 2 trajectories (0 invalid)") {
		t.Fatalf("status %d, stats:\n%s%s", code, out, errOut)
	}
}

// TestConstraintCLI: --constraint adds feasible and violation to
// compute's records, its feasible share to stats, and warns when every
// trajectory is infeasible.
func TestConstraintCLI(t *testing.T) {
	dir := writeFiles(t, map[string]string{"data.jsonl": `{"id":"a","group":"p","metadata":{"acc":1,"safety":0.5}}
{"id":"b","group":"p","metadata":{"acc":0,"safety":0.95}}
`})
	data := filepath.Join(dir, "data.jsonl")
	out, errOut, code := run(t, "", "compute", "--constraint", "safety >= 0.9", data)
	if code != 0 || !strings.Contains(out, `"id":"a"`) || !strings.Contains(out, `"valid":true,"feasible":false,"violation":0.4`) || !strings.Contains(out, `"valid":true,"feasible":true,"violation":0`) {
		t.Fatalf("status %d:\n%s%s", code, out, errOut)
	}
	out, _, _ = run(t, "", "stats", "--constraint", "safety >= 0.9", data)
	if !strings.Contains(out, "feasible 0.5000 (safety >= 0.9 0.5000)") {
		t.Fatalf("stats:\n%s", out)
	}
	_, errOut, code = run(t, "", "compute", "--constraint", "safety > 1", data)
	if code != 0 || !strings.Contains(errOut, "warning: every one of the 2 valid trajectories breaks a constraint (safety > 1)") {
		t.Fatalf("status %d, stderr %s", code, errOut)
	}
}
