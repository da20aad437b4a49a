package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConfigValueErrorsSayTheirLine runs stats on config files each with
// one bad value (internal/configfile's tests have one of each): the error
// is the setting's own, at PATH:LINE of the key that set it, exit status
// 2, also for a name checked once the data gives the objectives. A value
// a flag overrides is the flag's: its error has no file line, and the
// file's is not used (a list flag, --constraint, --gate, replaces the
// file's list).
func TestConfigValueErrorsSayTheirLine(t *testing.T) {
	const twoObjectives = "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\ngoal = \"max\"\nweight = 1\n" +
		"[[objective]]\nname = \"safety\"\nexpr = \"metadata.safety\"\n"
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"group":"g","metadata":{"accuracy":1,"safety":0.5}}` + "\n" + `{"group":"g","metadata":{"accuracy":0,"safety":0.9}}` + "\n",
	})
	for _, c := range []struct {
		name, config string
		flags        []string
		want         string // stderr, PATH standing for the config's path; "" for success
	}{
		{"scope", "method = \"pareto\"\nscope = \"groop\"\n", nil,
			`PATH:2: unknown scope "groop"; did you mean group? (valid: group, batch)`},
		{"minimize of inferred objectives", "method = \"grpo\"\nminimize = [\"safty\"]\n", nil,
			`PATH:2: minimize: unknown objective "safty" (objectives: accuracy, safety)`},
		{"weights of inferred objectives", "weights = {acuracy = 2}\n", nil, `PATH:1: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"group_runs below 0", "method = \"grpo\"\ngroup_runs = -4\n", nil,
			`PATH:2: group_runs -4: a number of consecutive rows, at least 1 (0 groups by value)`},
		{"group_runs with sources", "method = \"grpo\"\n\ngroup_runs = 4\n", []string{"--source-by", "group"},
			`PATH:3: group_runs 4: not with source_by, whose groups are each source's by value`},

		{"bad flag over a good file", "scope = \"group\"\n", []string{"--scope", "groop"},
			`unknown scope "groop"; did you mean group? (valid: group, batch)`},
		{"weight flag over the file's", "weights = {acuracy = 2}\n", []string{"--weight", "acuracy=1"},
			`weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"good flag over a bad file", "scope = \"groop\"\n", []string{"--scope", "batch"}, ""},
		{"good priority flag over a bad file", "method = \"lexicographic\"\npriority = [\"nope\"]\n" + twoObjectives, []string{"--priority", "safety"}, ""},
		{"objective flags over the file's", twoObjectives + "goal = \"maximise\"\n", []string{"--objective", "a=metadata.accuracy"}, ""},
		{"constraint flag over the file's", "constraint = [\"safety + 1\"]\n" + twoObjectives, []string{"--constraint", "safety >= 0.5"}, ""},
		{"gate flag over the file's", "gate = [\"safety accuracy == 1\"]\n" + twoObjectives, []string{"--gate", "safety: accuracy == 1"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.toml")
			if err := os.WriteFile(path, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"stats", "--config", path}, c.flags...)
			_, stderr, code := run(t, "", append(args, filepath.Join(dir, "data.jsonl"))...)
			if c.want == "" {
				if code != 0 {
					t.Fatalf("status %d, stderr %q", code, stderr)
				}
				return
			}
			want := "rewardlens: " + strings.ReplaceAll(c.want, "PATH", path) + "\n"
			if code != 2 || stderr != want {
				t.Errorf("status %d, stderr\n%q\nwant\n%q", code, stderr, want)
			}
		})
	}
}

// TestEvaluationErrorSaysWhy: an objective whose expression fails on
// every trajectory is said with why it failed in the first.
func TestEvaluationErrorSaysWhy(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"group":"g","metadata":{"accuracy":1}}` + "\n" + `{"group":"g","metadata":{"accuracy":0}}` + "\n",
		"len.toml":   "[[objective]]\nname = \"accuracy\"\nexpr = \"len(metadata.accuracy)\"\n",
	})
	_, stderr, code := run(t, "", "stats", "--config", filepath.Join(dir, "len.toml"), filepath.Join(dir, "data.jsonl"))
	want := "rewardlens: all 2 trajectories are invalid: objective accuracy = len(metadata.accuracy): evaluation error in every trajectory (the first: invalid argument for len (type float64))\n"
	if code != 2 || stderr != want {
		t.Errorf("status %d, stderr\n%q\nwant\n%q", code, stderr, want)
	}
}

// TestConfigNamesOfALayoutsObjectives: a trainer layout gives the
// objectives (verl's score); a name the config file gives that is none of
// them is said at its line too.
func TestConfigNamesOfALayoutsObjectives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(path, []byte("\nminimize = [\"scor\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", "stats", "--config", path, filepath.Join(repoRoot, "sample_data", "verl"))
	if want := "rewardlens: " + path + `:2: minimize: unknown objective "scor" (objectives: score)` + "\n"; code != 2 || !strings.HasSuffix(stderr, want) {
		t.Errorf("status %d, stderr\n%q\nwant it to end with\n%q", code, stderr, want)
	}
}

// TestConfigPromptKeysSayTheirLine: the prompts' keys of a config file,
// checked once the data names the objectives, are said at their line
// (an expression's at its column too), and by their key, not by the flag
// that would override them; a flag's value over them is the flag's.
func TestConfigPromptKeysSayTheirLine(t *testing.T) {
	data := filepath.Join(writeFiles(t, map[string]string{
		"data.jsonl": `{"group":"g","metadata":{"accuracy":1,"safety":0.5}}` + "\n" + `{"group":"g","metadata":{"accuracy":0,"safety":0.9}}` + "\n",
	}), "data.jsonl")
	for _, c := range []struct {
		name, config string
		args         []string // the command and its flags
		want         string   // stderr, PATH standing for the config's path; "" for success
	}{
		{"prompt_by", "\nprompt_by = \"metadata.\"\n", []string{"stats"},
			`PATH:2:22: expression prompt_by = "metadata.": unexpected end of expression`},
		{"task_metric's expression", "method = \"grpo\"\ntask_metric = \"metadata.accuracy +\"\n", []string{"prompts"},
			`PATH:2:34: expression task_metric = "metadata.accuracy +": unexpected token EOF`},
		{"task_metric of no trajectory", "\n\ntask_metric = \"acuracy\"\n", []string{"stats"},
			`PATH:3: task_metric "acuracy": no trajectory has it as a finite number; did you mean accuracy?`},
		{"pass_threshold", "pass_threshold = nan\n", []string{"stats"}, `PATH:1: pass_threshold NaN: want a finite number`},
		{"pass_threshold followed", "\npass_threshold = inf\n", []string{"stats", "--follow"}, `PATH:2: pass_threshold +Inf: want a finite number`},
		// compute, which does not analyse the prompts, checks their keys
		// as stats does; a task metric no trajectory has, which only
		// the analysis finds, it leaves alone.
		{"prompt_by to compute", "\nprompt_by = \"metadata.\"\n", []string{"compute"},
			`PATH:2:22: expression prompt_by = "metadata.": unexpected end of expression`},
		{"task_metric's expression to compute", "task_metric = \"metadata.accuracy +\"\n", []string{"compute"},
			`PATH:1:34: expression task_metric = "metadata.accuracy +": unexpected token EOF`},
		{"pass_threshold to compute", "pass_threshold = nan\n", []string{"compute"}, `PATH:1: pass_threshold NaN: want a finite number`},
		{"task_metric of no trajectory to compute", "task_metric = \"acuracy\"\n", []string{"compute"}, ""},
		{"filter_groups", "\nfilter_groups = \"acuracy\"\n", []string{"compute"},
			`PATH:2: filter_groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`},
		{"filter_groups with a dot", "\nfilter_groups = \"safty.max\"\n", []string{"compute"},
			`PATH:2: filter_groups "safty.max": not an objective (objectives: accuracy, safety)`},
		{"filter_groups followed", "filter_groups = \"accuracy\"\n", []string{"stats", "--follow"},
			`PATH:1: filter_groups "accuracy": stats --follow does not apply the group filter yet (compute, stats and the dashboard do)`},

		{"a pass threshold flag over the file's", "pass_threshold = nan\n", []string{"stats", "--pass-threshold", "0.5"}, ""},
		{"a task metric's older flag over the file's", "task_metric = \"metadata.\"\n", []string{"stats", "--health-task", "accuracy"}, ""},
		{"a bad flag over the file's", "filter_groups = \"accuracy\"\n", []string{"compute", "--filter-groups", "acuracy"},
			`--filter-groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.toml")
			if err := os.WriteFile(path, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append(slices.Clone(c.args), "--config", path), data)
			_, stderr, code := run(t, "", args...)
			if c.want == "" {
				if code != 0 {
					t.Fatalf("status %d, stderr %q", code, stderr)
				}
				return
			}
			want := "rewardlens: " + strings.ReplaceAll(c.want, "PATH", path) + "\n"
			if code != 2 || !strings.HasSuffix(stderr, want) {
				t.Errorf("status %d, stderr\n%q\nwant it to end with\n%q", code, stderr, want)
			}
		})
	}
}

// TestConfigObjectiveMisnamedField: an objective of the config file whose
// expression reads a field no record has is said at the line of its expr,
// as the file's other values are: when no trajectory is valid, and with
// nansum, where it would count 0 everywhere; an objective a flag gives
// has no line.
func TestConfigObjectiveMisnamedField(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.jsonl":  `{"group":"a","batch":1,"correct":1}` + "\n" + `{"group":"a","batch":1,"correct":0}` + "\n",
		"cfg.toml": "method = \"grpo\"\n\n[[objective]]\nname = \"c\"\nexpr = \"corect\"\n",
	})
	in, config := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "cfg.toml")
	const why = `objective c = corect: no trajectory has field corect; did you mean correct?`
	for _, args := range [][]string{
		{"compute", "--config", config, in},
		{"stats", "--config", config, in},
		{"stats", "--nansum", "--config", config, in},
		{"stats", "--follow", "--config", config, in},
	} {
		out, errOut, code := run(t, "", args...)
		checkBadInput(t, out, errOut, code, config+":5: ")
		if !strings.Contains(errOut, why) {
			t.Errorf("%v: stderr %q lacks %q", args, errOut, why)
		}
	}
	out, errOut, code := run(t, "", "compute", "--config", config, "--objective", "c=corect", in)
	checkBadInput(t, out, errOut, code, "rewardlens: all 2 trajectories are invalid: "+why)
}
