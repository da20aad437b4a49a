package cmd

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// batchScaled is TRL's scale_rewards="batch" advantage of scores 1, 3 in
// one group and 5, 5 in another: the group means 2 and 5, the batch's
// sample std sqrt(11/3) (mean 3.5, squares 6.25 + 0.25 + 2.25 + 2.25), so
// -+1 / (sqrt(11/3) + 1e-4) and 0. scale group gives -+1 / (sqrt 2 +
// 1e-4): 0.185 more.
var batchScaled = 1 / (math.Sqrt(11.0/3) + 1e-4)

// loggedRecords writes two batches of those scores, each logged as
// logged(step) says, and returns the file's path.
func loggedRecords(t *testing.T, logged func(step int) float64) string {
	t.Helper()
	var b strings.Builder
	for step := range 2 {
		a := logged(step)
		for _, r := range []struct {
			group  string
			x, adv float64
		}{{"g", 1, -a}, {"g", 3, a}, {"h", 5, 0}, {"h", 5, 0}} {
			fmt.Fprintf(&b, `{"group":%q,"batch":%d,"metadata":{"x":%g,"adv":%v}}`+"\n", r.group, step, r.x, r.adv)
		}
	}
	return filepath.Join(writeFiles(t, map[string]string{"r.jsonl": b.String()}), "r.jsonl")
}

var loggedArgs = []string{"--objective", "x=x", "--weight", "x=1", "--logged-advantage", "adv"}

// TestLoggedAgreementWarning: compute and stats, whatever the method,
// warn on stderr of the rows that differ from the logged advantage, with
// the flags that reproduce it; stats per batch too.
func TestLoggedAgreementWarning(t *testing.T) {
	path := loggedRecords(t, func(int) float64 { return batchScaled })
	want := "rewardlens: warning: 4 of 8 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.185) under grpo, scale group, epsilon 0.0001; `--method grpo --scale batch` reproduces it to 0 (--match-logged applies it)\n"
	for _, cmd := range []string{"compute", "stats"} {
		_, errOut, code := run(t, "", append(append([]string{cmd}, loggedArgs...), path)...)
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr\n%s\nwant\n%s", cmd, code, errOut, want)
		}
	}
	// With grpo on screen, the flags are those to add to it.
	_, errOut, _ := run(t, "", append(append([]string{"compute", "--method", "grpo"}, loggedArgs...), path)...)
	if !strings.Contains(errOut, "; `--scale batch` reproduces it to 0") {
		t.Errorf("--method grpo: stderr\n%s", errOut)
	}
	out, _, _ := run(t, "", append(append([]string{"stats"}, loggedArgs...), path)...)
	if n := strings.Count(out, "\nwarning: 2 of 4 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.185) under grpo, scale group, epsilon 0.0001; `--method grpo --scale batch` reproduces this batch to 0\n"); n != 2 {
		t.Errorf("stats table: %d batch warnings, want 2:\n%s", n, out)
	}
	out, _, _ = run(t, "", append(append([]string{"stats", "--format", "json"}, loggedArgs...), path)...)
	var report struct {
		Batches []struct {
			Agreement *struct {
				Settings     string  `json:"settings"`
				Rows         int     `json:"rows"`
				Differing    int     `json:"differing"`
				MaxAbsDiff   float64 `json:"max_abs_diff"`
				ReproducedBy *string `json:"reproduced_by"`
			} `json:"trainer_agreement"`
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	for i, b := range report.Batches {
		a := b.Agreement
		if a == nil || a.Settings != "grpo, scale group, epsilon 0.0001" || a.Rows != 4 || a.Differing != 2 ||
			math.Abs(a.MaxAbsDiff-(1/(math.Sqrt2+1e-4)-batchScaled)) > 1e-12 || a.ReproducedBy == nil || *a.ReproducedBy != "--method grpo --scale batch" {
			t.Errorf("batch %d: %+v", i, a)
		}
	}
}

// TestMatchLogged: --match-logged (and the config key) computes with the
// settings that reproduce the logged advantage, and says so; when none
// does, it says so loudly and computes with the settings as given.
func TestMatchLogged(t *testing.T) {
	path := loggedRecords(t, func(int) float64 { return batchScaled })
	check := func(name string, args ...string) {
		t.Helper()
		recs, errOut := computeList(t, "", append(append(args, loggedArgs...), path)...)
		for i, r := range recs {
			if r.Logged == nil || math.Abs(r.Reward-*r.Logged) > 1e-12 {
				t.Errorf("%s: record %d: reward %v, logged %v", name, i, r.Reward, r.Logged)
			}
		}
		if !strings.Contains(errOut, "rewardlens: --match-logged: `--method grpo --scale batch` (grpo, scale batch, epsilon 0.0001) reproduces the logged advantage to 0: computing with it\n") ||
			strings.Contains(errOut, "rows differ") {
			t.Errorf("%s: stderr\n%s", name, errOut)
		}
	}
	check("--match-logged", "--match-logged")
	config := filepath.Join(writeFiles(t, map[string]string{"c.toml": "match_logged = true\n"}), "c.toml")
	check("match_logged", "--config", config)

	odd := loggedRecords(t, func(step int) float64 { return 0.3 + float64(step) })
	_, errOut, code := run(t, "", append(append([]string{"compute", "--match-logged"}, loggedArgs...), odd)...)
	if code != 0 || !strings.Contains(errOut, "rewardlens: warning: --match-logged: none of the ") || !strings.Contains(errOut, "; computing with the settings as given\n") {
		t.Errorf("nothing fits: status %d, stderr\n%s", code, errOut)
	}
}

// TestMatchLoggedAllZero: a logged advantage of 0 in every row is
// reproduced by weights of 0, which say nothing: --match-logged says the
// log tells nothing of the weights and computes with the settings as
// given, offering no weights (and no "-0").
func TestMatchLoggedAllZero(t *testing.T) {
	var lines strings.Builder
	for i, ab := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {0, 0}} {
		fmt.Fprintf(&lines, `{"id":"%d","group":"g","metadata":{"a":%d,"b":%d,"adv":0}}`+"\n", i, ab[0], ab[1])
	}
	args := []string{"--objective", "a=metadata.a", "--objective", "b=metadata.b", "--logged-advantage", "metadata.adv", "--method", "grpo", "-"}
	for _, match := range []string{"--match-logged", "--match-logged=false"} {
		recs, errOut := computeList(t, lines.String(), append([]string{match}, args...)...)
		if !strings.Contains(errOut, "the logged advantage is 0 in every row, which tells nothing of the weights") ||
			strings.Contains(errOut, "-0") || strings.Contains(errOut, "--weight") {
			t.Errorf("%s: stderr\n%s", match, errOut)
		}
		if recs[2].Reward == 0 {
			t.Errorf("%s: not computed with the settings as given: %+v", match, recs)
		}
	}
}

// TestUnequalGroupsWarning: in a trainer's layout, a step whose groups
// are not all of one size is warned of, naming them; plain records are not
// checked.
func TestUnequalGroupsWarning(t *testing.T) {
	var b strings.Builder
	for _, g := range []struct {
		input string
		n     int
	}{{"user\nWhat is 1+1?\nassistant\n", 2}, {"user\nWhat is 2+2?\nassistant\n", 4}, {"user\nWhat is 3+3?\nassistant\n", 2}} {
		for range g.n {
			fmt.Fprintf(&b, `{"input":%q,"output":"4","score":1,"step":1}`+"\n", g.input)
		}
	}
	dir := writeFiles(t, map[string]string{"1.jsonl": b.String()})
	want := `rewardlens: warning: step 1: groups of unequal size: 2 of 3 groups have 2 trajectories, …"What is 2+2?\nassistant\n" 4 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)` + "\n"
	for _, cmd := range []string{"compute", "stats"} {
		_, errOut, code := run(t, "", cmd, dir)
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr\n%s\nwant\n%s", cmd, code, errOut, want)
		}
	}
	if _, errOut, _ := run(t, "", "compute", "--from", "plain", "--group-by", "input", "--batch-by", "step", "--objective", "score=score", dir); strings.Contains(errOut, "unequal") {
		t.Errorf("plain records: %s", errOut)
	}
}

// TestTRLAdvantageSettings runs compute, as the TRL layout sets it up
// (grpo, scale group, reward weights 1, nansum), on a batch logged by
// TRL's own advantage code under each setting (testdata/
// TestTRLAdvantageSettings/gen.py: _generate_and_score_completions'
// advantage block and nanstd of TRL at commit f2cd57710ae3, under torch,
// in float32): the warning names the flags that reproduce it, and
// --match-logged reproduces every row to agreement.Reproduces.
func TestTRLAdvantageSettings(t *testing.T) {
	args := []string{"--method", "grpo", "--group-by", "prompt", "--batch-by", "step", "--objective", "accuracy=accuracy",
		"--objective", "format=format", "--weight", "accuracy=1", "--weight", "format=1", "--nansum", "--logged-advantage", "advantage"}
	for name, flags := range map[string]string{
		"scale_group":             "",
		"scale_batch":             "`--scale batch`",
		"scale_none":              "`--scale none`",
		"normalize_then_sum":      "`--method gdpo`",
		"weights_half_scale_none": "`--scale none --weight accuracy=0.5 --weight format=0.5`",
	} {
		path := filepath.Join("testdata", "TestTRLAdvantageSettings", name+".jsonl")
		_, errOut, code := run(t, "", append(append([]string{"compute"}, args...), path)...)
		switch {
		case code != 0:
			t.Errorf("%s: status %d: %s", name, code, errOut)
		case flags == "" && strings.Contains(errOut, "warning"):
			t.Errorf("%s: TRL's default is reproduced, yet\n%s", name, errOut)
		case flags != "" && !strings.Contains(errOut, "; "+flags+" reproduces it to "):
			t.Errorf("%s: stderr\n%s\nwant %s", name, errOut, flags)
		}
		recs, errOut := computeList(t, "", append(append([]string{"--match-logged"}, args...), path)...)
		if len(recs) != 32 {
			t.Fatalf("%s: %d records", name, len(recs))
		}
		for i, r := range recs {
			if r.Logged == nil || math.Abs(r.Reward-*r.Logged) > 1e-5 {
				t.Errorf("%s --match-logged: record %d: reward %v, TRL's %v (%s)", name, i, r.Reward, r.Logged, errOut)
				break
			}
		}
		// stats reports each batch's agreement under the settings it
		// computed with: no row differs, no warning.
		out, errOut, code := run(t, "", append(append([]string{"stats", "--match-logged"}, args...), path)...)
		if code != 0 || strings.Contains(out, "warning") || !strings.Contains(out, ", 0 differ by more than") {
			t.Errorf("%s: stats --match-logged: status %d, stdout\n%s\nstderr\n%s", name, code, out, errOut)
		}
	}
}

// TestVerlAdvantageSettings runs compute --method grpo on a verl dump
// logged by verl's own estimators (testdata/TestVerlAdvantageSettings/
// gen.py: compute_grpo_outcome_advantage and
// compute_rloo_outcome_advantage of verl at commit b178a3cd56f5, under
// torch, in float32), with the verl layout's settings and with TRL's
// epsilon and group of one: the warning names the flags that reproduce
// each, and the group of one is warned of as a group of unequal size.
func TestVerlAdvantageSettings(t *testing.T) {
	trl := []string{"--epsilon", "1e-4", "--group-of-one", "zero"}
	for _, tc := range []struct {
		name  string
		flags []string
		want  string // "" when the settings given reproduce it
	}{
		{"grpo", nil, ""},
		{"grpo", trl, "`--epsilon 1e-06 --group-of-one score`"},
		{"grpo_no_std", nil, "`--scale none`"},
		{"grpo_no_std", trl, "`--scale none --group-of-one score`"},
		{"rloo", nil, "`--method rloo`"},
		{"rloo", trl, "`--method rloo --group-of-one score`"},
		{"rpp_baseline", nil, "`--method rpp-baseline`"},
		{"rpp_baseline", trl, "`--method rpp-baseline`"},
	} {
		path := filepath.Join("testdata", "TestVerlAdvantageSettings", tc.name+".jsonl")
		args := append(append([]string{"compute", "--method", "grpo", "--logged-advantage", "advantage"}, tc.flags...), path)
		_, errOut, code := run(t, "", args...)
		switch {
		case code != 0:
			t.Errorf("%s %v: status %d: %s", tc.name, tc.flags, code, errOut)
		case tc.want == "" && strings.Contains(errOut, "logged advantage by"):
			t.Errorf("%s %v: verl's advantage is reproduced, yet\n%s", tc.name, tc.flags, errOut)
		case tc.want != "" && !strings.Contains(errOut, "; "+tc.want+" reproduces it to "):
			t.Errorf("%s %v: stderr\n%s\nwant %s", tc.name, tc.flags, errOut, tc.want)
		}
		if !strings.Contains(errOut, `warning: step 1: groups of unequal size: 3 of 4 groups have 4 trajectories, …"Question 3?\nassistant\n" 1 (`) {
			t.Errorf("%s: the group of one is not warned of:\n%s", tc.name, errOut)
		}
	}
}

// TestTrainerEstimators runs compute with the methods of the trainers'
// other estimators on batches logged by the trainers' own code:
// rpp-baseline, grpo-passk and gpg on verl's
// compute_reinforce_plus_plus_baseline_outcome_advantage,
// compute_grpo_passk_outcome_advantage and compute_gpg_outcome_advantage
// (testdata/TestVerlAdvantageSettings/gen_estimators.py, verl at commit
// b178a3cd56f5) and rloo-whitened on TRL's RLOOTrainer with
// normalize_advantages=True (testdata/TestTRLAdvantageSettings/
// gen_rloo.py, TRL at commit f2cd57710ae3), all under torch, in float32,
// on groups with ties (for the best too), of one score throughout, of one
// (valid) member (but for grpo_passk, which refuses it), and, for TRL,
// with unscorable rows and a None reward. Every valid row's reward is the
// trainer's to 1e-6 (its float32 rounding), and with grpo's settings
// --match-logged finds the method.
func TestTrainerEstimators(t *testing.T) {
	trl := []string{"--group-by", "prompt", "--batch-by", "step", "--objective", "accuracy=accuracy", "--objective", "format=format",
		"--weight", "accuracy=1", "--weight", "format=1", "--nansum", "--logged-advantage", "advantage"}
	for _, tc := range []struct {
		method, path string
		args         []string
		valid        int
	}{
		{"rpp-baseline", filepath.Join("testdata", "TestVerlAdvantageSettings", "rpp_baseline.jsonl"), []string{"--logged-advantage", "advantage"}, 13},
		{"rloo-whitened", filepath.Join("testdata", "TestTRLAdvantageSettings", "rloo_normalized.jsonl"), trl, 16},
		{"grpo-passk", filepath.Join("testdata", "TestVerlAdvantageSettings", "grpo_passk.jsonl"), []string{"--logged-advantage", "advantage"}, 16},
		{"gpg", filepath.Join("testdata", "TestVerlAdvantageSettings", "gpg.jsonl"), []string{"--logged-advantage", "advantage"}, 17},
	} {
		recs, errOut := computeList(t, "", append(append([]string{"--method", tc.method}, tc.args...), tc.path)...)
		valid := 0
		for i, r := range recs {
			if !r.Valid {
				continue
			}
			valid++
			if r.Logged == nil || math.Abs(r.Reward-*r.Logged) > 1e-6 {
				t.Errorf("%s: record %d: reward %v, the trainer's %v (%s)", tc.method, i, r.Reward, r.Logged, errOut)
			}
		}
		if valid != tc.valid || strings.Contains(errOut, "logged advantage by") {
			t.Errorf("%s: %d valid rows, want %d; stderr\n%s", tc.method, valid, tc.valid, errOut)
		}
		// rpp-baseline's and rloo-whitened's trainer fixes the std and its
		// epsilon, gpg divides by none, grpo-passk none unnormalised:
		// --epsilon is ignored.
		ignoring := []string{"--method", tc.method, "--epsilon", "1e-6"}
		if tc.method == "grpo-passk" {
			ignoring = append(ignoring, "--no-normalize")
		}
		if _, errOut = computeList(t, "", append(append(ignoring, tc.args...), tc.path)...); !strings.Contains(errOut, "warning: --epsilon 1e-06 ignored: method "+tc.method+" divides by ") {
			t.Errorf("%s --epsilon 1e-6: stderr\n%s", tc.method, errOut)
		}
		_, errOut = computeList(t, "", append(append([]string{"--method", "grpo", "--match-logged"}, tc.args...), tc.path)...)
		if want := "--match-logged: `--method " + tc.method + "` (" + tc.method; !strings.Contains(errOut, want) || !strings.Contains(errOut, " reproduces the logged advantage to ") {
			t.Errorf("%s: --match-logged: stderr\n%s\nwant %q", tc.method, errOut, want)
		}
	}
}

// TestVerlOPONotReproduced: a verl dump logged by verl's opo estimator
// (compute_opo_outcome_advantage, testdata/TestVerlAdvantageSettings/
// gen_estimators.py: responses of 1 to 4 tokens), whose baseline weighs
// each response by its token count, which the dump lacks: no setting
// reproduces it, and the warning says that opo is not among them.
func TestVerlOPONotReproduced(t *testing.T) {
	path := filepath.Join("testdata", "TestVerlAdvantageSettings", "opo.jsonl")
	_, errOut, code := run(t, "", "compute", "--logged-advantage", "advantage", path)
	if code != 0 || !strings.Contains(errOut, "trainer settings tried") || !strings.Contains(errOut, "(verl's rpp-baseline and opo weigh each response by its token count, not in the records: a run of either is not reproduced here)") {
		t.Errorf("status %d, stderr\n%s", code, errOut)
	}
}

// TestVerlTokenWeightedRPPBaseline: a verl dump logged by
// reinforce_plus_plus_baseline over responses of 1 to 5 tokens
// (gen_rpp_tokens.py: masked_whiten weighs each by its token count): no
// setting reproduces it, and --match-logged's warning says that verl's
// rpp-baseline, not only opo, weighs by token counts; read as verl's, it
// tries verl's methods alone (not TRL's gdpo or rloo-whitened, which it
// offered as the closest); read as plain records, the layout unknown, it
// tries them all and words the token counts as a condition.
func TestVerlTokenWeightedRPPBaseline(t *testing.T) {
	path := filepath.Join("testdata", "TestVerlAdvantageSettings", "rpp_baseline_tokens.jsonl")
	_, errOut, code := run(t, "", "compute", "--match-logged", "--logged-advantage", "advantage", path)
	if code != 0 || !strings.Contains(errOut, "(scale, rloo, rpp-baseline, grpo-passk, gpg, epsilon, group of one, weights, weights fitted to the log)") ||
		!strings.Contains(errOut, "verl's rpp-baseline and opo weigh each response by its token count") || strings.Contains(errOut, "rloo-whitened") || strings.Contains(errOut, "gdpo") {
		t.Errorf("verl: status %d, stderr\n%s", code, errOut)
	}
	_, errOut, code = run(t, "", "compute", "--from", "plain", "--objective", "s=metadata.score", "--logged-advantage", "metadata.advantage", path)
	if code != 0 || !strings.Contains(errOut, "(scale, gdpo, rloo, rpp-baseline, rloo-whitened, grpo-passk, gpg,") ||
		!strings.Contains(errOut, "(if this is verl's reinforce_plus_plus_baseline or opo, they weigh each response by its token count, not in the records: neither is reproduced here)") {
		t.Errorf("plain: status %d, stderr\n%s", code, errOut)
	}
}

// TestVerlSettingsChangedMidRun: steps 1 and 2 logged with verl's GRPO,
// step 3 without the std (norm_adv_by_std_in_grpo=False): compute names
// step 3 and the flag that reproduces it rather than calling the log
// unexplainable, and --match-logged computes with the settings as given,
// saying so; stats agrees batch by batch.
func TestVerlSettingsChangedMidRun(t *testing.T) {
	read := func(name string, step int) string {
		data, err := os.ReadFile(filepath.Join("testdata", "TestVerlAdvantageSettings", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), `"step": 1,`, fmt.Sprintf(`"step": %d,`, step))
	}
	dir := writeFiles(t, map[string]string{"1.jsonl": read("grpo", 1), "2.jsonl": read("grpo", 2), "3.jsonl": read("grpo_no_std", 3)})
	_, errOut, code := run(t, "", "compute", "--logged-advantage", "advantage", dir)
	want := " under grpo, scale group, epsilon 1e-06, group of one score, in step 3 only; no one setting of the "
	if code != 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, " tried reproduces every step: `--scale none` reproduces step 3 to ") ||
		!strings.Contains(errOut, " (the settings changed during the run?)\n") || strings.Contains(errOut, "closest") {
		t.Errorf("status %d, stderr\n%s\nwant %q", code, errOut, want)
	}
	_, errOut, _ = run(t, "", "compute", "--match-logged", "--logged-advantage", "advantage", dir)
	if !strings.Contains(errOut, "rewardlens: warning: --match-logged: ") || !strings.Contains(errOut, "`--scale none` reproduces step 3 to ") ||
		!strings.Contains(errOut, "(the settings changed during the run?); computing with the settings as given\n") {
		t.Errorf("--match-logged: stderr\n%s", errOut)
	}
	out, _, _ := run(t, "", "stats", "--logged-advantage", "advantage", dir)
	if !strings.Contains(out, "; `--scale none` reproduces this batch to ") {
		t.Errorf("stats:\n%s", out)
	}
}

// TestStatsHeaderSettings: stats's first line (and JSON) states the
// settings the method computed with reads: unscaled grpo has scale none
// and neither normalize nor epsilon, as when --match-logged switched to
// it; gdpo normalize, epsilon and std; rloo its group of one alone.
func TestStatsHeaderSettings(t *testing.T) {
	path := filepath.Join("testdata", "TestVerlAdvantageSettings", "grpo_no_std.jsonl")
	const unscaled = "method grpo, scope group, scale none, group of one score, score float32\n"
	for _, args := range [][]string{
		{"--method", "grpo", "--scale", "none"},
		{"--method", "grpo", "--match-logged", "--logged-advantage", "advantage"},
	} {
		out, errOut, _ := run(t, "", append(append([]string{"stats"}, args...), path)...)
		if !strings.HasPrefix(out, unscaled) {
			t.Errorf("%v: first line %q, want %q (stderr %s)", args, strings.SplitAfter(out, "\n")[0], unscaled, errOut)
		}
		out, _, _ = run(t, "", append(append([]string{"stats", "--format", "json"}, args...), path)...)
		var header map[string]any
		if err := json.Unmarshal([]byte(out), &header); err != nil {
			t.Fatal(err)
		}
		if header["scale"] != "none" || header["group_of_one"] != "score" || header["normalize"] != nil || header["epsilon"] != nil {
			t.Errorf("%v: JSON scale %v, group_of_one %v, normalize %v, epsilon %v", args, header["scale"], header["group_of_one"], header["normalize"], header["epsilon"])
		}
	}
	for method, want := range map[string]string{
		"grpo": "method grpo, scope group, scale group, epsilon 1e-06, std sample, group of one score, score float32\n",
		"gdpo": "method gdpo, scope group, normalize true, epsilon 1e-06, std sample, score float32\n",
		"rloo": "method rloo, scope group, group of one score, score float32\n",
	} {
		if out, _, _ := run(t, "", "stats", "--method", method, path); !strings.HasPrefix(out, want) {
			t.Errorf("%s: first line %q, want %q", method, strings.SplitAfter(out, "\n")[0], want)
		}
	}
}

// TestLoggedAdvantageMisnamed: a logged advantage that reads a field no
// record has, with no row logged, is a misspelt name: exit 2 with the
// nearest field, for compute and stats. A field the records have but
// null everywhere only warns.
func TestLoggedAdvantageMisnamed(t *testing.T) {
	path := loggedRecords(t, func(int) float64 { return 1 })
	for _, cmd := range []string{"compute", "stats"} {
		_, errOut, code := run(t, "", cmd, "--objective", "x=x", "--logged-advantage", "metadata.avd", path)
		if want := `logged advantage "metadata.avd": the first records have no field avd; did you mean adv?`; code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr\n%s\nwant status 2 and %q", cmd, code, errOut, want)
		}
	}
	nulls := filepath.Join(writeFiles(t, map[string]string{"n.jsonl": `{"group":"g","metadata":{"x":1,"adv":null}}
{"group":"g","metadata":{"x":2,"adv":null}}
`}), "n.jsonl")
	_, errOut, code := run(t, "", "compute", "--objective", "x=x", "--logged-advantage", "adv", nulls)
	if code != 0 || !strings.Contains(errOut, "warning: no row has a logged advantage") {
		t.Errorf("a logged field null everywhere: status %d, stderr\n%s\nwant 0 and the warning", code, errOut)
	}
}

// TestMatchLoggedLeavesOutTheCutGroup reads TRL completions tables of
// reward_weights [1, 1.37] (advantages computed in float32 as TRL's
// _generate_and_score_completions does) with --max-rows 18: step 1 and
// the first two rows of step 2's first group, the only group read of its
// step. --match-logged fits the weights without that group, which the
// cap cut, and says so.
func TestMatchLoggedLeavesOutTheCutGroup(t *testing.T) {
	dir := filepath.Join("testdata", "TestMatchLoggedLeavesOutTheCutGroup")
	_, errOut, code := run(t, "", "compute", "--max-rows", "18", "--match-logged", "--out", filepath.Join(t.TempDir(), "o.jsonl"), dir)
	want := "rewardlens: --match-logged: `--weight accuracy_reward=1 --weight format_reward=1.37` (grpo, scale group, epsilon 0.0001) reproduces the logged advantage to "
	if code != 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, `with the group --max-rows cut (step 2, group "<|im_start|>user\nProblem 2-0: compute 2+2.<|im_end|>\n<|im_start|>assistant\n", 2 of its rows read) left out`) {
		t.Errorf("status %d, stderr\n%s\nwant %s... with the group --max-rows cut left out", code, errOut, want)
	}
}

// TestRLOOWhitenedSaysItsBatch: on a batch logged by TRL's RLOOTrainer
// with normalize_advantages=True (testdata/TestTRLAdvantageSettings/
// gen_rloo.py, TRL's own code under torch), the warning that
// rloo-whitened reproduces the log, and --match-logged's note, say what
// that assumes: the step is the generation batch RLOOTrainer whitens
// over, as with steps_per_generation 1.
func TestRLOOWhitenedSaysItsBatch(t *testing.T) {
	const note = "; rloo-whitened takes the step for TRL's generation batch, which RLOOTrainer whitens over: so it is with steps_per_generation 1"
	path := filepath.Join("testdata", "TestTRLAdvantageSettings", "rloo_normalized.jsonl")
	args := []string{"--group-by", "prompt", "--batch-by", "step", "--objective", "accuracy=accuracy", "--objective", "format=format",
		"--weight", "accuracy=1", "--weight", "format=1", "--nansum", "--logged-advantage", "advantage", path}
	_, errOut := computeList(t, "", append([]string{"--method", "grpo"}, args...)...)
	if !strings.Contains(errOut, "`--method rloo-whitened` reproduces it to ") || !strings.Contains(errOut, note) {
		t.Errorf("the warning: stderr\n%s\nwant %q", errOut, note)
	}
	_, errOut = computeList(t, "", append([]string{"--method", "grpo", "--match-logged"}, args...)...)
	if !strings.Contains(errOut, "--match-logged: `--method rloo-whitened` (") || !strings.Contains(errOut, note) {
		t.Errorf("--match-logged: stderr\n%s\nwant %q", errOut, note)
	}
}
