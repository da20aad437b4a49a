package configfile

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestValueErrorsSayTheirLine reads config files each with one bad value:
// the error is the setting's own, at PATH:LINE of the key that set it (in
// the right [[objective]] entry), and a type error says what the key
// takes in a user's terms. A value a flag overrides is the flag's, not
// checked here; a name is checked against the objectives of the merged
// config (inferred from the data when the file gives none).
func TestValueErrorsSayTheirLine(t *testing.T) {
	const twoObjectives = "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\ngoal = \"max\"\nweight = 1\n" +
		"[[objective]]\nname = \"safety\"\nexpr = \"metadata.safety\"\n"
	inferred := []setup.ObjectiveConfig{{Name: "accuracy", Expr: "metadata.accuracy"}, {Name: "safety", Expr: "metadata.safety"}}
	for _, c := range []struct {
		name, config string
		want         string // the error, the config's path being PATH
	}{
		{"scope", "method = \"pareto\"\nscope = \"groop\"\n",
			`PATH:2: unknown scope "groop"; did you mean group? (valid: group, batch)`},
		{"method", "method = \"paretto\"\n",
			`PATH:1: unknown method "paretto"; did you mean pareto? (valid: absolute, relative, grpo, rloo, pareto, pareto-crowding, gdpo, rpp-baseline, rloo-whitened, grpo-passk, gpg, lexicographic)`},
		{"computer", "\ncomputer = \"svlr\"\n", `PATH:2: unknown computer "svlr"; did you mean svrl? (valid: pareto, svrl)`},
		{"lexicographic without priority", "method = \"lexicographic\"\n" + twoObjectives,
			`PATH:1: method lexicographic needs --priority a,b,... (the objectives in order of priority)`},
		{"from", "\nfrom = \"verll\"\n", `PATH:2: unknown from "verll"; did you mean verl? (valid: auto, trl, verl, open-instruct, plain)`},
		{"epsilon", "epsilon = -1\n", `PATH:1: epsilon -1: must be a positive finite number`},
		{"penalty", "penalty = -2\n", `PATH:1: penalty -2: must be a finite number >= 0`},
		{"score_precision", "\nscore_precision = \"float16\"\n", `PATH:2: unknown score precision "float16"; did you mean float32 or float64? (valid: float64, float32)`},
		{"group_by", "\n\ngroup_by = \"metadata.\"\n", `PATH:3:21: expression group_by = "metadata.": unexpected end of expression`},
		{"second objective's goal", twoObjectives + "goal = \"maximise\"\n",
			`PATH:9: objective safety: unknown goal "maximise" (valid: max, min)`},
		{"second objective's expression", "method = \"pareto\"\n" + twoObjectives[:len(twoObjectives)-len("expr = \"metadata.safety\"\n")] + "expr = \"metadata.safety +\"\n",
			`PATH:9:25: expression safety = "metadata.safety +": unexpected token EOF`},
		{"inline objectives", "\nobjective = [{name = \"a\", expr = \"metadata.accuracy\"}, {name = \"b\", expr = \"metadata.safety\", goal = \"maximise\"}]\n",
			`PATH:2: objective b: unknown goal "maximise" (valid: max, min)`},
		{"objective without a name", "[[objective]]\nexpr = \"metadata.accuracy\"\n", `PATH:1: an objective (expr "metadata.accuracy") has no name`},
		{"objective without an expr", "method = \"pareto\"\n[[objective]]\nname = \"accuracy\"\n", `PATH:2: objective accuracy has no expr`},
		{"objective with a blank expr", "[[objective]]\nname = \"accuracy\"\nexpr = \" \"\n", `PATH:3: objective accuracy has no expr`},
		{"objective with neither", "[[objective]]\ngoal = \"max\"\n", `PATH:1: an objective has no name and no expr`},
		{"objective given twice", twoObjectives + "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.safety\"\n",
			`PATH:10: objective "accuracy" is given twice`},
		{"gate", "gate = [\"length accuracy == 1\"]\n" + twoObjectives, `PATH:1: gate "length accuracy == 1": want 'NAME: EXPR'`},
		{"constraint", "constraint = [\"safety >= 0.5\", \"safety + 1\"]\n" + twoObjectives,
			`PATH:1: constraint "safety + 1" is not a boolean (its value is a float64): write a comparison such as safety + 1 >= 0.5`},
		{"priority", "method = \"lexicographic\"\npriority = [\"accuracy\", \"nope\"]\n" + twoObjectives,
			`PATH:2: priority: no objective "nope" (objectives: accuracy, safety)`},
		{"priority tolerance", "method = \"lexicographic\"\npriority = [\"accuracy\"]\npriority_tolerance = {accuracy = -1}\n" + twoObjectives,
			`PATH:3: priority tolerance accuracy: -1 must be a positive finite number`},
		{"weights", "weights = {acuracy = 2}\n" + twoObjectives, `PATH:1: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"minimize", "\nminimize = [\"safty\"]\n" + twoObjectives, `PATH:2: minimize: unknown objective "safty" (objectives: accuracy, safety)`},
		{"svrl setting under pareto", "task = \"metadata.accuracy\"\n" + twoObjectives,
			`PATH:1: task, verification_weight and efficiency_weight belong to the svrl computer`},

		{"weight a string", "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\nweight = \"0.5\"\n",
			`PATH:4: objective weight: a number, not the string "0.5"`},
		{"second objective's weight a string", twoObjectives + "weight = \"high\"\n",
			`PATH:9: objective weight: a number, not the string "high"`},
		{"scope an integer", "scope = 3\n", `PATH:1: scope: a string, not the integer 3`},
		{"normalize a string", "method = \"grpo\"\nnormalize = \"yes\"\n", `PATH:2: normalize: true or false, not the string "yes"`},
		{"weights entry a string", "weights = {accuracy = \"2\"}\n", `PATH:1: weights accuracy: a number, not the string "2"`},
		{"minimize item a number", "minimize = [\"accuracy\", 1]\n", `PATH:1: minimize: a list of strings, not the integer 1`},
		{"weights a number", "\nweights = 3\n", `PATH:2: weights: a table, not the integer 3`},
		{"objective not a table", "objective = \"accuracy\"\n", `PATH:1: objective: tables [[objective]], not the string "accuracy"`},
	} {
		t.Run(c.name, func(t *testing.T) { checkValues(t, c.config, nil, nil, c.want) })
	}
	for _, c := range []struct {
		name, config string
		// merged is what the flags and the data change in the file's
		// config; changed are the flags given.
		merged  func(*setup.Config)
		changed []string
		want    string // the error, the config's path being PATH; "" for none
	}{
		{"minimize of inferred objectives", "method = \"grpo\"\nminimize = [\"safty\"]\n",
			func(c *setup.Config) { c.Objectives = inferred }, nil,
			`PATH:2: minimize: unknown objective "safty" (objectives: accuracy, safety)`},
		{"weights of inferred objectives", "weights = {acuracy = 2}\n",
			func(c *setup.Config) { c.Objectives = inferred }, nil,
			`PATH:1: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"a flag over a bad file", "scope = \"groop\"\n",
			func(c *setup.Config) { c.Scope = "batch" }, []string{"scope"}, ""},
		{"a priority flag over a bad file", "method = \"lexicographic\"\npriority = [\"nope\"]\n" + twoObjectives,
			func(c *setup.Config) { c.Priority = []string{"safety"} }, []string{"priority"}, ""},
		{"objective flags over the file's", twoObjectives + "goal = \"maximise\"\n",
			func(c *setup.Config) {
				c.Objectives = []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.accuracy"}}
			}, []string{"objective"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) { checkValues(t, c.config, c.merged, c.changed, c.want) })
	}
}

// checkValues reads text as the config file PATH and checks its values
// in its config changed by merged (when not nil), the flags changed
// given: the error must be want, a file's *Error ("" for none).
func checkValues(t *testing.T, text string, merged func(*setup.Config), changed []string, want string) {
	t.Helper()
	checkValuesWeights(t, text, merged, changed, nil, want)
}

// checkValuesWeights is checkValues with the weights of --weight flags.
func checkValuesWeights(t *testing.T, text string, merged func(*setup.Config), changed []string, flagWeights map[string]float64, want string) {
	t.Helper()
	f, err := Parse("PATH", text)
	if err == nil {
		cfg := f.Config
		if merged != nil {
			merged(&cfg)
		}
		err = f.CheckValues(cfg, Flags{Changed: func(name string) bool { return slices.Contains(changed, name) }, Weights: flagWeights})
	}
	if want == "" {
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
		return
	}
	var placed *Error
	if err == nil || err.Error() != want || !errors.As(err, &placed) {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// TestNonFiniteValuesSayTheirLine: every number the file gives, TOML's
// nan, inf and -inf included, is checked finite at its line: an
// objective's weight (whose NaN the scorer would read as no weight, the
// default 1/m) in [[objective]], inline or in a source's table, svrl's
// weights, epsilon, penalty, a tolerance. A weight a --weight overrides,
// and a constraint or gate when --constraint or --gate is given, are the
// flags', not checked here.
func TestNonFiniteValuesSayTheirLine(t *testing.T) {
	const accuracy = "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\n"
	const safety = "[[objective]]\nname = \"safety\"\nexpr = \"metadata.safety\"\n"
	const sourceBy = "source_by = \"metadata.src\"\n[sources.a]\n"
	for _, c := range []struct {
		name, config string
		flagWeights  map[string]float64
		changed      []string
		want         string // the error, the config's path being PATH; "" for none
	}{
		{"objective weight nan", accuracy + "weight = nan\n" + safety, nil, nil, `PATH:4: weight accuracy: NaN is not a finite number`},
		{"second objective's weight inf", accuracy + safety + "weight = inf\n", nil, nil, `PATH:7: weight safety: +Inf is not a finite number`},
		{"objective weight -inf", "method = \"grpo\"\n" + accuracy + "weight = -inf\n", nil, nil, `PATH:5: weight accuracy: -Inf is not a finite number`},
		{"inline objective weight", "\nobjective = [{name = \"a\", expr = \"metadata.accuracy\", weight = nan}]\n", nil, nil,
			`PATH:2: weight a: NaN is not a finite number`},
		{"source objective weight", sourceBy + "[[sources.a.objective]]\nname = \"x\"\nexpr = \"metadata.x\"\nweight = nan\n", nil, nil,
			`PATH:6: source a: weight x: NaN is not a finite number`},
		{"weights table", "weights = {accuracy = -inf}\n" + accuracy, nil, nil, `PATH:1: weight accuracy: -Inf is not a finite number`},
		{"verification_weight", "computer = \"svrl\"\nverification_weight = nan\n", nil, nil, `PATH:2: verification_weight: NaN is not a finite number`},
		{"efficiency_weight", "computer = \"svrl\"\n\nefficiency_weight = -inf\n", nil, nil, `PATH:3: efficiency_weight: -Inf is not a finite number`},
		{"epsilon", "epsilon = nan\n", nil, nil, `PATH:1: epsilon NaN: must be a positive finite number`},
		{"penalty", "\npenalty = inf\n", nil, nil, `PATH:2: penalty +Inf: must be a finite number >= 0`},
		{"priority tolerance", "method = \"lexicographic\"\npriority = [\"accuracy\"]\npriority_tolerance = {accuracy = nan}\n" + accuracy, nil, nil,
			`PATH:3: priority tolerance accuracy: NaN must be a positive finite number`},

		{"objective weight under --weight", accuracy + "weight = nan\n", map[string]float64{"accuracy": 1}, nil, ""},
		{"source objective weight under --weight", sourceBy + "[[sources.a.objective]]\nname = \"x\"\nexpr = \"metadata.x\"\nweight = inf\n", map[string]float64{"x": 1}, nil, ""},
		{"source weights table under --weight", sourceBy + "objective = [{name = \"x\", expr = \"metadata.x\"}]\nweights = {x = nan}\n", map[string]float64{"x": 1}, nil, ""},
		{"another objective's weight under --weight", accuracy + "weight = nan\n" + safety, map[string]float64{"safety": 1}, nil,
			`PATH:4: weight accuracy: NaN is not a finite number`},
		{"constraint under --constraint", "constraint = [\"accuracy + 1\"]\n" + accuracy, nil, []string{"constraint"}, ""},
		{"gate under --gate", "gate = [\"accuracy true\"]\n" + accuracy, nil, []string{"gate"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) { checkValuesWeights(t, c.config, nil, c.changed, c.flagWeights, c.want) })
	}
}

// TestExpressionErrorsSayTheirPlace: an expression that does not compile
// is said at its line and column in the file, "PATH:LINE:COL:", with no
// "line 1" of its own that would read as the file's; when the column in
// the file cannot be told (an escape before the expression's text, an
// expression over several lines), the place is said as the expression's.
func TestExpressionErrorsSayTheirPlace(t *testing.T) {
	const objective = "[[objective]]\nname = \"safety\"\nexpr = \"metadata.safety\"\n"
	for _, c := range []struct{ name, config, want string }{
		{"a basic string", "\ngroup_by = \"metadata.\"\n",
			`PATH:2:21: expression group_by = "metadata.": unexpected end of expression`},
		{"a literal string", "batch_by = 'metadata[\"a\"] +'\n",
			`PATH:1:27: expression batch_by = "metadata[\"a\"] +": unexpected token EOF`},
		{"spaces around =", "id_by   =   \"metadata.\"\n",
			`PATH:1:22: expression id_by = "metadata.": unexpected end of expression`},
		{"an inline table", "objective = [{name = \"a\", expr = \"metadata.a\"}, {name = \"b\", expr = \"metadata.b +\"}]\n",
			`PATH:1:81: expression b = "metadata.b +": unexpected token EOF`},
		{"a list", "constraint = [\"safety >= 0.5\", \"safety >=\"]\n" + objective,
			`PATH:1:41: expression constraint = "safety >=": unexpected token EOF`},
		{"a source's objective", "source_by = \"metadata.src\"\n[sources.a]\nobjective = [{name = \"x\", expr = \"metadata.x +\"}]\n",
			`PATH:3:46: source a: expression x = "metadata.x +": unexpected token EOF`},
		{"an escape before it", "group_by = \"metadata[\\\"a\\\"] +\"\n",
			`PATH:1: expression group_by = "metadata[\"a\"] +": column 15 of the expression: unexpected token EOF`},
		{"over several lines", "group_by = \"\"\"\nmetadata.a +\n  +\"\"\"\n",
			`PATH:1: expression group_by = "metadata.a +\n  +": line 2, column 3 of the expression: unexpected token EOF`},
	} {
		t.Run(c.name, func(t *testing.T) { checkValues(t, c.config, nil, nil, c.want) })
	}
}

// TestSourceErrorsSayTheirLine: source_by and the [sources.NAME] tables
// are checked as the top level's objectives are, each error at its line:
// source_by's expression, a source_by without tables and tables without
// a source_by, each table's objectives (in [[sources.NAME.objective]] or
// an inline list), the table whole and its weights.
func TestSourceErrorsSayTheirLine(t *testing.T) {
	const sourceBy = "source_by = \"metadata.src\"\n"
	const x = "objective = [{name = \"x\", expr = \"metadata.x\"}]\n"
	for _, c := range []struct{ name, config, want string }{
		{"source_by's expression", "\nsource_by = \"metadata.\"\n[sources.a]\n" + x,
			`PATH:2:22: expression source_by = "metadata.": unexpected end of expression`},
		{"source_by without tables", "\n" + sourceBy,
			`PATH:2: source_by "metadata.src": no [sources.NAME] section gives a source's objectives`},
		{"tables without source_by", "\n[sources.b]\n" + x + "[sources.a]\n" + x,
			`PATH:2: sources need the pareto computer and source_by, their expression`},
		{"tables under svrl", sourceBy + "computer = \"svrl\"\n[sources.a]\n" + x,
			`PATH:3: sources need the pareto computer and source_by, their expression`},
		{"an entry's goal", sourceBy + "[sources.a]\n[[sources.a.objective]]\nname = \"x\"\nexpr = \"metadata.x\"\ngoal = \"maxx\"\n",
			`PATH:6: source a: objective x: unknown goal "maxx"; did you mean max? (valid: max, min)`},
		{"an entry without expr", sourceBy + "[sources.a]\n" + x + "[sources.b]\n[[sources.b.objective]]\nname = \"y\"\n",
			`PATH:5: source b: objective y has no expr`},
		{"a name given twice", sourceBy + "[sources.a]\nobjective = [{name = \"x\", expr = \"1\"}, {name = \"x\", expr = \"2\"}]\n",
			`PATH:3: source a: objective "x" is given twice`},
		{"a table without objectives", sourceBy + "[sources.a]\nweights = {x = 2}\n",
			`PATH:2: source a: the pareto scorer needs at least one objective`},
		{"a weight of no objective", sourceBy + "[sources.a]\n" + x + "weights = {y = 2}\n",
			`PATH:4: source a: weight: unknown objective "y" (objectives: x)`},
		{"a weight not finite", sourceBy + "[sources.a]\n" + x + "\n[sources.a.weights]\nx = nan\n",
			`PATH:6: source a: weight x: NaN is not a finite number`},
		{"a top-level weight of no source's objective", sourceBy + "\nweights = {z = 1}\n[sources.a]\n" + x,
			`PATH:3: weight: unknown objective "z" (objectives: x)`},
		{"a top-level minimize of no source's objective", sourceBy + "minimize = [\"z\"]\n[sources.a]\n" + x,
			`PATH:2: minimize: unknown objective "z" (objectives: x)`},
	} {
		t.Run(c.name, func(t *testing.T) { checkValues(t, c.config, nil, nil, c.want) })
	}
	// A --source-by over the file's is the flag's.
	checkValues(t, "source_by = \"metadata.\"\n[sources.a]\n"+x, func(c *setup.Config) { c.SourceBy = "metadata.src" }, []string{"source-by"}, "")
}

// TestScaleContradiction: a file setting scale = "group" or "batch" and
// normalize = false is warned of at scale's line, naming normalize's.
func TestScaleContradiction(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{"method = \"grpo\"\nnormalize = false\n\nscale = \"group\"\n",
			`PATH:4: scale = "group" and normalize = false (line 2) contradict each other: normalize = false wins, the rewards are not scaled (drop one of them)`},
		{"scale = \"batch\"\nnormalize = false\n",
			`PATH:1: scale = "batch" and normalize = false (line 2) contradict each other: normalize = false wins, the rewards are not scaled (drop one of them)`},
		{"scale = \"none\"\nnormalize = false\n", ""},
		{"scale = \"group\"\nnormalize = true\n", ""},
		{"scale = \"group\"\n", ""},
	} {
		f, err := Parse("PATH", c.config)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.ScaleContradiction(); got != c.want {
			t.Errorf("%q: warning\n%q\nwant\n%q", c.config, got, c.want)
		}
	}
}

// TestAt: an error about a value of the file is at its key's line, an
// expression's at its column too; a key the file does not set has no
// line.
func TestAt(t *testing.T) {
	f, err := Parse("PATH", "method = \"grpo\"\n\nprompt_by = \"metadata.\"\n[weights]\na = 1\n")
	if err != nil {
		t.Fatal(err)
	}
	_, compile := scoring.CompileExpression("prompt_by", f.Config.PromptBy)
	for _, c := range []struct {
		err  error
		key  []string
		want string
	}{
		{compile, []string{"prompt_by"}, `PATH:3:22: expression prompt_by = "metadata.": unexpected end of expression`},
		{errors.New("bad"), []string{"weights", "a"}, `PATH:5: bad`},
		{errors.New("bad"), []string{"task_metric"}, `PATH: bad`},
	} {
		if got := f.At(c.err, c.key...).Error(); got != c.want {
			t.Errorf("%v at %v: %q, want %q", c.err, c.key, got, c.want)
		}
	}
}

// TestUnknownKeysSuggestTheNear reads config files with misspelt keys: the
// error names each at its line with the keys close to it in its own table
// (top level, [[objective]], [sources.NAME] and its objectives), and a key
// of an unknown table gets none.
func TestUnknownKeysSuggestTheNear(t *testing.T) {
	const objective = "[[objective]]\nname = \"accuracy\"\nexpr = \"metadata.accuracy\"\n"
	for _, c := range []struct {
		name, config string
		want         string // the error up to its list of valid keys, the path being PATH
	}{
		{"top level", "method = \"pareto\"\nconstraints = [\"accuracy >= 0\"]\n",
			"PATH:2: unknown key constraints; did you mean constraint? (valid: "},
		{"nothing near", "rewardz = 1\n", "PATH:1: unknown key rewardz (valid: "},
		{"in [[objective]]", objective + "goall = \"max\"\n",
			"PATH:4: unknown key objective.goall; did you mean objective.goal? (valid: "},
		{"a source's table", "source_by = \"metadata.src\"\n[sources.math]\nobjectiv = []\n",
			"PATH:3: unknown key sources.math.objectiv; did you mean sources.math.objective? (valid: "},
		{"a source's objective", "source_by = \"metadata.src\"\n[[sources.math.objective]]\nname = \"a\"\nexpr = \"metadata.a\"\nwieght = 2\n",
			"PATH:5: unknown key sources.math.objective.wieght; did you mean sources.math.objective.weight? (valid: "},
		{"several", "constraints = []\nrewardz = 1\n",
			"PATH:1: unknown keys constraints (did you mean constraint?), rewardz (valid: "},
		{"an unknown table's keys", "[methods]\nscopee = \"group\"\n",
			"PATH:1: unknown keys methods (did you mean method?), methods.scopee (valid: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("PATH", c.config)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s...", err, c.want)
			}
		})
	}
}

// TestSourceOrderIsTheFiles: Parse keeps the order of the [sources.NAME]
// tables, which the decoded map loses.
func TestSourceOrderIsTheFiles(t *testing.T) {
	text := "source_by = \"task\"\n" +
		"[sources.math]\n[[sources.math.objective]]\nname = \"accuracy\"\nexpr = \"accuracy\"\n" +
		"[sources.chat]\n[[sources.chat.objective]]\nname = \"safety\"\nexpr = \"safety\"\n" +
		"[sources.agent.weights]\nsafety = 1\n"
	f, err := Parse("cfg.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"math", "chat", "agent"}; !slices.Equal(f.Config.SourceOrder, want) {
		t.Errorf("source order %v, want %v", f.Config.SourceOrder, want)
	}
}
