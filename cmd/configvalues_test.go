package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigValueErrorsSayTheirLine runs stats on config files each with
// one bad value: the error is the setting's own, at PATH:LINE of the key
// that set it (in the right [[objective]] entry), and a type error says
// what the key takes in a user's terms. A value a flag overrides is the
// flag's: its error has no file line, and the file's is not used.
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
		{"method", "method = \"paretto\"\n", nil,
			`PATH:1: unknown method "paretto"; did you mean pareto? (valid: absolute, relative, grpo, rloo, pareto, pareto-crowding, gdpo, lexicographic)`},
		{"computer", "\ncomputer = \"svlr\"\n", nil, `PATH:2: unknown computer "svlr"; did you mean svrl? (valid: pareto, svrl)`},
		{"lexicographic without priority", "method = \"lexicographic\"\n" + twoObjectives, nil,
			`PATH:1: method lexicographic needs --priority a,b,... (the objectives in order of priority)`},
		{"from", "\nfrom = \"verll\"\n", nil, `PATH:2: unknown from "verll"; did you mean verl? (valid: auto, trl, verl, open-instruct, plain)`},
		{"epsilon", "epsilon = -1\n", nil, `PATH:1: epsilon -1: must be a positive finite number`},
		{"penalty", "penalty = -2\n", nil, `PATH:1: penalty -2: must be a finite number >= 0`},
		{"group_by", "\n\ngroup_by = \"metadata.\"\n", nil, `PATH:3: expression group_by = "metadata.": line 1, column 9: unexpected end of expression`},
		{"second objective's goal", twoObjectives + "goal = \"maximise\"\n", nil,
			`PATH:9: objective safety: unknown goal "maximise" (valid: max, min)`},
		{"second objective's expression", "method = \"pareto\"\n" + twoObjectives[:len(twoObjectives)-len("expr = \"metadata.safety\"\n")] + "expr = \"metadata.safety +\"\n", nil,
			`PATH:9: expression safety = "metadata.safety +": line 1, column 17: unexpected token EOF`},
		{"inline objectives", "\nobjective = [{name = \"a\", expr = \"metadata.accuracy\"}, {name = \"b\", expr = \"metadata.safety\", goal = \"maximise\"}]\n", nil,
			`PATH:2: objective b: unknown goal "maximise" (valid: max, min)`},
		{"objective without a name", "[[objective]]\nexpr = \"metadata.accuracy\"\n", nil, `PATH:1: an objective (expr "metadata.accuracy") has no name`},
		{"objective without an expr", "method = \"pareto\"\n[[objective]]\nname = \"accuracy\"\n", nil, `PATH:2: objective accuracy has no expr`},
		{"objective with a blank expr", "[[objective]]\nname = \"accuracy\"\nexpr = \" \"\n", nil, `PATH:3: objective accuracy has no expr`},
		{"objective with neither", "[[objective]]\ngoal = \"max\"\n", nil, `PATH:1: an objective has no name and no expr`},
		{"objective given twice", twoObjectives + "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.safety\"\n", nil,
			`PATH:10: objective "accuracy" is given twice`},
		{"gate", "gate = [\"length accuracy == 1\"]\n" + twoObjectives, nil, `PATH:1: gate "length accuracy == 1": want 'NAME: EXPR'`},
		{"constraint", "constraint = [\"safety >= 0.5\", \"safety + 1\"]\n" + twoObjectives, nil,
			`PATH:1: constraint "safety + 1" is not a boolean (its value is a float64): write a comparison such as safety + 1 >= 0.5`},
		{"priority", "method = \"lexicographic\"\npriority = [\"accuracy\", \"nope\"]\n" + twoObjectives, nil,
			`PATH:2: priority: no objective "nope" (objectives: accuracy, safety)`},
		{"priority tolerance", "method = \"lexicographic\"\npriority = [\"accuracy\"]\npriority_tolerance = {accuracy = -1}\n" + twoObjectives, nil,
			`PATH:3: priority tolerance accuracy: -1 must be a positive finite number`},
		{"weights", "weights = {acuracy = 2}\n" + twoObjectives, nil, `PATH:1: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"minimize", "\nminimize = [\"safty\"]\n" + twoObjectives, nil, `PATH:2: minimize: unknown objective "safty" (objectives: accuracy, safety)`},
		{"minimize of inferred objectives", "method = \"grpo\"\nminimize = [\"safty\"]\n", nil,
			`PATH:2: minimize: unknown objective "safty" (objectives: accuracy, safety)`},
		{"weights of inferred objectives", "weights = {acuracy = 2}\n", nil, `PATH:1: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"svrl setting under pareto", "task = \"metadata.accuracy\"\n" + twoObjectives, nil,
			`PATH:1: task, verification_weight and efficiency_weight belong to the svrl computer`},

		{"weight a string", "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\nweight = \"0.5\"\n", nil,
			`PATH:4: objective weight: a number, not the string "0.5"`},
		{"second objective's weight a string", twoObjectives + "weight = \"high\"\n", nil,
			`PATH:9: objective weight: a number, not the string "high"`},
		{"scope an integer", "scope = 3\n", nil, `PATH:1: scope: a string, not the integer 3`},
		{"normalize a string", "method = \"grpo\"\nnormalize = \"yes\"\n", nil, `PATH:2: normalize: true or false, not the string "yes"`},
		{"weights entry a string", "weights = {accuracy = \"2\"}\n", nil, `PATH:1: weights accuracy: a number, not the string "2"`},
		{"minimize item a number", "minimize = [\"accuracy\", 1]\n", nil, `PATH:1: minimize: a list of strings, not the integer 1`},
		{"weights a number", "\nweights = 3\n", nil, `PATH:2: weights: a table, not the integer 3`},
		{"objective not a table", "objective = \"accuracy\"\n", nil, `PATH:1: objective: tables [[objective]], not the string "accuracy"`},

		{"bad flag over a good file", "scope = \"group\"\n", []string{"--scope", "groop"},
			`unknown scope "groop"; did you mean group? (valid: group, batch)`},
		{"good flag over a bad file", "scope = \"groop\"\n", []string{"--scope", "batch"}, ""},
		{"good priority flag over a bad file", "method = \"lexicographic\"\npriority = [\"nope\"]\n" + twoObjectives, []string{"--priority", "safety"}, ""},
		{"objective flags over the file's", twoObjectives + "goal = \"maximise\"\n", []string{"--objective", "a=metadata.accuracy"}, ""},
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
