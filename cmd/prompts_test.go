package cmd

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// promptRecord is a record of rewardlens prompts.
type promptRecord struct {
	Prompt      string        `json:"prompt"`
	Steps       int           `json:"steps"`
	FirstStep   int64         `json:"first_step"`
	LastStep    int64         `json:"last_step"`
	History     [][4]*float64 `json:"history"`
	FirstSolved *int64        `json:"first_solved"`
	Status      string        `json:"status"`
}

func readPrompts(t *testing.T, out string) map[string]promptRecord {
	t.Helper()
	got := map[string]promptRecord{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r promptRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got[r.Prompt] = r
	}
	return got
}

// TestPromptsVerl reads the sample verl dumps: prompt = input, task metric
// acc (true/false), and checks each prompt's history, first_solved and
// status against the dumps read by hand.
func TestPromptsVerl(t *testing.T) {
	out, errOut, code := run(t, "", "prompts", verlDir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "task metric acc, a completion passes at >= 1; 4 prompts: never 1, always 0, learned 1, forgotten 0, solved 2, unsolved 0, unstable 0") {
		t.Errorf("stderr %q lacks the counts", errOut)
	}
	got := readPrompts(t, out)
	byQuestion := func(q string) promptRecord {
		for k, r := range got {
			if strings.Contains(k, q) {
				return r
			}
		}
		t.Fatalf("no prompt %q", q)
		return promptRecord{}
	}
	// "12 + 30": 0 of 4 pass at step 1, 2 of 4 at step 2, 1 of 1 at step 3.
	r := byQuestion("12 + 30")
	if r.Status != "learned" || r.FirstSolved == nil || *r.FirstSolved != 2 || r.Steps != 3 || r.FirstStep != 1 || r.LastStep != 3 {
		t.Errorf("12 + 30: %+v, want learned, first solved 2, steps 1-3", r)
	}
	if h := r.History[1]; *h[0] != 2 || *h[1] != 4 || *h[2] != 0.5 || *h[3] != -0.125 {
		t.Errorf("12 + 30 at step 2: %v, want [2 4 0.5 -0.125]", []float64{*h[0], *h[1], *h[2], *h[3]})
	}
	// "2 ** 10": one wrong completion at step 3, its only step.
	if r := byQuestion("2 ** 10"); r.Status != "never" || r.FirstSolved != nil || r.Steps != 1 {
		t.Errorf("2 ** 10: %+v, want never, first solved null, one step", r)
	}
	if r := byQuestion("7 * 8"); r.Status != "solved" || *r.FirstSolved != 1 {
		t.Errorf("7 * 8: %+v, want solved from step 1", r)
	}
}

// TestPromptsVerlUID: verl's V1 dump groups by uid, new every step; the
// prompt is input, so a prompt asked at both steps is followed across
// them, while by the group each is seen once.
func TestPromptsVerlUID(t *testing.T) {
	dir := filepath.Join("testdata", "verl", "v1_uid", "dump")
	out, errOut, code := run(t, "", "prompts", "--task-metric", "score", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if r, ok := readPrompts(t, out)["system\nYou are a helpful assistant.\nuser\nName a prime.\nassistant\n"]; !ok || r.Steps != 2 {
		t.Errorf("Name a prime: %+v, want it seen at both steps (prompt = input)", r)
	}
	out, errOut, code = run(t, "", "prompts", "--task-metric", "score", "--prompt-by", "group", dir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	for _, r := range readPrompts(t, out) {
		if r.Steps != 1 {
			t.Errorf("by group %q: seen at %d steps, want 1 (uid changes every step)", r.Prompt, r.Steps)
		}
	}
}

// TestPromptsTRL checks the histories of TRL's completions (prompt =
// prompt, task metric its first reward column, None rewards left out)
// against the pass rates counted from the records themselves.
func TestPromptsTRL(t *testing.T) {
	out, errOut, code := run(t, "", "prompts", "--format", "json", trlDir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var records []promptRecord
	if err := json.Unmarshal([]byte(out), &records); err != nil {
		t.Fatal(err)
	}
	data, err := loaders.Load([]string{trlDir}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type cell struct {
		prompt string
		step   float64
	}
	n, passed := map[cell]float64{}, map[cell]float64{}
	for _, tr := range data.Trajectories {
		x, ok := tr.Metadata["accuracy_reward"].(float64)
		if !ok {
			continue // None: left out
		}
		c := cell{tr.Metadata["prompt"].(string), tr.Metadata["step"].(float64)}
		n[c]++
		if x >= 1 {
			passed[c]++
		}
	}
	points := 0
	for _, r := range records {
		for _, h := range r.History {
			c := cell{r.Prompt, *h[0]}
			if *h[1] != n[c] || math.Abs(*h[2]-passed[c]/n[c]) > 1e-12 {
				t.Errorf("%q step %v: n %v pass rate %v, want %v, %v", r.Prompt, *h[0], *h[1], *h[2], n[c], passed[c]/n[c])
			}
			points++
		}
	}
	if points != len(n) || len(records) != 3 {
		t.Errorf("%d prompts, %d points, want 3 prompts and %d points", len(records), points, len(n))
	}
}

// computeRecord is what the filter tests read of compute's records.
type computeRecord struct {
	ID         string              `json:"id"`
	Batch      int64               `json:"batch"`
	Group      string              `json:"group"`
	Reward     float64             `json:"reward"`
	Valid      bool                `json:"valid"`
	Kept       *bool               `json:"kept"`
	Objectives map[string]*float64 `json:"objectives"`
}

func readCompute(t *testing.T, out string) []computeRecord {
	t.Helper()
	var recs []computeRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r computeRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// checkFilter runs compute --filter-groups objective on input and checks
// each record's kept mark against the spread of the objective's values in
// its group (kept when they vary, or the group has fewer than two; the
// records absent names have none: a None reward under nansum), and a
// dropped record's reward 0. It returns the records and how many were
// dropped.
func checkFilter(t *testing.T, input, objective string, absent map[int]bool, extra ...string) ([]computeRecord, int) {
	t.Helper()
	args := append(append([]string{"compute", "--filter-groups", objective}, extra...), input)
	out, errOut, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "--filter-groups "+objective+": ") {
		t.Errorf("stderr %q does not say what the filter dropped", errOut)
	}
	recs := readCompute(t, out)
	type key struct {
		batch int64
		group string
	}
	values := map[key][]float64{}
	for i, r := range recs {
		if v := r.Objectives[objective]; r.Valid && v != nil && !absent[i] {
			values[key{r.Batch, r.Group}] = append(values[key{r.Batch, r.Group}], *v)
		}
	}
	dropped := 0
	for _, r := range recs {
		vs := values[key{r.Batch, r.Group}]
		spread := false
		for _, v := range vs {
			spread = spread || v != vs[0]
		}
		want := spread || len(vs) < 2
		if r.Kept == nil || *r.Kept != want {
			t.Fatalf("%s (group values %v): kept %v, want %v", r.ID, vs, r.Kept, want)
		}
		if !want {
			dropped++
			if r.Reward != 0 {
				t.Errorf("%s dropped: reward %v, want 0", r.ID, r.Reward)
			}
		}
	}
	return recs, dropped
}

// TestFilterGroupsVerl: the sample verl dumps drop their all-right and
// all-wrong groups; verl's DAPO dump, filtered on the objective score (the
// dump's score plus the overlong penalty, which varies in every group),
// keeps every group.
func TestFilterGroupsVerl(t *testing.T) {
	if _, dropped := checkFilter(t, verlDir, "score", nil); dropped != 8 {
		t.Errorf("sample verl: %d dropped, want 8 (the all-wrong group of 4 at step 1, the all-right one at step 2; the groups of one at step 3 stay)", dropped)
	}
	dapo := filepath.Join("testdata", "verl", "dapo_overlong", "dump")
	if _, dropped := checkFilter(t, dapo, "score", nil); dropped != 0 {
		t.Errorf("DAPO dump: %d dropped, want none: the penalty varies in every group", dropped)
	}
}

// TestFilterGroupsTRL: hand-built TRL completions (prompt, completion,
// step, a reward column per function), filtered on accuracy_reward: the
// all-wrong group is dropped though format_reward varies in it, a None
// accuracy is no value (so a group of one value and a None is kept), and
// the kept records' rewards are compute's on the kept records alone.
func TestFilterGroupsTRL(t *testing.T) {
	line := func(prompt string, step int, acc any, format float64) string {
		b, _ := json.Marshal(map[string]any{"prompt": prompt, "completion": "c", "step": step, "accuracy_reward": acc, "format_reward": format})
		return string(b) + "\n"
	}
	all := []string{
		line("p1", 1, 1.0, 0), line("p1", 1, 0.0, 1), line("p1", 1, 1.0, 1), // varies: kept
		line("p2", 1, 0.0, 0), line("p2", 1, 0.0, 1), line("p2", 1, 0.0, 0.5), // all wrong: dropped
		line("p3", 1, 1.0, 0), line("p3", 1, nil, 1), line("p3", 1, 1.0, 1), // one value twice: dropped
		line("p4", 2, 0.0, 1), line("p4", 2, nil, 0), // one value: kept
		line("p1", 2, 1.0, 1), line("p1", 2, 0.0, 0),
	}
	kept := []bool{true, true, true, false, false, false, false, false, false, true, true, true, true}
	dir := t.TempDir()
	in := filepath.Join(dir, "completions.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(all, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, dropped := checkFilter(t, in, "accuracy_reward", map[int]bool{7: true, 10: true}, "--from", "trl", "--scale", "batch")
	if dropped != 6 {
		t.Errorf("%d dropped, want 6", dropped)
	}
	var keptLines []string
	for i, k := range kept {
		if *recs[i].Kept != k {
			t.Errorf("record %d: kept %v, want %v", i, *recs[i].Kept, k)
		}
		if k {
			keptLines = append(keptLines, all[i])
		}
	}
	checkTRLDeadSignal(t, in)
	out, errOut, code := run(t, "", "compute", "--format", "csv", "--filter-groups", "accuracy_reward", "--from", "trl", in)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if col := slices.Index(rows[0], "kept"); col != 8 || rows[4][col] != "false" || rows[1][col] != "true" || rows[4][4] != "0" {
		t.Errorf("CSV header %v, rows %v: want kept after valid, p2's row dropped with reward 0", rows[0], rows[1:5])
	}
	alone := filepath.Join(dir, "kept.jsonl")
	if err := os.WriteFile(alone, []byte(strings.Join(keptLines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run(t, "", "compute", "--from", "trl", "--scale", "batch", alone)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	j := 0
	for i, r := range readCompute(t, out) {
		for !kept[j] {
			j++
		}
		if math.Abs(r.Reward-recs[j].Reward) > 1e-12 {
			t.Errorf("kept record %d: reward %v with the filter, %v computed alone", i, recs[j].Reward, r.Reward)
		}
		j++
	}
}

// checkTRLDeadSignal checks stats' dead signal on TestFilterGroupsTRL's
// completions, task metric accuracy_reward. Step 1: p1 (accuracy 1, 0, 1)
// has signal; p2 (0, 0, 0, format 0, 1, 0.5) is all-fail while its scores
// vary, a phantom; p3 (1, None, 1) is neither. p = 4 of 8 known = 0.5,
// expected mean over 3 groups of 3 of 0.5^3 + 0.5^3 = 0.25. Step 2: p4
// (0, None) and p1 (1, 0), p = 1/3, expected (1/3)^2 + (2/3)^2 = 5/9.
func checkTRLDeadSignal(t *testing.T, in string) {
	t.Helper()
	out, errOut, code := run(t, "", "stats", "--format", "json", "--health", "--task-metric", "accuracy_reward", in)
	if code != 3 {
		t.Fatalf("status %d, want 3 (phantom_signal ALERT): %s", code, errOut)
	}
	var report struct {
		Batches []struct {
			DeadSignal struct {
				Groups, ZeroSpread, Phantom int
				PassRate                    float64 `json:"pass_rate"`
				DeadShare                   float64 `json:"dead_share"`
				ExpectedDeadShare           float64 `json:"expected_dead_share"`
			} `json:"dead_signal"`
		} `json:"batches"`
		Health struct {
			Findings []struct{ Check, Level string } `json:"findings"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		groups, zero, phantom int
		p, dead, expected     float64
	}{
		{3, 0, 1, 0.5, 1.0 / 3, 0.25},
		{2, 0, 0, 1.0 / 3, 0, 5.0 / 9},
	}
	for b, w := range want {
		d := report.Batches[b].DeadSignal
		if d.Groups != w.groups || d.ZeroSpread != w.zero || d.Phantom != w.phantom || math.Abs(d.PassRate-w.p) > 1e-12 || math.Abs(d.DeadShare-w.dead) > 1e-12 || math.Abs(d.ExpectedDeadShare-w.expected) > 1e-12 {
			t.Errorf("step %d: %+v, want %+v", b+1, d, w)
		}
	}
	found := false
	for _, f := range report.Health.Findings {
		found = found || f.Check == "phantom_signal" && f.Level == "ALERT"
	}
	if !found {
		t.Errorf("findings %+v, want phantom_signal's ALERT (1 of 3 groups)", report.Health.Findings)
	}
}

// TestComputePromptFlags: compute checks the prompt flags as stats does
// (a bad value is the same usage error) and warns that it ignores a
// good one, which changes no reward; three are listed with commas.
func TestComputePromptFlags(t *testing.T) {
	in := filepath.Join(writeFiles(t, map[string]string{"r.jsonl": `{"group":"a","batch":1,"metadata":{"acc":1}}` + "\n" + `{"group":"a","batch":1,"metadata":{"acc":0}}` + "\n"}), "r.jsonl")
	for _, c := range []struct{ flag, value, want string }{
		{"--pass-threshold", "NaN", "--pass-threshold NaN: want a finite number"},
		{"--prompt-by", "metadata.", `expression prompt_by = "metadata.": line 1, column 9: unexpected end of expression`},
		{"--task-metric", "acc +", `expression task_metric = "acc +": line 1, column 5: unexpected token EOF`},
	} {
		for _, command := range []string{"stats", "compute"} {
			out, errOut, code := run(t, "", command, c.flag, c.value, in)
			checkBadInput(t, out, errOut, code, c.want)
		}
	}
	out, errOut, code := run(t, "", "compute", "--task-metric", "acc_", "--pass-threshold", "0.5", in)
	if want := "rewardlens: warning: --task-metric acc_ and --pass-threshold 0.5 ignored: compute does not analyse the prompts (stats, prompts and the dashboard do)\n"; code != 0 || out == "" || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stderr lacks %q: %s", code, want, errOut)
	}
	_, errOut, _ = run(t, "", "compute", "--prompt-by", "group", "--task-metric", "acc_", "--pass-threshold", "0.5", in)
	if want := "rewardlens: warning: --prompt-by group, --task-metric acc_ and --pass-threshold 0.5 ignored:"; !strings.Contains(errOut, want) {
		t.Errorf("three flags: stderr lacks %q: %s", want, errOut)
	}
	if _, errOut, _ := run(t, "", "compute", in); strings.Contains(errOut, "ignored") {
		t.Errorf("no prompt flag: %s", errOut)
	}
}

// TestPromptsBadInput: a prompt expression that fails is an error at its
// record's line; a task metric no record has, "did you mean"; a one-step
// prompt takes its status from that step (TestPromptsVerl's 2 ** 10).
func TestPromptsBadInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "r.jsonl")
	text := `{"group":"a","batch":1,"metadata":{"acc":1,"q":"x"}}` + "\n" + `{"group":"a","batch":1,"metadata":{"acc":0}}` + "\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "prompts", "--prompt-by", "q", in)
	checkBadInput(t, out, errOut, code, in+`:2: prompt_by "q": missing`)
	out, errOut, code = run(t, "", "prompts", "--task-metric", "acc_", in)
	checkBadInput(t, out, errOut, code, `task metric "acc_": no trajectory has it as a finite number; did you mean acc?`)
	out, errOut, code = run(t, "", "prompts", "--pass-threshold", "NaN", in)
	checkBadInput(t, out, errOut, code, "--pass-threshold NaN: want a finite number")
	out, errOut, code = run(t, "", "prompts", "--format", "yaml", in)
	checkBadInput(t, out, errOut, code, `unknown --format "yaml"`)
	out, errOut, code = run(t, "", "compute", "--filter-groups", "ac", in)
	checkBadInput(t, out, errOut, code, `--filter-groups "ac": not an objective; did you mean acc? (objectives: acc)`)
	// Where the filter is not applied yet, it is refused, not ignored.
	out, errOut, code = run(t, "", "stats", "--follow", "--filter-groups", "acc", in)
	checkBadInput(t, out, errOut, code, `--filter-groups "acc": stats --follow does not apply the group filter yet`)
}

// TestPromptByMisnamed: a prompt expression that reads a field the first
// record lacks is the setting's mistake, said by its key at its line in a
// config file, or as --prompt-by's, with "did you mean"; a later record
// that lacks it is the record's (TestPromptsBadInput).
func TestPromptByMisnamed(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.jsonl":  `{"group":"a","batch":1,"metadata":{"acc":1,"question":"x"}}` + "\n" + `{"group":"a","batch":1,"metadata":{"acc":0,"question":"x"}}` + "\n",
		"cfg.toml": "method = \"grpo\"\nprompt_by = \"questin\"\n",
	})
	in, config := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "cfg.toml")
	out, errOut, code := run(t, "", "stats", "--config", config, in)
	checkBadInput(t, out, errOut, code, config+`:2: prompt_by "questin": the first record (`+in+`:1) has no field questin; did you mean question?`)
	out, errOut, code = run(t, "", "prompts", "--prompt-by", "questin", in)
	checkBadInput(t, out, errOut, code, `--prompt-by "questin": the first record (`+in+`:1) has no field questin; did you mean question?`)
}

// TestPromptsFormats: CSV and --out (atomic, as compute's).
func TestPromptsFormats(t *testing.T) {
	target := filepath.Join(t.TempDir(), "prompts.csv")
	_, errOut, code := run(t, "", "prompts", "--format", "csv", "--out", target, verlDir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	text, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(text))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || strings.Join(rows[0], ",") != "prompt,steps,first_step,last_step,first_solved,status,history" ||
		strings.Join(rows[4][1:], " ") != "1 3 3  never [[3,1,0,-1]]" || !strings.Contains(rows[4][0], "2 ** 10") {
		t.Errorf("CSV %q", text)
	}
}

// TestPromptsConfigKeys: the settings come from a config file as well
// (prompt_by, task_metric, pass_threshold, filter_groups), flags over
// them: at a threshold of -1 every completion of the sample verl dumps
// passes its score (-1 at worst), so every prompt is always; at 1, step 1
// drops its all-wrong group of 4 of 12.
func TestPromptsConfigKeys(t *testing.T) {
	config := filepath.Join(t.TempDir(), "prompts.toml")
	text := "prompt_by = \"input\"\ntask_metric = \"score\"\npass_threshold = -1\nfilter_groups = \"score\"\n"
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "prompts", "--config", config, verlDir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "task metric score, a completion passes at >= -1; 4 prompts: never 0, always 4,") || strings.Count(out, `"status":"always"`) != 4 {
		t.Errorf("stderr %q, out %q: want every prompt always passing", errOut, out)
	}
	out, errOut, code = run(t, "", "stats", "--config", config, "--pass-threshold", "1", verlDir)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	for _, want := range []string{"task metric score, a completion passes at >= 1;", "filter-groups score: kept 2 groups, dropped 1, effective batch 8 of 12"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}
}

// TestStatsDefaultTaskMetricMissing: stats' default task metric, the
// first objective, that no trajectory has as a number (NaN everywhere,
// the other objective valid) is warned of and its parts left out; named,
// or for prompts, it is an error.
func TestStatsDefaultTaskMetricMissing(t *testing.T) {
	in := filepath.Join(t.TempDir(), "r.jsonl")
	text := `{"group":"a","metadata":{"a":NaN,"b":1}}` + "\n" + `{"group":"a","metadata":{"a":NaN,"b":0}}` + "\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--objective", "a=a", "--objective", "b=b", "--nansum", in}
	out, errOut, code := run(t, "", append([]string{"stats"}, args...)...)
	if code != 0 || !strings.Contains(errOut, `warning: task metric "a": no trajectory has it as a finite number`) || strings.Contains(out, "dead signal") {
		t.Errorf("stats: status %d, stderr %q, out %q: want a warning and no dead signal", code, errOut, out)
	}
	out, errOut, code = run(t, "", append([]string{"prompts"}, args...)...)
	checkBadInput(t, out, errOut, code, `task metric "a": no trajectory has it as a finite number`)
	out, errOut, code = run(t, "", append([]string{"stats", "--task-metric", "a"}, args...)...)
	checkBadInput(t, out, errOut, code, `task metric "a": no trajectory has it as a finite number`)
}

// TestFilterGroupsTRLFiles: TRL's own completions (Parquet, written by
// TRL's code). The sample's think_format_reward is constant in two groups
// of 4, which are dropped; the fixtures of cmd/testdata/trl have no group
// of constant accuracy, so the filter keeps all and changes no reward.
func TestFilterGroupsTRLFiles(t *testing.T) {
	if _, dropped := checkFilter(t, trlDir, "think_format_reward", nil); dropped != 8 {
		t.Errorf("TRL sample: %d dropped, want the 8 of two groups", dropped)
	}
	for _, fixture := range []string{"group", "scale_batch", "reward_weights", "log_extra"} {
		dir := filepath.Join("testdata", "trl", fixture, "completions")
		recs, dropped := checkFilter(t, dir, "accuracy_reward", nil)
		if dropped != 0 {
			t.Errorf("%s: %d dropped, want none", fixture, dropped)
		}
		out, errOut, code := run(t, "", "compute", dir)
		if code != 0 {
			t.Fatalf("status %d: %s", code, errOut)
		}
		unfiltered := readCompute(t, out)
		for i, r := range recs {
			if r.Reward != unfiltered[i].Reward {
				t.Errorf("%s %s: reward %v with a filter that drops nothing, %v without", fixture, r.ID, r.Reward, unfiltered[i].Reward)
			}
		}
	}
}
