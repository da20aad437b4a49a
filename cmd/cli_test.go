package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/output"
)

// repoRoot is where the sample data lives, relative to this package.
const repoRoot = ".."

// run runs rewardlens with args and returns stdout, stderr and the status.
func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), code
}

func example(name string) string { return filepath.Join(repoRoot, "sample_data", "examples", name) }

// record is one line of compute's JSONL output.
type record struct {
	ID         string              `json:"id"`
	Batch      int64               `json:"batch"`
	Group      string              `json:"group"`
	Score      *float64            `json:"score"`
	Reward     float64             `json:"reward"`
	ParetoRank int                 `json:"pareto_rank"`
	Crowding   any                 `json:"crowding"`
	Valid      bool                `json:"valid"`
	Objectives map[string]*float64 `json:"objectives"`
	// Logged is the trainer's logged advantage, when the input has it.
	Logged *float64 `json:"logged_advantage"`
}

func computeRecords(t *testing.T, args ...string) map[string]record {
	t.Helper()
	out, errOut, code := run(t, "", append([]string{"compute"}, args...)...)
	if code != 0 {
		t.Fatalf("compute %v: status %d, stderr %s", args, code, errOut)
	}
	recs := map[string]record{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		recs[r.ID] = r
	}
	return recs
}

func assertRewards(t *testing.T, recs map[string]record, want map[string]float64) {
	t.Helper()
	for id, w := range want {
		r, ok := recs[id]
		if !ok {
			t.Errorf("%s missing from output", id)
			continue
		}
		// The README's values are rounded to 6 decimals.
		if math.Abs(r.Reward-w) > 5e-7 {
			t.Errorf("%s: reward %.9f, want %.6f", id, r.Reward, w)
		}
	}
}

// The expected numbers below are the tables of sample_data/examples/README.md,
// computed from docs/CONTRACT.md independently of the engine.
func TestSeedExamples(t *testing.T) {
	acc := "--objective=accuracy=metadata.accuracy"
	t.Run("absolute", func(t *testing.T) {
		assertRewards(t, computeRecords(t, acc, "--method", "absolute", "--no-normalize", example("absolute.jsonl")),
			map[string]float64{"a1": 1, "a2": 0.5, "a3": 0, "a4": 0.75})
		assertRewards(t, computeRecords(t, acc, "--method", "absolute", example("absolute.jsonl")),
			map[string]float64{"a1": 1.183216, "a2": -0.169031, "a3": -1.521278, "a4": 0.507093})
	})
	t.Run("relative and grpo", func(t *testing.T) {
		file := example("grpo.jsonl")
		assertRewards(t, computeRecords(t, acc, "--method", "relative", file),
			map[string]float64{"g1": 0, "g2": 1.485221, "g3": -1.485221, "g4": 0, "g5": 0.891133, "g6": -0.891133})
		assertRewards(t, computeRecords(t, acc, "--method", "grpo", file),
			map[string]float64{"g1": 0.163259, "g2": 1.142815, "g3": -1.306075, "g4": 0.163259, "g5": 0.897926, "g6": -1.061186})
		assertRewards(t, computeRecords(t, acc, "--method", "grpo", "--no-normalize", file),
			map[string]float64{"g1": 0.066667, "g2": 0.466667, "g3": -0.533333, "g4": 0.066667, "g5": 0.366667, "g6": -0.433333})
	})
	t.Run("svrl", func(t *testing.T) {
		assertRewards(t, computeRecords(t, "--computer", "svrl", "--method", "absolute", "--no-normalize", example("svrl.jsonl")),
			map[string]float64{"v1": 1.018, "v2": 0.96, "v3": 0.035, "v4": 1.025, "v5": -0.09})
	})
	t.Run("pareto", func(t *testing.T) {
		objs := []string{"--objective", "accuracy=metadata.accuracy", "--objective", "efficiency=metadata.efficiency", "--objective", "safety=metadata.safety"}
		recs := computeRecords(t, append(objs, "--method", "pareto", example("pareto.jsonl"))...)
		assertRewards(t, recs, map[string]float64{"p1": 0.707107, "p4": 0.707107, "p5": 0.707107, "p6": -0.707107, "p8": -2.121320})
		if recs["p4"].Crowding.(float64)-0.280423 > 5e-7 || recs["p5"].Crowding.(float64)-0.542328 > 5e-7 || recs["p1"].Crowding != "inf" {
			t.Errorf("crowding p1 %v p4 %v p5 %v", recs["p1"].Crowding, recs["p4"].Crowding, recs["p5"].Crowding)
		}
		if recs["p5"].ParetoRank != 0 || recs["p7"].ParetoRank != 1 || recs["p8"].ParetoRank != 2 {
			t.Errorf("ranks p5 %d p7 %d p8 %d", recs["p5"].ParetoRank, recs["p7"].ParetoRank, recs["p8"].ParetoRank)
		}
		recs = computeRecords(t, append(objs, "--method", "pareto-crowding", example("pareto.jsonl"))...)
		assertRewards(t, recs, map[string]float64{"p1": 1.125088, "p4": -0.225018, "p5": 0.225018, "p7": -0.900070, "p8": -1.575123})
	})
	t.Run("factory", func(t *testing.T) {
		assertRewards(t, computeRecords(t, "--config", example("factory.toml"), example("svrl.jsonl")),
			map[string]float64{"v1": 0.776976, "v2": 0.579670, "v3": -0.866103, "v4": 0.800788, "v5": -1.291331})
	})
}

func TestComputeGolden(t *testing.T) {
	sample := filepath.Join(repoRoot, "sample_data", "experiment.jsonl")
	config := filepath.Join(repoRoot, "sample_data", "experiment.toml")
	for _, format := range []string{"jsonl", "csv"} {
		t.Run(format, func(t *testing.T) {
			out, errOut, code := run(t, "", "compute", "--config", config, "--format", format, sample)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			if !strings.Contains(errOut, "3 invalid trajectories") || !strings.Contains(errOut, "accuracy: missing ×3") {
				t.Errorf("stderr does not report the 3 invalid rows: %q", errOut)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func TestStatsGolden(t *testing.T) {
	sample := filepath.Join(repoRoot, "sample_data", "experiment.jsonl")
	config := filepath.Join(repoRoot, "sample_data", "experiment.toml")
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			out, errOut, code := run(t, "", "stats", "--config", config, "--format", format, sample)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func TestOutputFormatsAgree(t *testing.T) {
	args := []string{"compute", "--computer", "svrl", "--method", "gdpo", example("svrl.jsonl")}
	jsonl, _, _ := run(t, "", args...)
	arr, _, _ := run(t, "", append(args, "--format", "json")...)
	var fromArray []record
	if err := json.Unmarshal([]byte(arr), &fromArray); err != nil {
		t.Fatalf("--format json is not a JSON array: %v\n%s", err, arr)
	}
	lines := strings.Split(strings.TrimSpace(jsonl), "\n")
	if len(lines) != len(fromArray) || len(lines) != 5 {
		t.Fatalf("%d lines, %d array elements, want 5", len(lines), len(fromArray))
	}
	csvOut, _, _ := run(t, "", append(args, "--format", "csv")...)
	rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := "id,batch,group,score,reward,pareto_rank,crowding,valid,task,verification_cost,efficiency"
	if got := strings.Join(rows[0], ","); got != wantHeader {
		t.Errorf("csv header %q, want %q", got, wantHeader)
	}
	for i, r := range fromArray {
		if rows[i+1][0] != r.ID || rows[i+1][4] != formatReward(r.Reward) {
			t.Errorf("row %d: csv %v, json %+v", i, rows[i+1], r)
		}
	}
}

func formatReward(x float64) string { return string(output.AppendJSONNumber(nil, x)) }

func TestInvalidTrajectoriesAreKept(t *testing.T) {
	in := `{"id":"a","metadata":{"x":1}}
{"id":"b","metadata":{"x":"high"}}
{"id":"c","metadata":{"x":3}}
`
	out, errOut, code := run(t, in, "compute", "--objective", "x=metadata.x", "--method", "absolute", "--no-normalize", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	want := `{"id":"a","batch":0,"group":"","score":1,"reward":1,"pareto_rank":1,"crowding":"inf","valid":true,"objectives":{"x":1}}
{"id":"b","batch":0,"group":"","score":null,"reward":2,"pareto_rank":-1,"crowding":null,"valid":false,"objectives":{"x":null}}
{"id":"c","batch":0,"group":"","score":3,"reward":3,"pareto_rank":0,"crowding":"inf","valid":true,"objectives":{"x":3}}
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(errOut, "1 invalid trajectory") || !strings.Contains(errOut, `x: not a number ×1 (first at <stdin>:2: the string "high")`) {
		t.Errorf("stderr %q does not count the invalid row per cause, with where the first was read", errOut)
	}
}

// TestInvalidEvaluationErrorSaysWhy: an expression's arithmetic on a
// string is an evaluation error whose count says why the first one failed
// and on which value, in compute's stderr and stats' table.
func TestInvalidEvaluationErrorSaysWhy(t *testing.T) {
	in := `{"id":"a","metadata":{"length":300}}
{"id":"b","metadata":{"length":"long"}}
{"id":"c","metadata":{"length":500}}
`
	const want = `length: evaluation error ×1 (first at <stdin>:2: invalid operation: string / int (length = "long"))`
	_, errOut, code := run(t, in, "compute", "--objective", "length=metadata.length / 1000", "--method", "absolute", "-")
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("compute: status %d, stderr %q, want %q", code, errOut, want)
	}
	out, errOut, code := run(t, in, "stats", "--objective", "length=metadata.length / 1000", "--method", "absolute", "-")
	if code != 0 || !strings.Contains(out, "invalid trajectories: "+want) {
		t.Errorf("stats: status %d, stdout %q, stderr %q, want %q", code, out, errOut, want)
	}
}

// TestStatsJSONInvalidCauses: stats' JSON says what its table's "invalid
// trajectories" line does: each cause, most frequent first, its count,
// where its first trajectory was read and why it was invalid (an
// evaluation error's message, a value that is not a number), the
// reason left out for a cause without one (missing); [] when none.
func TestStatsJSONInvalidCauses(t *testing.T) {
	in := `{"id":"a","metadata":{"length":300,"x":1}}
{"id":"b","metadata":{"length":"long","x":1}}
{"id":"c","metadata":{"length":500,"x":"high"}}
{"id":"d","metadata":{"length":"short","x":1}}
{"id":"e","metadata":{"length":400}}
`
	args := []string{"stats", "--format", "json", "--objective", "length=metadata.length / 1000", "--objective", "x=metadata.x", "--method", "absolute", "-"}
	out, errOut, code := run(t, in, args...)
	var report struct {
		InvalidCauses []map[string]any `json:"invalid_causes"`
	}
	if err := json.Unmarshal([]byte(out), &report); code != 0 || err != nil {
		t.Fatalf("status %d, %v: %s%s", code, err, out, errOut)
	}
	want := []map[string]any{
		{"cause": "length: evaluation error", "count": 2.0, "at": "<stdin>:2", "reason": `invalid operation: string / int (length = "long")`},
		{"cause": "x: missing", "count": 1.0, "at": "<stdin>:5"},
		{"cause": "x: not a number", "count": 1.0, "at": "<stdin>:3", "reason": `the string "high"`},
	}
	if !reflect.DeepEqual(report.InvalidCauses, want) {
		t.Errorf("invalid_causes %v, want %v", report.InvalidCauses, want)
	}
	out, _, _ = run(t, "{\"id\":\"a\",\"metadata\":{\"length\":300,\"x\":1}}\n", args...)
	if !strings.Contains(out, `"invalid_causes": []`) {
		t.Errorf("no invalid trajectory: %s", out)
	}
}

// TestInvalidAfterReadingSaysWhich: a cause found once the rows are read
// (a weighted score that overflows) names its first trajectory's line,
// which the reading kept seeing it overflow.
func TestInvalidAfterReadingSaysWhich(t *testing.T) {
	in := `{"id":"big","group":"g","metadata":{"a":1e308,"b":1e308}}
{"id":"ok","group":"g","metadata":{"a":1,"b":1}}
`
	_, errOut, code := run(t, in, "compute", "--objective", "a=metadata.a", "--objective", "b=metadata.b", "--weight", "a=2", "--weight", "b=2", "--method", "absolute", "-")
	if code != 0 || !strings.Contains(errOut, `score: infinite (the weighted sum overflows) ×1 (first at <stdin>:1)`) {
		t.Errorf("status %d, stderr %q", code, errOut)
	}
	out, _, _ := run(t, in, "stats", "--format", "json", "--objective", "a=metadata.a", "--objective", "b=metadata.b", "--weight", "a=2", "--weight", "b=2", "--method", "absolute", "-")
	if !strings.Contains(out, `"score: infinite (the weighted sum overflows)": "<stdin>:1"`) {
		t.Errorf("stats JSON lacks invalid_at of the overflow:\n%s", out)
	}
}

func TestBadInputAndUsage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.jsonl", `{"metadata":{"accuracy":1}}`+"\n")
	bad := write("bad.jsonl", `{"metadata":{"accuracy":1}}`+"\n"+`{"metadata":`+"\n")
	badType := write("type.jsonl", `{"step_count":"ten"}`+"\n")
	empty := write("empty.jsonl", "")
	unknownKey := write("cfg.toml", "methd = \"grpo\"\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown method", []string{"compute", "--method", "best", good}, "valid: " + names(engine.Methods)},
		{"unknown computer", []string{"compute", "--computer", "magic", good}, "valid: pareto, svrl"},
		{"unknown scope", []string{"compute", "--scope", "world", good}, "valid: group, batch"},
		{"unknown scale", []string{"compute", "--scale", "huge", good}, "valid: group, batch, none"},
		{"unknown format", []string{"compute", "--format", "xml", good}, "valid: jsonl, csv, json"},
		{"unknown flag", []string{"compute", "--methd", "grpo", good}, "unknown flag: --methd"},
		{"no files", []string{"compute"}, "no input files"},
		{"dashboard settings checked first", []string{"--method", "best", good}, "unknown method"},
		{"malformed line", []string{"compute", bad}, bad + ":2"},
		{"wrong type", []string{"compute", badType}, badType + ":1"},
		{"empty input", []string{"compute", empty}, "no trajectories in " + empty},
		{"missing file", []string{"stats", filepath.Join(dir, "nope.jsonl")}, "nope.jsonl"},
		{"bad expression", []string{"compute", "--objective", "a=metadata.accuracy +* 2", good}, `"metadata.accuracy +* 2": line 1, column 20`},
		{"weight of no objective", []string{"compute", "--objective", "a=accuracy", "--weight", "b=1", good}, `unknown objective "b"`},
		{"malformed weight", []string{"compute", "--weight", "a", good}, "want NAME=W"},
		{"config unknown key", []string{"compute", "--config", unknownKey, good}, "unknown key methd"},
		{"missing config", []string{"compute", "--config", filepath.Join(dir, "no.toml"), good}, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "", c.args...)
			if code != 2 {
				t.Errorf("status %d, want 2 (stderr %q)", code, errOut)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q does not contain %q", errOut, c.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

func TestSkipInvalidLines(t *testing.T) {
	in := "{\"metadata\":{\"accuracy\":1}}\nnot json\n{\"metadata\":{\"accuracy\":0}}\n{\"step_count\":-1}\n"
	out, errOut, code := run(t, in, "compute", "--skip-invalid-lines", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("%d records, want the 2 good lines", n)
	}
	for _, want := range []string{"skipped 2 invalid lines", "<stdin>:2", "<stdin>:4"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
}

func TestOutFileIsAtomicAndNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	original := `{"metadata":{"accuracy":1}}` + "\n"
	if err := os.WriteFile(in, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "compute", "--out", in, in)
	if code != 2 || !strings.Contains(errOut, "is an input") {
		t.Errorf("writing over the input: status %d, stderr %q", code, errOut)
	}
	if got, _ := os.ReadFile(in); string(got) != original {
		t.Errorf("input changed: %q", got)
	}
	out := filepath.Join(dir, "out.jsonl")
	if _, errOut, code := run(t, "", "compute", "--out", out, in); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	got, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(got), `{"id":"0","batch":0`) {
		t.Errorf("out file = %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestSeveralFilesDefaultBatches(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, line := range []string{`{"metadata":{"x":1}}`, `{"metadata":{"x":2}}`} {
		p := filepath.Join(dir, "step"+string(rune('0'+i))+".jsonl")
		if err := os.WriteFile(p, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out, _, code := run(t, "", append([]string{"compute", "--method", "absolute", "--no-normalize"}, files...)...)
	if code != 0 {
		t.Fatal(out)
	}
	if !strings.Contains(out, `"batch":0`) || !strings.Contains(out, `"batch":1`) {
		t.Errorf("file index is not the default batch:\n%s", out)
	}
}

// TestJSONKeepsAngleBrackets: a chat template's <|im_start|> stays as it
// is in compute's JSON lines, as a constraint's <= in stats --format json,
// so that a grep finds them; only what a terminal acts on is escaped.
func TestJSONKeepsAngleBrackets(t *testing.T) {
	in := `{"id":"a","group":"<|im_start|>user & me","metadata":{"x":1}}
{"id":"b","group":"<|im_start|>user & me","metadata":{"x":0}}
`
	out, errOut, code := run(t, in, "compute", "-")
	if code != 0 || !strings.Contains(out, `"group":"<|im_start|>user & me"`) {
		t.Errorf("compute: status %d, stdout %s, stderr %s: want the group written raw", code, out, errOut)
	}
	out, errOut, code = run(t, in, "stats", "--format", "json", "--constraint", "x <= 0.5", "-")
	if code != 0 || !strings.Contains(out, `"expr": "x <= 0.5"`) {
		t.Errorf("stats --format json: status %d, stdout %s, stderr %s: want the constraint's <= written raw", code, out, errOut)
	}
}

// TestInferredObjectivesSaid: without --objective, compute, stats and
// prompts say on stderr the objectives inferred from the first record and
// their goals (a length maximised is probably not meant); with them, they
// say nothing of the kind.
func TestInferredObjectivesSaid(t *testing.T) {
	in := `{"id":"a","group":"g","metadata":{"accuracy":1,"length":300}}
{"id":"b","group":"g","metadata":{"accuracy":0,"length":200}}
`
	for _, args := range [][]string{{"compute"}, {"stats"}, {"prompts"}} {
		_, errOut, code := run(t, in, append(args, "-")...)
		if want := "rewardlens: objectives inferred from the first record: accuracy, length (all max: --objective or --minimize to choose)\n"; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr %q, want %q", args[0], code, errOut, want)
		}
	}
	_, errOut, _ := run(t, in, "compute", "--minimize", "length", "-")
	if want := "accuracy, length (min) (the others max:"; !strings.Contains(errOut, want) {
		t.Errorf("compute --minimize length: stderr %q, want %q", errOut, want)
	}
	_, errOut, _ = run(t, in, "compute", "--objective", "accuracy=metadata.accuracy", "-")
	if strings.Contains(errOut, "inferred") {
		t.Errorf("compute --objective: stderr %q says objectives were inferred", errOut)
	}
}

// TestCorrelationFixedDecimals: the correlation matrix prints every
// correlation with 4 decimals, a small one too (it was 4.904e-04 beside
// 0.0031, the columns out of line).
func TestCorrelationFixedDecimals(t *testing.T) {
	var out strings.Builder
	corr := [][]number{{1, 4.904e-04, -0.0232}, {4.904e-04, 1, -3e-5}, {-0.0232, -3e-5, 1}}
	if err := writeCorrelation(&out, []string{"a", "b", "c"}, corr); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")[2:]
	want := [][]string{{"a", "1.0000", "0.0005", "-0.0232"}, {"b", "0.0005", "1.0000", "0.0000"}, {"c", "-0.0232", "0.0000", "1.0000"}}
	for i, row := range rows {
		if !slices.Equal(strings.Fields(row), want[i]) {
			t.Errorf("row %d: %q, want %q:\n%s", i, row, want[i], out.String())
		}
	}
}
