package cmd

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
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
	// The columns follow the sources as the file declares them, math's
	// then code's (not by name). The first objective, acc (math's), is no
	// default task metric: code lacks it, and its 0 there would fail every
	// code completion.
	if !strings.Contains(out, "acc     len    pass") || !strings.Contains(errOut, "warning: no default task metric: the first objective acc is not one of source code's") || strings.Contains(out, "task metric acc") {
		t.Fatalf("stats without a task metric named:\n%s%s", out, errOut)
	}
	_, errOut, code = run(t, "", "prompts", "--config", cfg, "--source-by", "data_source", data)
	if code != 2 || !strings.Contains(errOut, "no default task metric") {
		t.Fatalf("prompts without a task metric named: status %d, %s", code, errOut)
	}
	// Named, it grades the rows of the sources having it: one prompt, acc
	// 1 and 0 (code's rows have none), a pass rate of 1/2.
	out, errOut, code = run(t, "", "stats", "--config", cfg, "--source-by", "data_source", "--task-metric", "acc", data)
	if code != 0 || !strings.Contains(out, "task metric acc, a completion passes at >= 1; 1 prompt: never 0, always 0, learned 0, forgotten 0, solved 1") {
		t.Fatalf("stats --task-metric acc: status %d\n%s%s", code, out, errOut)
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
	// An invalid trajectory (acc missing) meets the constraint, but its
	// constraints are not all evaluated: null, as its score, not "false, 0".
	dir = writeFiles(t, map[string]string{"data.jsonl": `{"id":"a","group":"p","metadata":{"acc":1,"safety":0.95}}
{"id":"b","group":"p","metadata":{"safety":0.95}}
{"id":"c","group":"p","metadata":{"acc":0,"safety":0.5}}
`})
	data = filepath.Join(dir, "data.jsonl")
	out, errOut, code = run(t, "", "compute", "--objective", "acc=metadata.acc", "--constraint", "safety >= 0.9", data)
	if code != 0 || !strings.Contains(out, `"id":"b","batch":0,"group":"p","score":null,`) || !strings.Contains(out, `"valid":false,"feasible":null,"violation":null`) {
		t.Fatalf("status %d:\n%s%s", code, out, errOut)
	}
	out, errOut, code = run(t, "", "compute", "--format", "csv", "--objective", "acc=metadata.acc", "--constraint", "safety >= 0.9", data)
	if code != 0 || !strings.Contains(out, "\nb,0,p,,") || !strings.Contains(out, ",false,,,") {
		t.Fatalf("csv: status %d:\n%s%s", code, out, errOut)
	}
}

// TestStructureConfigKeys: every flag of issue 25 has a config key that
// gives the same output.
func TestStructureConfigKeys(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"a","group":"p","metadata":{"acc":1,"safety":0.5,"fmt":1}}
{"id":"b","group":"p","metadata":{"acc":0,"safety":0.95,"fmt":0}}
{"id":"c","group":"p","metadata":{"acc":1,"safety":0.97,"fmt":1}}
`,
		"cfg.toml": `method = "lexicographic"
constraint = ["safety >= 0.9"]
penalty = 0.5
gate = ["fmt: acc == 1"]
normalize_objectives = "minmax"
priority = ["acc", "safety"]
priority_tolerance = { safety = 0.1 }
`,
	})
	data := filepath.Join(dir, "data.jsonl")
	fromConfig, errOut, code := run(t, "", "compute", "--config", filepath.Join(dir, "cfg.toml"), data)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	fromFlags, errOut, code := run(t, "", "compute", "--method", "lexicographic", "--constraint", "safety >= 0.9", "--penalty", "0.5",
		"--gate", "fmt: acc == 1", "--normalize-objectives", "minmax", "--priority", "acc,safety", "--priority-tolerance", "safety=0.1", data)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if fromConfig != fromFlags {
		t.Fatalf("config:\n%s\nflags:\n%s", fromConfig, fromFlags)
	}
	// a breaks the constraint by 0.4: last; then b (acc 0), then c
	// (acc 1): u = 0, 0.5, 1, z-scored.
	want := map[string]float64{"a": -1.224744871391589, "b": 0, "c": 1.224744871391589}
	for _, line := range strings.Split(strings.TrimSpace(fromFlags), "\n") {
		var r struct {
			ID        string  `json:"id"`
			Reward    float64 `json:"reward"`
			Violation float64 `json:"violation"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Reward-want[r.ID]) > 1e-9 || (r.ID == "a") != (r.Violation > 0.39) {
			t.Errorf("%s: reward %v violation %v, want reward %v", r.ID, r.Reward, r.Violation, want[r.ID])
		}
	}
}

// TestSourcesSharedObjectiveWeight: an objective two sources weigh
// differently has no one weight over the batch, which stats' JSON gives
// as null, weight_by "source"; one that no source met in the data (of
// source other) null too, weight_by "none"; a weight shared has no
// weight_by; each source's block gives its own.
func TestSourcesSharedObjectiveWeight(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"m1","group":"p","metadata":{"data_source":"math","acc":1,"len":100}}
{"id":"m2","group":"p","metadata":{"data_source":"math","acc":0,"len":50}}
{"id":"c1","group":"p","metadata":{"data_source":"code","acc":0.5}}
{"id":"c2","group":"p","metadata":{"data_source":"code","acc":1}}
`,
		"cfg.toml": `[sources.math]
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
[[sources.code.objective]]
name = "acc"
expr = "acc"
weight = 3
[sources.other]
[[sources.other.objective]]
name = "extra"
expr = "metadata.extra"
weight = 2
`,
	})
	out, errOut, code := run(t, "", "stats", "--format", "json", "--config", filepath.Join(dir, "cfg.toml"), "--source-by", "data_source", filepath.Join(dir, "data.jsonl"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	type objective struct {
		Name     string   `json:"name"`
		Weight   *float64 `json:"weight"`
		WeightBy *string  `json:"weight_by"`
	}
	var doc struct {
		Batches []struct {
			Objectives []objective `json:"objectives"`
			Sources    []struct {
				Source     string      `json:"source"`
				Objectives []objective `json:"objectives"`
			} `json:"sources"`
		} `json:"batches"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	weights := func(objs []objective) map[string]any {
		w := map[string]any{}
		for _, o := range objs {
			w[o.Name] = nil
			if o.Weight != nil {
				w[o.Name] = *o.Weight
			}
		}
		return w
	}
	b := doc.Batches[0]
	if got := weights(b.Objectives); got["acc"] != nil || got["len"] != 0.5 || got["extra"] != nil {
		t.Errorf("the batch's weights %v, want acc null (1 in math, 3 in code), len 0.5, extra null (no source met)", got)
	}
	by := map[string]string{}
	for _, o := range b.Objectives {
		by[o.Name] = "omitted"
		if o.WeightBy != nil {
			by[o.Name] = *o.WeightBy
		}
	}
	if want := map[string]string{"acc": "source", "len": "omitted", "extra": "none"}; !maps.Equal(by, want) {
		t.Errorf("the batch's weight_by %v, want %v", by, want)
	}
	want := map[string]map[string]any{"math": {"acc": 1.0, "len": 0.5}, "code": {"acc": 3.0}}
	for _, s := range b.Sources {
		if got := weights(s.Objectives); fmt.Sprint(got) != fmt.Sprint(want[s.Source]) {
			t.Errorf("source %s: weights %v, want %v", s.Source, got, want[s.Source])
		}
	}
}

// TestHealthSaysWhyNoHypervolume: with 4 objectives the health line says
// the hypervolume is not computed, rather than printing a reference point
// and a column of NaN without a word; the trends' table leaves out that
// column, and mean_step_count's when no trajectory has a step_count.
func TestHealthSaysWhyNoHypervolume(t *testing.T) {
	var lines strings.Builder
	for i := range 12 {
		fmt.Fprintf(&lines, `{"id":"t%d","group":"g%d","metadata":{"a":%d,"b":%d,"c":%d,"d":%d}}`+"\n", i, i%3, i%5, i%7, i%4, i%2)
	}
	data := filepath.Join(writeFiles(t, map[string]string{"data.jsonl": lines.String()}), "data.jsonl")
	out, errOut, code := run(t, "", "stats", "--health", data)
	if code != 0 && code != 3 || !strings.Contains(out, "no hypervolume: it is computed for 2 or 3 objectives, not 4") {
		t.Errorf("status %d:\n%s%s", code, out, errOut)
	}
	if want := regexp.MustCompile(`(?m)^ *batch +score_group_std +frac_at_max *$`); !want.MatchString(out) {
		t.Errorf("the trends' table has columns without a value (want batch, score_group_std, frac_at_max):\n%s", out)
	}
}

// TestSourcesNanSum: with sources and --nansum, a source's missing
// objective is null in compute's record, not 0, and counted missing in
// stats' source block, as without sources; a record missing every
// objective of its source is invalid and null in each.
func TestSourcesNanSum(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"id":"m1","group":"p","metadata":{"data_source":"math","acc":1,"len":100}}
{"id":"m2","group":"p","metadata":{"data_source":"math","acc":null,"len":50}}
{"id":"c1","group":"p","metadata":{"data_source":"code","pass":null}}
{"id":"c2","group":"p","metadata":{"data_source":"code","pass":1}}
`,
		"cfg.toml": `method = "absolute"
normalize = false
nansum = true
source_by = "data_source"
[sources.math]
[[sources.math.objective]]
name = "acc"
expr = "acc"
[[sources.math.objective]]
name = "len"
expr = "metadata.len / 100"
goal = "min"
[sources.code]
[[sources.code.objective]]
name = "pass"
expr = "pass"
`,
	})
	data, cfg := filepath.Join(dir, "data.jsonl"), filepath.Join(dir, "cfg.toml")
	out, errOut, code := run(t, "", "compute", "--config", cfg, data)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID         string              `json:"id"`
			Valid      bool                `json:"valid"`
			Objectives map[string]*float64 `json:"objectives"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		null := map[string]string{"m2": "acc", "c1": "pass"}[r.ID]
		if null != "" && r.Objectives[null] != nil {
			t.Errorf("%s: missing %s is %v, want null", r.ID, null, *r.Objectives[null])
		}
		if r.Valid != (r.ID != "c1") {
			t.Errorf("%s: valid %v", r.ID, r.Valid)
		}
	}
	out, errOut, code = run(t, "", "stats", "--config", cfg, data)
	// math's acc: 1 present, 1 missing (not a 0 making a mean of 0.5).
	if code != 0 || !strings.Contains(out, "source math: 2 trajectories (0 invalid)\n          goal  count  missing     mean     std      min      p25   median      p75     max\n     acc   max      1        1   1.0000  0.0000") || !strings.Contains(out, "source code: 2 trajectories (1 invalid)") {
		t.Fatalf("status %d, stats:\n%s%s", code, out, errOut)
	}
}
