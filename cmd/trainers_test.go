package cmd

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	verlDir = filepath.Join(repoRoot, "sample_data", "verl")
	trlDir  = filepath.Join(repoRoot, "sample_data", "trl", "completions")
)

// verlRow is what the verl reference below reads of a rollout dump line.
type verlRow struct {
	Input string  `json:"input"`
	Score float64 `json:"score"`
	Step  int64   `json:"step"`
}

// verlGRPO is verl's compute_grpo_outcome_advantage
// (verl/trainer/ppo/core_algos.py) on rows, in float64: per group of
// index (here the prompt, within a step), mean and torch.std (sample) of
// the scores, or mean 0 and std 1 for a group of one; then
// (score - mean) / (std + epsilon).
func verlGRPO(rows []verlRow, epsilon float64) []float64 {
	type key struct {
		step  int64
		input string
	}
	scores := map[key][]float64{}
	for _, r := range rows {
		k := key{r.Step, r.Input}
		scores[k] = append(scores[k], r.Score)
	}
	out := make([]float64, len(rows))
	for i, r := range rows {
		s := scores[key{r.Step, r.Input}]
		mean, std := 0.0, 1.0
		if len(s) > 1 {
			mean = 0
			for _, x := range s {
				mean += x
			}
			mean /= float64(len(s))
			ss := 0.0
			for _, x := range s {
				ss += (x - mean) * (x - mean)
			}
			std = math.Sqrt(ss / float64(len(s)-1))
		}
		out[i] = (r.Score - mean) / (std + epsilon)
	}
	return out
}

// readVerl reads the fixture's rows, files in step order.
func readVerl(t *testing.T) []verlRow {
	t.Helper()
	var rows []verlRow
	for _, name := range []string{"1.jsonl", "2.jsonl", "3.jsonl"} {
		f, err := os.Open(filepath.Join(verlDir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r verlRow
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r)
		}
		f.Close()
	}
	return rows
}

// TestVerlRolloutDumps runs compute on verl's rollout dumps with no flag:
// the layout brings verl's method, and every reward is verl's GRPO
// advantage (epsilon 1e-6, a group of one as verl has it).
func TestVerlRolloutDumps(t *testing.T) {
	recs, errOut := computeList(t, "", verlDir)
	if !strings.Contains(errOut, "rewardlens: read as verl rollout dumps: group = input, batch = step, objective score; method grpo, epsilon 1e-06, a group of one: score, score in float32\n") {
		t.Errorf("stderr does not say how the dumps are read: %q", errOut)
	}
	rows := readVerl(t)
	want := verlGRPO(rows, 1e-6)
	if len(recs) != len(rows) {
		t.Fatalf("%d records, want %d", len(recs), len(rows))
	}
	for i, r := range recs {
		if math.Abs(r.Reward-want[i]) > 1e-12 || r.Batch != rows[i].Step || r.Group != rows[i].Input || !r.Valid {
			t.Errorf("record %d: reward %.17g batch %d group %.30q valid %v, want %.17g, %d, %.30q", i, r.Reward, r.Batch, r.Group, r.Valid, want[i], rows[i].Step, rows[i].Input)
		}
	}
	// By hand: step 1's first prompt scored 1, -1, 1, 1 (rows 0, 3, 6,
	// 9: interleaved): mean 0.5, sample std 1.
	for i, w := range map[int]float64{0: 0.5 / (1 + 1e-6), 3: -1.5 / (1 + 1e-6), 6: 0.5 / (1 + 1e-6), 9: 0.5 / (1 + 1e-6)} {
		if math.Abs(recs[i].Reward-w) > 1e-15 {
			t.Errorf("record %d: reward %.17g, want %.17g", i, recs[i].Reward, w)
		}
	}
	// Step 3's groups of one, scored 1 and -1: s / (1 + 1e-6).
	var ones []float64
	for i, r := range rows {
		if r.Step == 3 && (strings.Contains(r.Input, "12 + 30") || strings.Contains(r.Input, "2 ** 10")) {
			ones = append(ones, recs[i].Reward)
		}
	}
	if len(ones) != 2 || math.Abs(ones[0]-1/(1+1e-6)) > 1e-15 || math.Abs(ones[1]+1/(1+1e-6)) > 1e-15 {
		t.Errorf("groups of one: %v, want ±1/(1+1e-6)", ones)
	}

	// verl's RLOO (compute_rloo_outcome_advantage): a group of one keeps
	// its score. acc, a JSON bool, counts 1 or 0.
	recs, _ = computeList(t, "", "--method", "rloo", "--objective", "acc=acc", verlDir)
	for i, r := range rows {
		acc := 0.0
		if r.Score > 0 {
			acc = 1
		}
		if got := *recs[i].Objectives["acc"]; got != acc {
			t.Fatalf("record %d: acc %v, want %v", i, got, acc)
		}
	}
	alone := -1 // the row of "2 ** 10", answered wrong, alone in its group
	for i, r := range rows {
		if strings.Contains(r.Input, "2 ** 10") {
			alone = i
		}
	}
	if recs[alone].Reward != 0 {
		t.Errorf("rloo of a group of one scored 0: %v", recs[alone].Reward)
	}

	// Flags override the layout's defaults.
	recs, errOut = computeList(t, "", "--epsilon", "1e-5", "--group-of-one", "zero", verlDir)
	if math.Abs(recs[0].Reward-0.5/(1+1e-5)) > 1e-15 || recs[alone].Reward != 0 {
		t.Errorf("--epsilon 1e-5 --group-of-one zero: %v, %v", recs[0].Reward, recs[alone].Reward)
	}
	if !strings.Contains(errOut, "; method grpo, epsilon 1e-05, score in float32\n") {
		t.Errorf("the layout sentence does not say the epsilon in use: %q", errOut)
	}
}

// TestLayoutMethodOverridden: --method and the config's method override
// the method a layout brings, and the sentence then says no setting the
// method does not use (pareto has no epsilon).
func TestLayoutMethodOverridden(t *testing.T) {
	config := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(config, []byte("method = \"rloo\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "pareto", verlDir}, "objective score; method pareto, score in float32\n"},
		{[]string{"--config", config, verlDir}, "objective score; method rloo, a group of one: score, score in float32\n"},
		{[]string{"--config", config, "--method", "gdpo", verlDir}, "objective score; method gdpo, epsilon 1e-06, score in float32\n"},
		{[]string{"--method", "pareto", trlDir}, "logged advantage = advantage; method pareto, score in float32\n"},
	} {
		if _, errOut := computeList(t, "", c.args...); !strings.Contains(errOut, c.want) {
			t.Errorf("%q: stderr %q, want it to end %q", c.args, errOut, c.want)
		}
	}
}

// TestTRLCompletions runs compute on TRL's completions with no flag (the
// layout brings TRL's method, grpo): every reward is the advantage TRL logged, to 1e-6 (TRL
// computes in float32), a null reward adding nothing and a row without
// any reward at 0.
func TestTRLCompletions(t *testing.T) {
	recs, errOut := computeList(t, "", trlDir)
	if !strings.Contains(errOut, "read as TRL completions: group = prompt, batch = step, objectives accuracy_reward, think_format_reward, a null reward adds nothing, logged advantage = advantage; method grpo, score in float32\n") {
		t.Errorf("stderr does not say how the completions are read: %q", errOut)
	}
	if len(recs) != 36 {
		t.Fatalf("%d records, want 36", len(recs))
	}
	invalid := 0
	for i, r := range recs {
		if r.Logged == nil {
			t.Fatalf("record %d has no logged_advantage", i)
		}
		if d := math.Abs(r.Reward - *r.Logged); d > 1e-6 {
			t.Errorf("record %d (batch %d): reward %.9g, TRL logged %.9g", i, r.Batch, r.Reward, *r.Logged)
		}
		if _, ok := r.Objectives["advantage"]; ok || len(r.Objectives) != 2 {
			t.Errorf("record %d: objectives %v", i, r.Objectives)
		}
		if !r.Valid {
			invalid++
		}
	}
	if invalid != 1 {
		t.Errorf("%d invalid rows, want the one whose every reward is null", invalid)
	}

	// stats compares them per batch.
	out, _, code := run(t, "", "stats", "--method", "grpo", "--format", "json", trlDir)
	if code != 0 {
		t.Fatalf("stats: status %d", code)
	}
	var report struct {
		Batches []struct {
			Batch  int64
			Logged *struct {
				Rows        int     `json:"rows"`
				MaxAbsDiff  float64 `json:"max_abs_diff"`
				MeanAbsDiff float64 `json:"mean_abs_diff"`
				Differing   int     `json:"differing"`
			} `json:"logged_advantage"`
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Batches) != 3 {
		t.Fatalf("%d batches, want 3", len(report.Batches))
	}
	for _, b := range report.Batches {
		rows := 12
		if b.Batch == 3 {
			rows = 11 // one row invalid: compared are the valid ones
		}
		if l := b.Logged; l == nil || l.Rows != rows || l.Differing != 0 || l.MaxAbsDiff > 1e-6 || l.MeanAbsDiff > l.MaxAbsDiff {
			t.Errorf("batch %d: %+v", b.Batch, b.Logged)
		}
	}
	// With pareto rewards, the trainer's advantages differ, and the table says so.
	out, _, _ = run(t, "", "stats", "--method", "pareto", trlDir)
	if !strings.Contains(out, "reward vs logged advantage: 12 rows, max |diff|") || strings.Contains(out, ", 0 differ by more than") {
		t.Errorf("stats table:\n%s", out)
	}
}

// TestLayoutRecognition checks --from and the recognition's errors.
func TestLayoutRecognition(t *testing.T) {
	verlLine := `{"input": "q", "output": "a", "gts": "1", "score": 1.0, "step": 1, "acc": true}` + "\n"
	noInput := `{"output": "a", "gts": "1", "score": 1.0, "step": 1}` + "\n"
	plain := `{"id":"a","group":"g","metadata":{"x":1}}` + "\n"
	neither := `{"question":"q","answer":"a","reward":1}` + "\n"
	dir := writeFiles(t, map[string]string{"verl.jsonl": verlLine, "noinput.jsonl": noInput, "plain.jsonl": plain, "neither.jsonl": neither})
	at := func(name string) string { return filepath.Join(dir, name) }
	mixed := writeFiles(t, map[string]string{"1.jsonl": verlLine, "2.jsonl": plain})

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "verl", at("neither.jsonl")}, at("neither.jsonl") + ": not a verl rollout dump (--from verl): it has fields answer, question, reward, a verl rollout dump has input, output, score, step"},
		{[]string{"--from", "trl", at("verl.jsonl")}, at("verl.jsonl") + ": not TRL completions (--from trl)"},
		{[]string{"--from", "trl", verlDir}, filepath.Join(verlDir, "1.jsonl") + ": not TRL completions"},
		{[]string{"--from", "verl", trlDir}, "completions_00001.parquet: not a verl rollout dump"},
		{[]string{"--from", "verl", at("plain.jsonl")}, "not a verl rollout dump"},
		{[]string{at("noinput.jsonl")}, at("noinput.jsonl") + `: a verl rollout dump without "input" or "uid": its rows cannot be grouped by prompt (give --group-by EXPR)`},
		{[]string{mixed}, "mixed layouts: " + filepath.Join(mixed, "1.jsonl") + " is a verl rollout dump, " + filepath.Join(mixed, "2.jsonl") + " is plain rewardlens records"},
		{[]string{verlDir, trlDir}, "mixed layouts: "},
		{[]string{"--from", "verl2", verlDir}, `unknown --from "verl2"; did you mean verl? (valid: auto, trl, verl, open-instruct, plain)`},
		{[]string{"--epsilon", "0", verlDir}, "epsilon 0: must be a positive finite number"},
		{[]string{"--group-of-one", "one", verlDir}, `unknown group of one "one" (valid: zero, score)`},
	} {
		out, errOut, code := run(t, "", append([]string{"compute"}, c.args...)...)
		checkBadInput(t, out, errOut, code, c.want)
	}

	// A verl dump without input is fine once told how to group; plain
	// records and files of neither layout are read as they are.
	recs, errOut := computeList(t, "", "--method", "grpo", "--group-by", "gts", at("noinput.jsonl"))
	if recs[0].Group != "1" || recs[0].Batch != 1 || !strings.Contains(errOut, "group = gts") {
		t.Errorf("--group-by gts: %+v, %q", recs[0], errOut)
	}
	for _, name := range []string{"plain.jsonl", "neither.jsonl"} {
		if _, errOut := computeList(t, "", at(name)); strings.Contains(errOut, "read as") {
			t.Errorf("%s: %q", name, errOut)
		}
	}
	// --from plain reads verl's dumps as records: no group, batch = file.
	recs, errOut = computeList(t, "", "--from", "plain", "--objective", "score=score", verlDir)
	if recs[0].Group != "" || recs[0].Batch != 0 || strings.Contains(errOut, "read as") {
		t.Errorf("--from plain: %+v, %q", recs[0], errOut)
	}
	// The config file's from key.
	cfg := writeFiles(t, map[string]string{"c.toml": "from = \"plain\"\n[[objective]]\nname = \"s\"\nexpr = \"score\"\n"})
	recs, _ = computeList(t, "", "--config", filepath.Join(cfg, "c.toml"), verlDir)
	if recs[0].Group != "" {
		t.Errorf("from = \"plain\": group %q", recs[0].Group)
	}
}

// TestRecordFieldFlags checks --group-by, --batch-by, --id-by, their
// config keys, and the errors of a field a record lacks.
func TestRecordFieldFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.jsonl": `{"prompt":"p1","it":3,"n":1,"metadata":{"x":1}}` + "\n" +
			`{"prompt":"p1","it":3,"n":2,"metadata":{"x":3}}` + "\n" +
			`{"prompt":"p2","it":4,"n":3,"metadata":{"x":5}}` + "\n",
		"bad.jsonl":   `{"prompt":"p1","it":3,"x":1}` + "\n" + `{"it":3,"x":2}` + "\n",
		"frac.jsonl":  `{"prompt":"p1","it":3.5,"x":1}` + "\n",
		"clash.jsonl": `{"x":1}` + "\n" + `{"x":2,"metadata":{"x":1}}` + "\n",
		"clash.json":  "[{\"x\":1},\n{\"metadata\":{\"x\":1},\"x\":2}]",
		"c.toml":      "group_by = \"prompt\"\nbatch_by = \"it\"\nid_by = \"'r' + string(n)\"\nmethod = \"grpo\"\nepsilon = 1e-6\n",
	})
	at := func(name string) string { return filepath.Join(dir, name) }
	check := func(recs []record) {
		t.Helper()
		if len(recs) != 3 {
			t.Fatalf("%d records", len(recs))
		}
		a := 1 / (math.Sqrt2 + 1e-6) // scores 1, 3: sample std sqrt(2)
		want := []record{{ID: "r1", Batch: 3, Group: "p1", Reward: -a}, {ID: "r2", Batch: 3, Group: "p1", Reward: a}, {ID: "r3", Batch: 4, Group: "p2"}}
		for i, w := range want {
			r := recs[i]
			if r.ID != w.ID || r.Batch != w.Batch || r.Group != w.Group || math.Abs(r.Reward-w.Reward) > 1e-12 {
				t.Errorf("record %d: %+v, want %+v", i, r, w)
			}
		}
	}
	recs, _ := computeList(t, "", "--method", "grpo", "--epsilon", "1e-6", "--group-by", "prompt", "--batch-by", "it", "--id-by", "'r' + string(n)", "--objective", "x=x", at("r.jsonl"))
	check(recs)
	recs, _ = computeList(t, "", "--config", at("c.toml"), "--objective", "x=x", at("r.jsonl"))
	check(recs)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--group-by", "prompt", at("bad.jsonl")}, at("bad.jsonl") + `:2: group_by "prompt": missing: the record has no such field, or it is null`},
		{[]string{"--group-by", "promt", at("r.jsonl")}, at("r.jsonl") + `:1: group_by "promt": missing`},
		{[]string{"--batch-by", "it", at("frac.jsonl")}, at("frac.jsonl") + `:1: batch_by "it": must be an integer, found 3.5`},
		{[]string{"--id-by", "nope", at("r.jsonl")}, at("r.jsonl") + `:1: id_by "nope": missing`},
		{[]string{"--group-by", "prompt +", at("r.jsonl")}, `expression group_by = "prompt +"`},
		{[]string{at("clash.jsonl")}, at("clash.jsonl") + `:2: field "x" is also a key of metadata: rename one of them`},
		{[]string{at("clash.json")}, at("clash.json") + `:2:`},
	} {
		out, errOut, code := run(t, "", append([]string{"compute", "--objective", "x=x"}, c.args...)...)
		checkBadInput(t, out, errOut, code, c.want)
	}
	// --skip-invalid-lines skips a record the fields fail on, and says so.
	recs, errOut := computeList(t, "", "--skip-invalid-lines", "--group-by", "prompt", "--objective", "x=x", at("bad.jsonl"))
	if len(recs) != 1 || !strings.Contains(errOut, "skipped 1 invalid line") {
		t.Errorf("skipping: %d records, %q", len(recs), errOut)
	}
}

// TestTrainerFlags checks --nansum and --logged-advantage on plain
// records, and the CSV column of the logged advantage.
func TestTrainerFlags(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.jsonl": `{"group":"g","metadata":{"a":1,"b":1,"adv":0.7}}` + "\n" +
		`{"group":"g","metadata":{"a":null,"b":1,"adv":-0.7}}` + "\n"})
	path := filepath.Join(dir, "r.jsonl")
	args := []string{"--method", "grpo", "--objective", "a=a", "--objective", "b=b", "--weight", "a=1", "--weight", "b=1"}
	recs, _ := computeList(t, "", append(args, "--nansum", "--logged-advantage", "adv", path)...)
	a := 1 / (math.Sqrt(0.5) + 1e-4) * 0.5 // scores 2, 1: mean 1.5, sample std sqrt(0.5)
	if !recs[1].Valid || math.Abs(recs[0].Reward-a) > 1e-12 || math.Abs(recs[1].Reward+a) > 1e-12 || *recs[1].Logged != -0.7 {
		t.Errorf("--nansum --logged-advantage: %+v", recs)
	}
	recs, _ = computeList(t, "", append(args, path)...)
	if recs[1].Valid || recs[0].Logged != nil {
		t.Errorf("without --nansum a null objective is invalid, without --logged-advantage no field: %+v", recs)
	}
	out, _, code := run(t, "", append(append([]string{"compute", "--format", "csv"}, args...), "--logged-advantage", "adv", path)...)
	if code != 0 || !strings.HasPrefix(out, "id,batch,group,score,reward,pareto_rank,crowding,valid,logged_advantage,a,b\n") || !strings.Contains(out, ",-0.7,") {
		t.Errorf("CSV:\n%s", out)
	}
}
