package cmd

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/configfile"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
)

// settings are the flags shared by every command: the engine's config, the
// config file it may come from, and how inputs are read.
type settings struct {
	computer, method, scope, scale string
	task                           string
	verificationWeight             float64
	efficiencyWeight               float64
	objectives, minimize, weights  []string
	noNormalize                    bool
	configPath                     string
	skipInvalidLines               bool
	maxRecordBytes                 string
	maxRows                        int
	inputFormat                    string
	from                           string
	groupBy, batchBy, idBy         string
	epsilon                        float64
	std                            string
	groupOfOne                     string
	scorePrecision                 string
	nanSum                         bool
	loggedAdvantage                string
	matchLogged                    bool
	promptBy, taskMetric           string
	passThreshold                  float64
	filterGroups                   string
	// constraints, gates, penalty, normalizeObjectives, priority and
	// priorityTolerance are the objectives' structure (issue 25).
	constraints, gates          []string
	penalty                     float64
	normalizeObjectives         string
	priority, priorityTolerance string
	sourceBy                    string
	// divisorFlags are the explicit --std and --epsilon ("--std
	// population"), which warnIgnoredDivisor checks the method reads.
	// config sets them.
	divisorFlags []string
	// warnings are what config found probably wrong in the settings (a
	// config file that contradicts itself), said on stderr by sayWarnings.
	warnings []string
	// scaleFlag is an explicit --scale, "" without; scaleContradiction is
	// the warning of a config file whose scale and normalize = false
	// contradict each other; noNormalizeFlag is an explicit --no-normalize.
	// config sets them; they matter only to a method that reads the scale,
	// which the inputs' layout may set (applyScale).
	scaleFlag, scaleContradiction string
	noNormalizeFlag               bool
	// groupOfOneFlag is an explicit --group-of-one, "" without, which
	// warnIgnoredMethodFlags checks the method reads. config sets it.
	groupOfOneFlag string
	// file is the --config file, whose values' errors are said at their
	// line, also once the data names the objectives; nil without one.
	// config sets it.
	file *configFile
}

func (s *settings) register(f *pflag.FlagSet) {
	f.StringVar(&s.computer, "computer", "", "scorer: pareto or svrl (default pareto)")
	f.StringVar(&s.method, "method", "", "reward method: "+names(engine.AllMethods())+" (default pareto; the layout's for "+layouts.MethodDefaultsHelp()+")")
	f.StringArrayVar(&s.objectives, "objective", nil, "pareto objective `NAME=EXPR` (repeatable, order kept; replaces a config's [[objective]]s)")
	f.StringArrayVar(&s.minimize, "minimize", nil, "minimise the objective `NAME` (repeatable)")
	f.StringArrayVar(&s.weights, "weight", nil, "weight of an objective, `NAME=W` (repeatable)")
	f.StringVar(&s.task, "task", "", "svrl task expression (default metadata.accuracy)")
	f.Float64Var(&s.verificationWeight, "verification-weight", setup.DefaultVerificationWeight, "svrl weight of verification_cost")
	f.Float64Var(&s.efficiencyWeight, "efficiency-weight", setup.DefaultEfficiencyWeight, "svrl weight of efficiency")
	f.StringVar(&s.scope, "scope", "", "comparison groups: group or batch (default group)")
	f.StringVar(&s.scale, "scale", "", "grpo scale: group, batch or none (default group); group or batch normalises, over a config's normalize = false")
	f.BoolVar(&s.noNormalize, "no-normalize", false, "do not normalise rewards")
	f.StringVar(&s.configPath, "config", "", "TOML `FILE` with the same settings; flags override it")
	f.BoolVar(&s.skipInvalidLines, "skip-invalid-lines", false, "skip malformed lines (reported on stderr) instead of failing")
	f.StringVar(&s.maxRecordBytes, "max-record-bytes", "256MiB", "the longest record read, a JSONL line, JSON element or CSV row (`SIZE`: bytes, or with KiB, MiB, GiB); a longer one is an error (a JSONL line is skipped with --skip-invalid-lines)")
	f.IntVar(&s.maxRows, "max-rows", 0, "read at most `N` trajectories, the first in input order (0: all); a loud warning says the rest was not read")
	f.StringVar(&s.inputFormat, "input-format", "", "input format: "+strings.Join(loaders.FormatNames(), ", ")+" (default: by extension)")
	f.StringVar(&s.from, "from", "", "input layout: "+strings.Join(layouts.Names(), ", ")+" (default auto: recognised by the fields)")
	f.StringVar(&s.groupBy, "group-by", "", "set each record's group to `EXPR` (e.g. input, prompt)")
	f.StringVar(&s.batchBy, "batch-by", "", "set each record's batch to `EXPR`, an integer (e.g. step)")
	f.StringVar(&s.idBy, "id-by", "", "set each record's id to `EXPR`")
	f.Float64Var(&s.epsilon, "epsilon", engine.DefaultEpsilon, "added to the std in grpo and gdpo (verl 1e-6, OpenRLHF 1e-9)")
	f.StringVar(&s.std, "std", "", "the std grpo and gdpo divide by: sample (n - 1, TRL, verl) or population (n, open-instruct) (default sample)")
	f.StringVar(&s.groupOfOne, "group-of-one", "", "grpo and rloo reward of a group of one: zero or score (verl: mean 0, std 1) (default zero)")
	f.StringVar(&s.scorePrecision, "score-precision", "", "the arithmetic of the weighted score: float64 or float32 (TRL's, whose rewards tie where float32 sums do) (default float64; the TRL layout's float32)")
	f.BoolVar(&s.nanSum, "nansum", false, "a missing or NaN objective adds nothing to the score (TRL's nansum); invalid only when all are")
	f.StringVar(&s.loggedAdvantage, "logged-advantage", "", "`EXPR` of the advantage the trainer logged, compared with the rewards")
	f.StringVar(&s.promptBy, "prompt-by", "", "the prompt a record answers, `EXPR`, followed across steps (default: the group; "+layouts.PromptDefaultsHelp()+")")
	f.StringVar(&s.taskMetric, "task-metric", "", "the task metric: an objective `NAME` or a field EXPR (default the first objective; verl's acc when the dump has it)")
	f.Float64Var(&s.passThreshold, "pass-threshold", prompts.DefaultPassThreshold, "a completion passes when its task metric is >= `X` (open-instruct's layout reads it from the reward levels)")
	f.StringVar(&s.filterGroups, "filter-groups", "", "DAPO's filter as a what-if: drop the groups whose objective `NAME` has zero spread before the rewards are computed (verl's algorithm.filter_groups.metric)")
	f.StringArrayVar(&s.constraints, "constraint", nil, "constraint `EXPR` over objectives and fields, e.g. 'safety >= 0.9' (repeatable; replaces a config's constraint list): pareto ranks feasible fronts first, then by violation; scalar methods reward score - penalty * violation")
	f.Float64Var(&s.penalty, "penalty", engine.DefaultPenalty, "lambda of score - lambda * violation, with --constraint")
	f.StringArrayVar(&s.gates, "gate", nil, "`'NAME: EXPR'`: objective NAME's term counts in the score only where EXPR holds, else 0 (repeatable; replaces a config's gate list); pareto ranks see the objectives as they are")
	f.StringVar(&s.normalizeObjectives, "normalize-objectives", "", "normalise each objective within its comparison group (--scope) before weighting: "+names(engine.ObjectiveNorms)+" (default none)")
	f.StringVar(&s.sourceBy, "source-by", "", "set each record's source to `EXPR` (e.g. data_source): scored by its [sources.NAME] objectives of the config, compared within its source")
	f.StringVar(&s.priority, "priority", "", "lexicographic's objectives in order of priority, `a,b,c`")
	f.StringVar(&s.priorityTolerance, "priority-tolerance", "", "lexicographic's tolerances, `a=0.01,b=1`: values tie in the same bucket floor(x / t)")
	f.BoolVar(&s.matchLogged, "match-logged", false, "compute with the trainer settings (method, scale, epsilon, group of one, weights) that reproduce the logged advantage; a loud warning when none does")
}

func (s *settings) registerCompletions(cmd *cobra.Command) {
	fixed := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	for flag, values := range map[string][]string{
		"computer":             strs(setup.Computers),
		"method":               strs(engine.AllMethods()),
		"scope":                strs(engine.Scopes),
		"scale":                strs(engine.Scales),
		"input-format":         loaders.FormatNames(),
		"from":                 layouts.Names(),
		"group-of-one":         strs(engine.GroupOfOnes),
		"std":                  strs(engine.Stds),
		"score-precision":      strs(engine.ScorePrecisions),
		"normalize-objectives": strs(engine.ObjectiveNorms),
	} {
		_ = cmd.RegisterFlagCompletionFunc(flag, fixed(values...))
	}
}

// config builds the engine config: the config file (or fallback, when no
// --config is given), then every flag the user set on top of it. A bad
// value the file sets, and no flag overrides, is the error at its line
// (configfile.File.CheckValues).
func (s *settings) config(flags *pflag.FlagSet, fallback *setup.Config) (setup.Config, error) {
	var cfg setup.Config
	s.file = nil
	switch {
	case s.configPath != "":
		f, err := readConfig(s.configPath)
		if err != nil {
			return cfg, err
		}
		cfg, s.file = f.Config, &configFile{f, flags}
	case fallback != nil:
		cfg = *fallback
	}
	set := func(name string, apply func()) {
		if flags.Changed(name) {
			apply()
		}
	}
	set("computer", func() { cfg.Computer = s.computer })
	set("method", func() { cfg.Method = s.method })
	set("scope", func() { cfg.Scope = s.scope })
	s.scaleFlag, s.scaleContradiction = "", ""
	s.noNormalizeFlag = flags.Changed("no-normalize") && s.noNormalize
	if flags.Changed("scale") {
		s.scaleFlag = s.scale
	}
	if !flags.Changed("scale") && !flags.Changed("no-normalize") && s.file != nil {
		s.scaleContradiction = s.file.ScaleContradiction()
	}
	set("scale", func() { cfg.Scale = s.scale })
	set("task", func() { cfg.Task = s.task })
	set("verification-weight", func() { cfg.VerificationWeight = &s.verificationWeight })
	set("efficiency-weight", func() { cfg.EfficiencyWeight = &s.efficiencyWeight })
	set("no-normalize", func() { normalize := !s.noNormalize; cfg.Normalize = &normalize })
	set("from", func() { cfg.From = s.from })
	set("group-by", func() { cfg.GroupBy = s.groupBy })
	set("batch-by", func() { cfg.BatchBy = s.batchBy })
	set("id-by", func() { cfg.IDBy = s.idBy })
	set("epsilon", func() { cfg.Epsilon = &s.epsilon })
	set("std", func() { cfg.Std = s.std })
	s.divisorFlags = nil
	if flags.Changed("std") {
		s.divisorFlags = append(s.divisorFlags, "--std "+s.std)
	}
	if flags.Changed("epsilon") {
		s.divisorFlags = append(s.divisorFlags, "--epsilon "+strconv.FormatFloat(s.epsilon, 'g', -1, 64))
	}
	s.groupOfOneFlag = ""
	set("group-of-one", func() { cfg.GroupOfOne, s.groupOfOneFlag = s.groupOfOne, s.groupOfOne })
	set("score-precision", func() { cfg.ScorePrecision = s.scorePrecision })
	set("nansum", func() { cfg.NanSum = &s.nanSum })
	set("logged-advantage", func() { cfg.LoggedAdvantage = s.loggedAdvantage })
	set("match-logged", func() { cfg.MatchLogged = &s.matchLogged })
	set("prompt-by", func() { cfg.PromptBy = s.promptBy })
	set("task-metric", func() { cfg.TaskMetric = s.taskMetric })
	set("pass-threshold", func() { cfg.PassThreshold = &s.passThreshold })
	set("filter-groups", func() { cfg.FilterGroups = s.filterGroups })
	// --health-task, the task metric's older name, is an alias.
	if f := flags.Lookup(healthTaskFlag); f != nil && f.Changed {
		if flags.Changed("task-metric") && s.taskMetric != f.Value.String() {
			return cfg, usagef("--task-metric %q and --%s %q: give one (--%s is its older name)", s.taskMetric, healthTaskFlag, f.Value.String(), healthTaskFlag)
		}
		cfg.TaskMetric = f.Value.String()
	}
	set("penalty", func() { cfg.Penalty = &s.penalty })
	set("source-by", func() { cfg.SourceBy = s.sourceBy })
	set("normalize-objectives", func() { cfg.NormalizeObjectives = s.normalizeObjectives })
	// A list flag replaces the file's list, as --objective does: the
	// README's "flags override it".
	set("constraint", func() { cfg.Constraints = slices.Clone(s.constraints) })
	set("gate", func() { cfg.Gates = slices.Clone(s.gates) })
	if flags.Changed("priority") {
		cfg.Priority = splitList(s.priority)
	}
	if flags.Changed("priority-tolerance") {
		tol, err := parseTolerances(s.priorityTolerance)
		if err != nil {
			return cfg, err
		}
		cfg.PriorityTolerance = tol
	}
	if len(s.objectives) > 0 {
		objs, err := parseObjectives(s.objectives)
		if err != nil {
			return cfg, err
		}
		cfg.Objectives = objs
	}
	// --minimize and --weight set a property of the objective they name,
	// over the file's for that objective; the others' stay the file's.
	cfg.Minimize = append(slices.Clone(cfg.Minimize), s.minimize...)
	if len(s.weights) > 0 {
		weights, err := parseWeights(s.weights)
		if err != nil {
			return cfg, err
		}
		cfg.Weights = maps.Clone(cfg.Weights)
		if cfg.Weights == nil {
			cfg.Weights = map[string]float64{}
		}
		maps.Copy(cfg.Weights, weights)
		cfg.Sources = withoutWeights(cfg.Sources, weights)
	}
	return cfg, s.file.checkValues(cfg)
}

// withoutWeights returns sources without the weights their [sources.NAME]
// tables give the objectives that weights (--weight) names, which apply
// to every source (a source's table would otherwise win over the flag);
// sources itself is left as it is.
func withoutWeights(sources map[string]setup.SourceConfig, weights map[string]float64) map[string]setup.SourceConfig {
	if len(sources) == 0 {
		return sources
	}
	out := make(map[string]setup.SourceConfig, len(sources))
	for name, src := range sources {
		src.Weights = maps.Clone(src.Weights)
		maps.DeleteFunc(src.Weights, func(objective string, _ float64) bool {
			_, flagged := weights[objective]
			return flagged
		})
		out[name] = src
	}
	return out
}

// sayWarnings says on w the warnings config found.
func (s *settings) sayWarnings(w io.Writer) {
	for _, warning := range s.warnings {
		fmt.Fprintf(w, "rewardlens: warning: %s\n", textsafe.Line(warning))
	}
}

// resolve returns the config for the inputs args (the config file or
// fallback, the flags, then the defaults of the inputs' layout, --from),
// checked before any data is read, how to read the inputs, and the
// sentence that says how they are read ("" for plain records) and the
// check of the rows read (layouts.Apply's RowsCheck). followLog,
// nil unless the inputs are followed, is where the wait for a first
// record to recognise their layout by is said (applyLayout).
func (s *settings) resolve(ctx context.Context, flags *pflag.FlagSet, fallback *setup.Config, args []string, stdin io.Reader, followLog io.Writer) (setup.Config, loaders.Options, string, *layouts.RowsCheck, error) {
	cfg, err := s.config(flags, fallback)
	if err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	return s.resolveConfig(ctx, cfg, args, stdin, followLog)
}

// resolveFollowed is resolve for inputs followed (stats --follow, the
// dashboard's --follow): the settings are read once and what of them does
// not need the inputs is checked (precheck) before the paths that do not
// exist yet are waited for (awaitInputs), said on followLog.
func (s *settings) resolveFollowed(ctx context.Context, flags *pflag.FlagSet, fallback *setup.Config, args []string, stdin io.Reader, followLog io.Writer) (setup.Config, loaders.Options, string, *layouts.RowsCheck, error) {
	if err := refuseFollowedStdin(args); err != nil {
		return setup.Config{}, loaders.Options{}, "", nil, err
	}
	cfg, err := s.config(flags, fallback)
	if err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	if err := s.precheck(ctx, cfg); err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	if err := awaitInputs(ctx, args, followLog); err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	return s.resolveConfig(ctx, cfg, args, stdin, followLog)
}

// resolveConfig is resolve given cfg, the config file or fallback and the
// flags.
func (s *settings) resolveConfig(ctx context.Context, cfg setup.Config, args []string, stdin io.Reader, followLog io.Writer) (setup.Config, loaders.Options, string, *layouts.RowsCheck, error) {
	plain, err := s.loaderOptions(ctx, stdin, setup.Config{})
	if err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	stdinFirst, stdin := layouts.PeekStdin(cfg, args, plain)
	plain.Stdin = stdin
	cfg, layout, check, err := applyLayout(ctx, cfg, args, plain, stdinFirst, followLog)
	if err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	if cfg, err = s.applyScale(cfg); err != nil {
		return cfg, loaders.Options{}, "", nil, err
	}
	layout = layouts.WithStdin(layout, cfg, stdinFirst)
	layout = layouts.WithLeftOut(layout, args)
	if err := checkConfig(cfg); err != nil {
		// The layout's objectives known, the file's names are checked at
		// their line.
		if fileErr := s.file.checkValues(cfg); fileErr != nil {
			return cfg, loaders.Options{}, "", nil, fileErr
		}
		return cfg, loaders.Options{}, "", nil, err
	}
	s.warnIgnoredDivisor(cfg)
	s.warnIgnoredMethodFlags(cfg)
	opts, err := s.loaderOptions(ctx, stdin, cfg)
	return cfg, opts, layout, check, err
}

// warnIgnoredDivisor warns of an explicit --std or --epsilon that cfg's
// method does not read with its settings (the layout's defaults applied,
// checked): grpo under scale none, a method that divides by no std, or
// one whose trainer fixes its std and epsilon (MethodSpec.FixedDivisor).
func (s *settings) warnIgnoredDivisor(cfg setup.Config) {
	if len(s.divisorFlags) == 0 || cfg.MatchLogged != nil && *cfg.MatchLogged {
		return // --match-logged may compute with them: it says what it computes with
	}
	opts, err := engine.OptionsOf(cfg)
	if err != nil {
		return
	}
	m := opts.MethodSettings()
	if m.Epsilon != 0 {
		return
	}
	why := "method " + string(opts.Method) + " divides by no std"
	spec := engine.Spec(opts.Method)
	switch {
	case spec.FixedDivisor != "":
		why = "method " + string(opts.Method) + " divides by " + spec.FixedDivisor + ", fixed"
	case spec.Divides && m.Normalize != nil && !*m.Normalize:
		why = "method " + string(opts.Method) + " divides by no std when not normalised"
	}
	if m.Scale == engine.ScaleNone {
		why = "method " + string(opts.Method) + " under scale none divides by no std (--scale group divides by the group's std)"
	}
	s.warnings = append(s.warnings, strings.Join(s.divisorFlags, " and ")+" ignored: "+why)
}

// warnIgnoredMethodFlags warns of an explicit --no-normalize or
// --group-of-one that cfg's method (the layout's defaults applied,
// checked) does not read: --no-normalize by a method with no normalisation
// (MethodSpec.Unnormalised), --group-of-one by one that does not read it
// (MethodSpec.ReadsGroupOfOne), saying what the method gives a group of
// one when its trainer fixes it (MethodSpec.FixedGroupOfOne) and asked
// otherwise, as --scale is warned of (applyScale).
func (s *settings) warnIgnoredMethodFlags(cfg setup.Config) {
	if cfg.MatchLogged != nil && *cfg.MatchLogged {
		return // --match-logged may compute with another method: it says what it computes with
	}
	opts, err := engine.OptionsOf(cfg)
	if err != nil {
		return
	}
	spec := engine.Spec(opts.Method)
	if s.noNormalizeFlag && spec.Unnormalised != "" {
		s.warnings = append(s.warnings, fmt.Sprintf("--no-normalize is ignored: method %s has no normalisation: %s", opts.Method, spec.Unnormalised))
	}
	if s.groupOfOneFlag == "" || spec.ReadsGroupOfOne || s.groupOfOneFlag == string(spec.FixedGroupOfOne) {
		return
	}
	why := "does not read it"
	switch spec.FixedGroupOfOne {
	case engine.GroupOfOneScore:
		why = "rewards a group of one by its score (verl's mean 0), fixed"
	case engine.GroupOfOneZero:
		why = "gives a group of one 0, fixed"
	}
	s.warnings = append(s.warnings, fmt.Sprintf("--group-of-one %s is ignored: method %s %s", s.groupOfOneFlag, opts.Method, why))
}

// applyScale returns cfg with what an explicit --scale and a config file's
// scale say, for cfg's method (the layout's defaults applied): for a
// method that reads the scale (grpo), --scale group|batch asks for scaled
// rewards, turning on the normalisation a config file's normalize = false
// turned off, and with --no-normalize is a usage error; another method is
// told that it ignores --scale (with --no-normalize too: nothing
// contradicts).
func (s *settings) applyScale(cfg setup.Config) (setup.Config, error) {
	method := engine.Method(cfg.Method)
	if method == "" {
		method = engine.DefaultOptions().Method
	}
	spec := engine.Spec(method)
	if spec == nil { // an unknown method, which checkConfig says
		return cfg, nil
	}
	if err := s.scaleFlagsContradict(method); err != nil {
		return cfg, err
	}
	switch {
	case !spec.ReadsScale:
		if s.scaleFlag != "" {
			s.warnings = append(s.warnings, fmt.Sprintf("--scale %s is ignored: method %s does not read the scale", s.scaleFlag, method))
		}
	case s.scalesExplicitly():
		normalize := true
		cfg.Normalize = &normalize
	case s.scaleContradiction != "":
		s.warnings = append(s.warnings, s.scaleContradiction)
	}
	return cfg, nil
}

// scalesExplicitly reports whether --scale group or batch was given.
func (s *settings) scalesExplicitly() bool {
	return s.scaleFlag == string(engine.ScaleGroup) || s.scaleFlag == string(engine.ScaleBatch)
}

// scaleFlagsContradict returns the usage error of --scale group|batch with
// --no-normalize when method reads the scale; for another method both
// say the same (unscaled rewards) and it returns nil.
func (s *settings) scaleFlagsContradict(method engine.Method) error {
	if spec := engine.Spec(method); spec == nil || !spec.ReadsScale || !s.noNormalizeFlag || !s.scalesExplicitly() {
		return nil
	}
	return usagef("--scale %s and --no-normalize contradict each other for method %s: give one (--scale none is --no-normalize for %s)", s.scaleFlag, method, method)
}

// precheck checks what of the settings cfg does not need the inputs (the
// record fields, the method and expressions, as checkConfig does before a
// layout's defaults): following a path not there yet (awaitInputs), a
// mistyped flag is said at once, not when the run's first file comes.
func (s *settings) precheck(ctx context.Context, cfg setup.Config) error {
	if err := checkFrom(cfg); err != nil {
		return err
	}
	// With a method given, not a layout's to come, --scale contradicting
	// --no-normalize is said at once.
	if err := s.scaleFlagsContradict(engine.Method(cfg.Method)); err != nil {
		return err
	}
	if _, err := s.loaderOptions(ctx, nil, cfg); err != nil {
		return err
	}
	return checkConfig(cfg)
}

// loaderOptions returns how to read the inputs, with cfg's record fields;
// the reading stops once ctx is done (ctrl+c).
func (s *settings) loaderOptions(ctx context.Context, stdin io.Reader, cfg setup.Config) (loaders.Options, error) {
	format, err := loaders.ParseFormat(s.inputFormat)
	if err != nil {
		return loaders.Options{}, usageError{fmt.Errorf("--input-format: %w", err)}
	}
	fields, err := cfg.RecordFields()
	if err != nil {
		return loaders.Options{}, inputError{err}
	}
	maxRecord, err := parseByteSize(s.maxRecordBytes)
	if err != nil {
		return loaders.Options{}, usageError{fmt.Errorf("--max-record-bytes: %w", err)}
	}
	if s.maxRows < 0 {
		return loaders.Options{}, usagef("--max-rows: %d is negative", s.maxRows)
	}
	return loaders.Options{Format: format, SkipInvalid: s.skipInvalidLines, Stdin: stdin, Context: ctx, Fields: fields, MaxRecordBytes: maxRecord, MaxRows: s.maxRows, RelogField: layouts.RelogField(cfg)}, nil
}

func parseObjectives(specs []string) ([]setup.ObjectiveConfig, error) {
	objs := make([]setup.ObjectiveConfig, 0, len(specs))
	for _, spec := range specs {
		name, expr, ok := strings.Cut(spec, "=")
		name, expr = strings.TrimSpace(name), strings.TrimSpace(expr)
		if !ok || name == "" || expr == "" {
			return nil, usagef("--objective %q: want NAME=EXPR", spec)
		}
		objs = append(objs, setup.ObjectiveConfig{Name: name, Expr: expr})
	}
	return objs, nil
}

// splitList splits "a, b,c" into its names.
func splitList(text string) []string {
	var out []string
	for _, name := range strings.Split(text, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// parseTolerances reads --priority-tolerance's "a=0.01,b=1".
func parseTolerances(text string) (map[string]float64, error) {
	tol := map[string]float64{}
	for _, spec := range splitList(text) {
		name, value, ok := strings.Cut(spec, "=")
		t, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if !ok || strings.TrimSpace(name) == "" || err != nil {
			return nil, usagef("--priority-tolerance %q: want NAME=T with T a number", spec)
		}
		tol[strings.TrimSpace(name)] = t
	}
	return tol, nil
}

func parseWeights(specs []string) (map[string]float64, error) {
	weights := map[string]float64{}
	for _, spec := range specs {
		name, value, ok := strings.Cut(spec, "=")
		w, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if !ok || strings.TrimSpace(name) == "" || err != nil {
			return nil, usagef("--weight %q: want NAME=W with W a number", spec)
		}
		weights[strings.TrimSpace(name)] = w
	}
	return weights, nil
}

// readConfig is configfile.Read with the CLI's errors: the file's are the
// user's (exit status 2).
func readConfig(path string) (*configfile.File, error) {
	f, err := configfile.Read(path)
	if err != nil {
		return nil, inputError{err}
	}
	return f, nil
}

// configFile is the --config file and the flags given over it: an error
// about a value the file sets, and no flag overrides, is said at the
// line of its key. Its methods take a nil one for no file.
type configFile struct {
	*configfile.File
	flags *pflag.FlagSet
}

// checkValues is File.CheckValues with the CLI's errors, merged being the
// config of the file and the flags.
func (f *configFile) checkValues(merged setup.Config) error {
	if f == nil {
		return nil
	}
	weights, _ := f.flags.GetStringArray("weight")
	flagWeights, _ := parseWeights(weights) // its error is config's
	if err := f.CheckValues(merged, configfile.Flags{Changed: f.changed, Weights: flagWeights}); err != nil {
		return inputError{err}
	}
	return nil
}

// changed reports whether the flag name was given (for task-metric, its
// older name too).
func (f *configFile) changed(name string) bool {
	return f.flags.Changed(name) || name == "task-metric" && f.flags.Changed(healthTaskFlag)
}

// uses reports whether the value of the top-level key used is the file's:
// set there, and not by its flag (the key with - for _).
func (f *configFile) uses(key string) bool {
	return f != nil && f.Line(key) > 0 && !f.changed(strings.ReplaceAll(key, "_", "-"))
}

// at is err, about the file's value of key, at the line of key.
func (f *configFile) at(key string, err error) error {
	return inputError{f.At(err, key)}
}

// newComputer builds the reward computer for cfg, inferring the pareto
// objectives from the first trajectory when none are configured; note is
// then the line that says them (setup.Config.InferredNote). Settings
// errors are the user's (exit status 2); file, the --config file (nil for
// none), says which are its own, at their line: the names the file gives
// can be checked once the objectives are known.
func newComputer(cfg setup.Config, first *scoring.Trajectory, file *configFile) (c *engine.RewardComputer, note string, err error) {
	inferred, err := cfg.InferObjectives(first)
	if err != nil {
		return nil, "", inputError{err}
	}
	c, err = engine.New(inferred)
	if err != nil {
		if fileErr := file.checkValues(inferred); fileErr != nil {
			return nil, "", fileErr
		}
		return nil, "", inputError{err}
	}
	return c, cfg.InferredNote(inferred), nil
}

// sayInferred says on stderr the objectives inferred (note, from
// newComputer), if any.
func sayInferred(w io.Writer, note string) {
	if note != "" {
		fmt.Fprintf(w, "rewardlens: %s\n", textsafe.Line(note))
	}
}

// checkConfig compiles cfg's expressions and checks its names before any
// data is read. A pareto config without objectives is checked once they are
// inferred.
func checkConfig(cfg setup.Config) error {
	if (cfg.Computer == "" || cfg.Computer == string(setup.ComputerPareto)) && len(cfg.Objectives) == 0 && len(cfg.Sources) == 0 {
		probe := cfg
		// Names of objectives not yet inferred are checked once they are.
		probe.Weights, probe.Minimize, probe.Gates, probe.Priority, probe.PriorityTolerance = nil, nil, nil, nil, nil
		if probe.Method == string(engine.Lexicographic) && len(cfg.Priority) > 0 {
			probe.Method = ""
		}
		probe.Objectives = []setup.ObjectiveConfig{{Name: "probe", Expr: "0"}}
		_, err := engine.New(probe)
		if err != nil {
			return inputError{err}
		}
		// A gate that does not parse fails whatever the objectives.
		if err := scoring.CheckGates(cfg.Gates); err != nil {
			return inputError{err}
		}
		return nil
	}
	_, err := engine.New(cfg)
	if err != nil {
		return inputError{err}
	}
	return nil
}

func names[T ~string](vs []T) string { return strings.Join(strs(vs), ", ") }

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// parseByteSize reads a size: a whole number of bytes, or one followed by
// KiB, MiB or GiB (powers of 1024); at least 1.
func parseByteSize(text string) (int64, error) {
	s := strings.TrimSpace(text)
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, unit = strings.TrimSpace(rest), u.size
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q: want a size such as 1048576, 64KiB or 256MiB", text)
	}
	return n * unit, nil
}
