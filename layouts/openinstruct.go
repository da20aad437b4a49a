package layouts

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/stats"
)

// open-instruct, grpo_fast.py --save_traces --rollouts_save_path DIR:
// DIR/{run_name}_rollouts_{shard:06d}.jsonl, one RolloutRecord a line
// (step, sample_idx, prompt_idx = sample_idx // num_samples_per_prompt,
// prompt_tokens, response_tokens, reward, advantage, finish_reason,
// dataset, ground_truth, request_info, logprobs), and beside them
// {run_name}_metadata.jsonl, which the loaders leave out
// (open_instruct/rl_utils.py, _save_rollouts and save_rollout_metadata,
// allenai/open-instruct at e6c3044aa6201c8bfa4573c1b03142af599e730d).
//
// Defaults: group = prompt_idx, batch = step, objective reward (max,
// weight 1), the logged advantage compared with the rewards, and the
// advantage normalisation of DataPreparationActor._data_preparation_loop
// (open_instruct/data_loader.py), per group of a step:
//
//	standard: (r - mean) / (std + 1e-8), numpy's std (population)
//	centered: r - mean
//
// centered is advantage_normalization_type's default since 7917d4173
// (2026-03-20), standard before, since --save_traces came (d3db70937,
// 2026-01-23) with the same code: runs of both are about. The file does
// not say which one the run used; the logged advantage of the first
// file's groups does (openInstructNormalisation), and centered stands
// when it cannot tell. It is not decided again: a later step that
// contradicts it is warned of (openInstructNormalisationWarning).
//
// prompt_idx is a slot of the step's batch (sample_idx //
// num_samples_per_prompt), not a prompt: each step draws new prompts, so
// the prompts' analysis follows prompt_tokens, the prompt itself (the
// traces hold no text). The id is step:sample_idx, open-instruct's own.
// The step_count is the completion's length in tokens,
// jsonLen(response_tokens), the list of token ids _save_rollouts writes from
// result.responses, whose lengths open-instruct's own
// val/sequence_lengths averages (_data_preparation_loop): the length-drift
// check and the mean step_count follow it.
// The reward is one number, verification_reward (10) times the
// verifiers' score plus, with additive_format_reward, the format reward
// (1) (RewardConfig.build, open_instruct/ground_truth_utils.py): the
// pass threshold is read from its levels (openInstructPassThreshold).
var openInstructLayout = trainerLayout{
	name:         string(engine.TrainerOpenInstruct),
	description:  "open-instruct rollout traces",
	sentenceName: "open-instruct rollout traces",
	fields:       []string{openInstructPrompt, openInstructSample, openInstructReward, openInstructAdvantage, stepField},
	// The traces hold tokens only (prompt_tokens, response_tokens): no
	// text for the dashboard to show.
	method:       engine.GRPO,
	promptBy:     openInstructPromptTokens,
	promptWhy:    openInstructPrompt + " is a slot of the step's batch",
	groupKeyNote: "a slot of the step's batch (sample_idx // num_samples_per_prompt), not a prompt: each step draws new prompts",
	firstStep:    "open-instruct's advantage normalisation and pass threshold",
	filesWarning: openInstructRuns,
	defaults:     openInstructDefaults,
	warnings:     openInstructWarnings,
	runNote:      &openInstructFilteredNote,
	warningsRead: openInstructWarningsRead,
}

const (
	openInstructPrompt       = "prompt_idx"
	openInstructSample       = "sample_idx"
	openInstructPromptTokens = "prompt_tokens"
	openInstructReward       = "reward"
	openInstructAdvantage    = "advantage"
	openInstructEpsilon      = 1e-8 // the standard advantage's epsilon
	// openInstructID is step:sample_idx, integers as integers.
	openInstructID = `string(int(step)) + ":" + string(int(sample_idx))`
)

const (
	// openInstructResponseTokens is a list of token ids, read as its
	// JSON text: openInstructLength counts its elements, and is null
	// (the record's error: missing) where it is absent or null.
	openInstructResponseTokens = "response_tokens"
	openInstructLength         = "jsonLen(" + openInstructResponseTokens + ")"
)

// An openInstructMode is one of open-instruct's advantage normalisations
// (advantage_normalization_type).
type openInstructMode string

const (
	openInstructStandard openInstructMode = "standard"
	openInstructCentered openInstructMode = "centered"
)

func openInstructDefaults(cfg setup.Config, first loaders.FileFields) (setup.Config, string, *RowsCheck, error) {
	one := 1.0
	var notes []string
	cfg.GroupBy = cmp.Or(cfg.GroupBy, openInstructPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	if cfg.IDBy == "" && (first.Path == "" || slices.Contains(first.Names, openInstructSample)) {
		cfg.IDBy = openInstructID
		notes = append(notes, "id = step:"+openInstructSample)
	}
	// Only when the first record keeps its tokens: a record without them
	// would be an error.
	if cfg.StepCountBy == "" && slices.Contains(first.Names, openInstructResponseTokens) {
		cfg.StepCountBy = openInstructLength
		notes = append(notes, "step_count = "+openInstructLength+", the completion's tokens")
	}
	if usesPareto(cfg) && len(cfg.Objectives) == 0 {
		cfg.Objectives = []setup.ObjectiveConfig{{Name: openInstructReward, Expr: openInstructReward, Goal: string(scoring.Maximize), Weight: &one}}
	}
	// The reward is the run's one objective and what its verifiers
	// grade: named as the task metric (as verl's acc is), so that the
	// health checks dead_signal and phantom_signal grade it.
	if cfg.TaskMetric == "" && taskMetricIsReward(cfg) {
		cfg.TaskMetric = openInstructReward
	}
	cfg.LoggedAdvantage = cmp.Or(cfg.LoggedAdvantage, openInstructAdvantage)
	rows := newFirstRecords(first).records()
	mode, modeNote := openInstructChosenNormalisation(cfg, rows)
	if modeNote != "" {
		notes = append(notes, modeNote)
	}
	switch mode {
	case openInstructStandard:
		cfg.Scale = cmp.Or(cfg.Scale, string(engine.ScaleGroup))
		cfg.Std = cmp.Or(cfg.Std, string(engine.StdPopulation))
		if cfg.Epsilon == nil {
			eps := openInstructEpsilon
			cfg.Epsilon = &eps
		}
	default:
		cfg.Scale = cmp.Or(cfg.Scale, string(engine.ScaleNone))
	}
	if cfg.PassThreshold == nil && taskMetricIsReward(cfg) {
		threshold, note, levels := openInstructPassThreshold(rows)
		cfg.PassThreshold, cfg.PassThresholdLevels = threshold, levels
		notes = append(notes, note)
	}
	return cfg, strings.Join(notes, ", "), nil, nil
}

// taskMetricIsReward reports whether cfg's task metric is the trace's
// reward as written: the objective it names (the first when it names
// none) is reward, or it names none and is the expression reward.
func taskMetricIsReward(cfg setup.Config) bool {
	name := cfg.TaskMetric
	if name == "" {
		if len(cfg.Objectives) == 0 {
			return false
		}
		name = cfg.Objectives[0].Name
	}
	for _, o := range cfg.Objectives {
		if o.Name == name {
			return strings.TrimSpace(o.Expr) == openInstructReward
		}
	}
	return name == openInstructReward
}

// openInstructChosenNormalisation returns the advantage normalisation
// whose settings the layout sets where cfg sets none, and what the "read
// as" line says of it ("" for nothing): standard when cfg gives a std or
// an epsilon, standard's settings, which centered would ignore, and sets
// no scale (neither Scale nor Normalize); else the one the first records'
// logged advantages tell (openInstructNormalisation), with a warning when
// they do not tell and cfg sets no Scale.
func openInstructChosenNormalisation(cfg setup.Config, rows []scoring.Trajectory) (openInstructMode, string) {
	if cfg.Scale == "" && cfg.Normalize == nil && (cfg.Std != "" || cfg.Epsilon != nil) {
		return openInstructStandard, "advantage normalisation standard (a std or an epsilon given, which only standard reads)"
	}
	mode, untold := openInstructNormalisation(rows)
	if untold == "" || cfg.Scale != "" {
		return mode, ""
	}
	return mode, fmt.Sprintf("advantage normalisation centered, the default (warning: %s: give --std population --epsilon 1e-8 if the run's advantage_normalization_type was standard)", untold)
}

// openInstructNormalisation tells which advantage normalisation wrote the
// traces rows (the first file's first records: with filter_zero_std_samples,
// open-instruct's default, every group kept has rewards that differ) from their logged
// advantages: each group of a step (prompt_idx) whose rewards differ is
// reproduced by one of the two formulas only (to 1e-10, relative).
// standard when its groups all take the standard formula, centered
// otherwise: when they take the centered one, when there are no rows,
// when no group's rewards differ (both formulas give 0), or when neither
// formula fits (the comparison with the logged advantage then says so).
// The reason the rows do not tell is returned too, "" when they do.
func openInstructNormalisation(rows []scoring.Trajectory) (openInstructMode, string) {
	type key struct{ step, prompt float64 }
	type row struct{ reward, advantage float64 }
	groups := map[key][]row{}
	for i := range rows {
		m := rows[i].Metadata
		step, ok1 := m[stepField].(float64)
		prompt, ok2 := m[openInstructPrompt].(float64)
		reward, ok3 := m[openInstructReward].(float64)
		advantage, ok4 := m[openInstructAdvantage].(float64)
		if ok1 && ok2 && ok3 && ok4 {
			k := key{step, prompt}
			groups[k] = append(groups[k], row{reward, advantage})
		}
	}
	// The steps of the groups whose rewards differ, by the formulas
	// they fit.
	var standard, centered, neither []int64
	var rewards, advantages []float64
	for k, g := range groups {
		rewards, advantages = rewards[:0], advantages[:0]
		for _, r := range g {
			rewards, advantages = append(rewards, r.reward), append(advantages, r.advantage)
		}
		groupTells, fitsStandard, fitsCentered := openInstructFits(rewards, advantages)
		if !groupTells {
			continue
		}
		step := int64(k.step)
		if fitsStandard {
			standard = append(standard, step)
		}
		if fitsCentered {
			centered = append(centered, step)
		}
		if !fitsStandard && !fitsCentered {
			neither = append(neither, step)
		}
	}
	switch {
	case rows == nil:
		return openInstructCentered, "no file read to tell it from the logged advantages"
	case len(standard) > 0 && len(centered) == 0:
		return openInstructStandard, ""
	case len(centered) > 0 && len(standard) == 0:
		return openInstructCentered, ""
	case len(standard)+len(neither) == 0: // no group whose rewards differ
		return openInstructCentered, "no group of the first records has rewards that differ, which alone tell it"
	case len(standard) == 0:
		return openInstructCentered, "the first records' logged advantages fit neither formula in any group"
	}
	fits := fmt.Sprintf("the first records' logged advantages fit centered in %s and standard in %s", stepSpans(centered), stepSpans(standard))
	if len(neither) > 0 {
		fits += ", neither in " + stepSpans(neither)
	}
	return openInstructCentered, fits
}

// stepSpans says steps, in any order and repeated, as "step 3", "steps
// 1–2" or "steps 1, 3 and 5–7": each run of consecutive steps as its
// first and last.
func stepSpans(steps []int64) string {
	steps = slices.Compact(slices.Sorted(slices.Values(steps)))
	var spans []string
	for i := 0; i < len(steps); {
		j := i
		for j+1 < len(steps) && steps[j+1] == steps[j]+1 {
			j++
		}
		span := strconv.FormatInt(steps[i], 10)
		if j > i {
			span += "–" + strconv.FormatInt(steps[j], 10)
		}
		spans = append(spans, span)
		i = j + 1
	}
	if len(steps) == 1 {
		return "step " + spans[0]
	}
	return "steps " + english.List(spans)
}

// openInstructFits reports whether one group's rewards tell the
// normalisation (two or more that differ: else both formulas give 0), and
// which formulas reproduce each of its logged advantages (to 1e-10,
// relative), with numpy's mean and std (population) of the rewards.
func openInstructFits(rewards, advantages []float64) (told, standard, centered bool) {
	mean, std := stats.PopMeanStd(rewards)
	if len(rewards) < 2 || !(std > 0) {
		return false, false, false
	}
	standard, centered = true, true
	for j, r := range rewards {
		standard = standard && fitsLogged(advantages[j], (r-mean)/(std+openInstructEpsilon))
		centered = centered && fitsLogged(advantages[j], r-mean)
	}
	return true, standard, centered
}

// openInstructPassThreshold returns the pass threshold read from the
// levels of rows' rewards (the first file's first records: with filter_zero_std_samples,
// open-instruct's default, every group kept has rewards that differ), the
// note that says it, from how many records, and why, and the levels it
// read it from, which openInstructLevelWarning compares the later
// records' with; nil, and a warning in the note, when the levels do not
// tell (prompts.DefaultPassThreshold stands): then the levels are nil
// too, but for none above 0 (empty), where a later level tells what the
// first records did not.
//
// open-instruct's reward is verification_reward (v, 10 by default) times
// a verifier's score, plus, with additive_format_reward, the format
// reward (f, 1 by default), 0 or f; a truncated completion may get
// non_stop_penalty_value (0 or less). So with a verifier that scores 0 or
// 1 the rewards above 0 are among f, v and v + f, and a completion solves
// its task at v, which the default threshold 1 does not tell from a
// format reward of 1. Taking f < v (as the defaults are), the levels L
// above 0 give:
//
//	one level a:              v = a
//	a < b, b - a < a:         v = a, f = b - a   (no format-only row)
//	a < b, b = 2a:            b (v and v + f with f = v, or f and v + f
//	                          with v = f: only b surely passes, said)
//	a < b, b - a > a:         b - a (a is f; b is v, or v + f, and
//	                          b - a passes b, not a, either way)
//	a < b < c, c = a + b:     v = b, f = a
//
// Any other levels (none above 0, or a verifier's partial scores) do not
// tell.
func openInstructPassThreshold(rows []scoring.Trajectory) (*float64, string, []float64) {
	levels := []float64{}
	for i := range rows {
		r, ok := rows[i].Metadata[openInstructReward].(float64)
		if ok && r > 0 && !math.IsInf(r, 0) && !slices.Contains(levels, r) {
			levels = append(levels, r)
		}
	}
	slices.Sort(levels)
	text := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	// The records read are the first file's first peekRows: a level that
	// comes later is warned of (openInstructLevelWarning).
	from, fromOf := fmt.Sprintf("the first %d records", len(rows)), fmt.Sprintf("the first %d records'", len(rows))
	if len(rows) == 1 {
		from, fromOf = "the first record", "the first record's"
	}
	var threshold float64
	var why string
	switch n := len(levels); {
	case rows == nil:
		return nil, fmt.Sprintf("pass threshold %s, the default (warning: no file read to tell the verification reward from the rewards: give --pass-threshold, open-instruct's verification_reward, to stats, prompts or the dashboard)", text(prompts.DefaultPassThreshold)), nil
	case n == 1:
		threshold, why = levels[0], fmt.Sprintf("%s one reward above 0, read as verification_reward", fromOf)
	case n == 2 && levels[1]-levels[0] < levels[0]:
		threshold, why = levels[0], fmt.Sprintf("%s rewards above 0 are %s and %s: verification_reward %s, with or without a format reward", fromOf, text(levels[0]), text(levels[1]), text(levels[0]))
	case n == 2 && levels[1]-levels[0] == levels[0]:
		// a, 2a: v and v+f with f = v, or f and v+f with v = f: only 2a
		// passes under both readings.
		threshold, why = levels[1], fmt.Sprintf("%s rewards above 0 are %s and %s, twice it: the verification reward with a format reward as large, or a format reward alone: only %s surely passes, give --pass-threshold to stats, prompts or the dashboard if %s does", fromOf, text(levels[0]), text(levels[1]), text(levels[1]), text(levels[0]))
	case n == 2:
		threshold, why = levels[1]-levels[0], fmt.Sprintf("%s rewards above 0 are %s and %s: a format reward %s, and the verification reward with or without it", fromOf, text(levels[0]), text(levels[1]), text(levels[0]))
	case n == 3 && fitsLogged(levels[2], levels[0]+levels[1]):
		threshold, why = levels[1], fmt.Sprintf("%s rewards above 0 are %s, %s and %s: verification_reward %s plus a format reward %s", fromOf, text(levels[0]), text(levels[1]), text(levels[2]), text(levels[1]), text(levels[0]))
	case n == 0:
		return nil, fmt.Sprintf("pass threshold %s, the default (warning: no reward above 0 in %s tells the verification reward: give --pass-threshold, open-instruct's verification_reward, to stats, prompts or the dashboard)", text(prompts.DefaultPassThreshold), from), levels
	default:
		return nil, fmt.Sprintf("pass threshold %s, the default (warning: %s rewards above 0 take %d values, %s to %s, not those of a verification reward and a format reward: a partial score may pass; give --pass-threshold, open-instruct's verification_reward, to stats, prompts or the dashboard)",
			text(prompts.DefaultPassThreshold), fromOf, n, text(levels[0]), text(levels[n-1])), nil
	}
	return &threshold, fmt.Sprintf("pass threshold %s (%s)", text(threshold), why), levels
}

// fitsLogged reports whether the logged advantage x is y to 1e-10,
// relative to |y| above 1.
func fitsLogged(x, y float64) bool {
	return math.Abs(x-y) <= 1e-10*math.Max(1, math.Abs(y))
}

// WithLeftOut returns the sentence that says how the inputs are read
// with a note naming the files their directories hold that look like
// inputs and are not read, and why (loaders.LeftOut: open-instruct's run
// metadata, a compression not read, a rotated log), unchanged when there
// is none.
func WithLeftOut(sentence string, paths []string) string {
	note := loaders.LeftOutNote(loaders.LeftOut(paths))
	if note == "" {
		return sentence
	}
	if sentence == "" {
		return note
	}
	return sentence + "; " + note
}

// openInstructShard is the name of a shard, {run_name}_rollouts_{shard:06d}.jsonl
// (_save_rollouts), its run_name the submatch.
var openInstructShard = regexp.MustCompile(`^(.+)_rollouts_[0-9]{6}\.jsonl$`)

// maxRunsNamed is how many run names openInstructRuns names.
const maxRunsNamed = 3

// openInstructRuns warns when files are the shards of more than one run,
// by their names: a run resumed under a new run_name (open-instruct's
// default one ends with the start time) writes steps the first wrote
// again, whose rows then join the first run's groups of those steps
// (groups of twice the size, repeated IDs); "" for one run.
func openInstructRuns(files []loaders.FileFields) string {
	var runs []string
	for _, f := range files {
		if m := openInstructShard.FindStringSubmatch(filepath.Base(f.Path)); m != nil && !slices.Contains(runs, m[1]) {
			runs = append(runs, m[1])
		}
	}
	if len(runs) < 2 {
		return ""
	}
	names := strings.Join(runs[:min(len(runs), maxRunsNamed)], ", ")
	if more := len(runs) - maxRunsNamed; more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("the files are the shards of %d runs by their names (%s): a step both wrote (a run resumed under a new run_name) is read as one, its groups merged; give the files of one run", len(runs), names)
}

// openInstructWarnings warns of the groups where a reward is NaN or
// infinite (nanGroups): open-instruct's own advantages are NaN for every
// row of such a group (the block of _data_preparation_loop that computes
// them takes numpy's mean and std over the group), and the comparison
// with the logged advantage leaves them out; and of the rewards that
// contradict the pass threshold read from the first records
// (openInstructLevelWarning), and of a step whose logged advantages
// contradict the advantage normalisation res is computed with
// (openInstructNormalisationWarning).
func openInstructWarnings(cfg setup.Config, res *engine.Result, _ scoring.RowCap, _ map[int64]string, batches []int) []string {
	warnings := nanGroups(res, batches, openInstructReward, "open-instruct's own advantages are NaN for every row of such a group (numpy's mean over the group, in _data_preparation_loop), and the comparison with the logged advantage leaves them out")
	warnings = append(warnings, invalidRowGroups(res, batches, openInstructReward, invalidRowsTrainer{})...)
	for _, w := range []string{openInstructLevelWarning(cfg, res, batches), openInstructNormalisationWarning(cfg, res, batches)} {
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return warnings
}

// openInstructFiltered is the note of traces in which no group has zero
// spread: open-instruct's accumulate step (data_loader.py) drops each
// group whose np.std(reward_scores) is 0 before save_rollouts_to_disk when
// filter_zero_std_samples is on, its default, so its traces cannot show
// the groups without signal.
const openInstructFiltered = "open-instruct drops groups of zero spread before it writes its traces (filter_zero_std_samples, on by default): dead signal, frac_zero_std_groups, the health checks dead_signal and zero_spread and the prompts never or always solved cannot see them; no group of these traces has zero spread"

// openInstructFilteredNote is openInstructFiltered as a note of the run:
// a follower asks each batch once (openInstructFilteredOf), not the whole
// run per line.
var openInstructFilteredNote = runNote{
	text:    openInstructFiltered,
	whole:   openInstructFilteredWarning,
	refuted: "has a group of zero spread: filter_zero_std_samples was off",
	of: func(res *engine.Result, bi int) RunNoteEvidence {
		ev, _ := openInstructFilteredOf(res, bi)
		return ev
	},
}

// openInstructFilteredOf returns what batch bi of res says of
// openInstructFiltered: under scope group, a comparison group with two or
// more valid members and zero spread (diagnose.GroupSummary.ZeroSpread)
// refutes it (the filter was off), one with spread bears it out; the
// largest size of the latter is size.
func openInstructFilteredOf(res *engine.Result, bi int) (ev RunNoteEvidence, size int) {
	if res.Ranking.Scope != engine.ScopeGroup {
		return RunNoteSilent, 0
	}
	ev = RunNoteSilent
	for _, g := range diagnose.GroupSummaries(res, &res.Ranking.Batches[bi]) {
		if g.Valid < 2 {
			continue
		}
		if g.ZeroSpread {
			return RunNoteRefuted, 0
		}
		ev = RunNoteBorneOut
		size = max(size, g.N)
	}
	return ev, size
}

// openInstructFilteredWarning returns openInstructFiltered when every
// batch of res bears it out or says nothing of it, and one bears it out
// (openInstructFilteredOf), with -1; else "" and the index of the first
// batch that refutes it (-1 when none does, none bearing it out). The
// first step that holds fewer rows than the largest count of groups of a
// step times the group size is named as a sign of the groups dropped.
func openInstructFilteredWarning(res *engine.Result) (string, int) {
	compared := false
	most, size, mostStep := 0, 0, int64(0)
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		ev, n := openInstructFilteredOf(res, bi)
		if ev == RunNoteRefuted {
			return "", bi
		}
		compared = compared || ev == RunNoteBorneOut
		size = max(size, n)
		if len(b.Groups) > most {
			most, mostStep = len(b.Groups), b.Step
		}
	}
	if !compared {
		return "", -1
	}
	for bi := range res.Ranking.Batches {
		if b := &res.Ranking.Batches[bi]; len(b.Members) < most*size {
			return fmt.Sprintf("%s (step %d holds %d rows, fewer than step %d's %d groups of %d)", openInstructFiltered, b.Step, len(b.Members), mostStep, most, size), -1
		}
	}
	return openInstructFiltered, -1
}

// openInstructWarningsRead is the warningsRead of openInstructWarnings:
// the scope (nanGroups reads the comparison groups) and, when the options
// give one of open-instruct's normalisations (openInstructInForce), the
// settings that tell which; any other options give no normalisation
// warning, whichever they are.
func openInstructWarningsRead(o engine.Options) engine.Options {
	read := engine.Options{Scope: o.Scope}
	if _, ok := openInstructInForce(o); ok {
		read.Method, read.Normalize, read.Scale, read.Std, read.Epsilon = o.Method, o.Normalize, o.Scale, o.Std, o.Epsilon
	}
	return read
}

// openInstructInForce returns the advantage normalisation the options the
// rewards are computed with give (grpo, centered and unscaled under scale
// none or normalize off: centered; scaled by the group's population std
// with epsilon 1e-8: standard), false for any other options, which are
// not open-instruct's. The options, not the configuration the layout
// read: the dashboard's n and method switch and --match-logged change
// them.
func openInstructInForce(o engine.Options) (openInstructMode, bool) {
	if o.Method != engine.GRPO || o.Scope != engine.ScopeGroup {
		return "", false // per batch, neither of open-instruct's
	}
	switch {
	case !o.Normalize || o.Scale == engine.ScaleNone:
		return openInstructCentered, true
	case o.Scale == engine.ScaleGroup && o.Std == engine.StdPopulation && o.EpsilonOrDefault() == openInstructEpsilon:
		return openInstructStandard, true
	}
	return "", false
}

// openInstructNormalisationWarning warns when a step, in the batches of
// index batches, contradicts the advantage normalisation res.Options
// compute (openInstructInForce), whose default the layout read once from
// the first step and never reads again (following, a run resumed with another
// advantage_normalization_type): its groups' logged advantages fit the
// other formula, and none fits the one in force (openInstructFits, over
// the groups of the step's largest size, all of whose rows are valid,
// with a reward (the objective whose expression is reward) and a finite
// logged advantage: a group caught in part is not judged). Only the first such
// step is named: "" when a batch before it (a follower asks batch by
// batch) contradicts too, or when it is the first batch, which the
// normalisation was read from or which settings given overrule (the
// comparison with the logged advantage says so).
func openInstructNormalisationWarning(cfg setup.Config, res *engine.Result, batches []int) string {
	inForce, ok := openInstructInForce(res.Options)
	ev := res.Evaluation
	if !ok || ev.Logged == nil {
		return ""
	}
	k := -1
	for _, o := range cfg.Objectives {
		if strings.TrimSpace(o.Expr) == openInstructReward {
			k = slices.IndexFunc(res.Objectives, func(ro scoring.Objective) bool { return ro.Name == o.Name })
			break
		}
	}
	if k < 0 {
		return ""
	}
	other := openInstructStandard
	if inForce == openInstructStandard {
		other = openInstructCentered
	}
	var rewards, advantages []float64
	// fits counts batch bi's groups whose logged advantages fit the
	// normalisation in force, and the other.
	fits := func(bi int) (fitsInForce, fitsOther int) {
		groups := res.Ranking.Batches[bi].Groups
		size := 0
		for _, g := range groups {
			size = max(size, len(g.Members))
		}
		for _, g := range groups {
			if len(g.Members) != size {
				continue
			}
			rewards, advantages = rewards[:0], advantages[:0]
			for _, i := range g.Members {
				if !ev.Valid[i] || !ev.HasObjective(i, k) || ev.Missing(i, k) || math.IsNaN(ev.Logged[i]) || math.IsInf(ev.Logged[i], 0) {
					break
				}
				rewards, advantages = append(rewards, ev.Row(i)[k]), append(advantages, ev.Logged[i])
			}
			if len(rewards) != len(g.Members) {
				continue
			}
			told, standard, centered := openInstructFits(rewards, advantages)
			if !told {
				continue
			}
			if (inForce == openInstructStandard && standard) || (inForce == openInstructCentered && centered) {
				fitsInForce++
			}
			if (other == openInstructStandard && standard) || (other == openInstructCentered && centered) {
				fitsOther++
			}
		}
		return fitsInForce, fitsOther
	}
	contradicts := func(bi int) bool {
		in, out := fits(bi)
		return out > 0 && in == 0
	}
	first := -1
	for _, bi := range slices.Sorted(slices.Values(batches)) {
		if contradicts(bi) {
			first = bi
			break
		}
	}
	if first <= 0 {
		return ""
	}
	told := false // an earlier step fits the normalisation in force
	for bi := range first {
		in, out := fits(bi)
		if out > 0 && in == 0 {
			return "" // contradicted already: warned of then
		}
		told = told || in > 0
	}
	give := "--scale none"
	if other == openInstructStandard {
		give = "--scale group --std population --epsilon 1e-8"
	}
	why := "the run's advantage_normalization_type changed (a run resumed with another?)"
	if !told {
		why = "no earlier step fits it (their groups' rewards all equal, cut, or fitting neither)"
	}
	return fmt.Sprintf("step %d: the logged advantages fit open-instruct's %s advantage normalisation, not the %s one the rewards are computed with: %s; give %s if the run is %s throughout, or read its steps apart",
		res.Ranking.Batches[first].Step, other, inForce, why, give, other)
}

// maxLevelsShown is how many reward levels openInstructLevelWarning names.
const maxLevelsShown = 5

// openInstructLevelWarning warns when the task metric's objective (the
// reward), in the batches of index batches, takes a value above 0 that
// the first records the layout read the pass threshold from did not
// (cfg.PassThresholdLevels): a verification reward or a format reward
// seen only later makes that threshold wrong (a format reward 1 read as
// the verification reward passes every formatted completion). "" when the
// layout read no threshold, or every value above 0 is among the levels,
// or a batch before those (a follower asks batch by batch) has such a
// value: it was warned of there, once. One batch's warning names its
// step.
func openInstructLevelWarning(cfg setup.Config, res *engine.Result, batches []int) string {
	if cfg.PassThresholdLevels == nil || len(batches) == 0 {
		return ""
	}
	name := cfg.TaskMetric
	if name == "" && len(cfg.Objectives) > 0 {
		name = cfg.Objectives[0].Name
	}
	k := slices.IndexFunc(res.Objectives, func(o scoring.Objective) bool { return o.Name == name })
	if k < 0 {
		return ""
	}
	ev := res.Evaluation
	// unread returns the reward of row i when it is a value above 0 that
	// the first records did not have.
	unread := func(i int) (float64, bool) {
		if !ev.HasObjective(i, k) || ev.Missing(i, k) {
			return 0, false
		}
		r := ev.Row(i)[k]
		return r, r > 0 && !math.IsInf(r, 0) && !slices.Contains(cfg.PassThresholdLevels, r)
	}
	others := map[float64]bool{}
	rows := 0
	for _, bi := range batches {
		for _, i := range res.Ranking.Batches[bi].Members {
			if r, ok := unread(i); ok {
				rows++
				others[r] = true
			}
		}
	}
	if rows == 0 {
		return ""
	}
	for bi := range slices.Min(batches) {
		if slices.ContainsFunc(res.Ranking.Batches[bi].Members, func(i int) bool { _, ok := unread(i); return ok }) {
			return ""
		}
	}
	first := "the first records had none above 0 to read the pass threshold from: it is the default " + strconv.FormatFloat(prompts.DefaultPassThreshold, 'g', -1, 64)
	if cfg.PassThreshold != nil {
		first = fmt.Sprintf("the first records, which the pass threshold %s was read from, had only %s above 0", strconv.FormatFloat(*cfg.PassThreshold, 'g', -1, 64), levelList(cfg.PassThresholdLevels, "and"))
	}
	step := ""
	if len(batches) == 1 {
		step = fmt.Sprintf("step %d: ", res.Ranking.Batches[batches[0]].Step)
	}
	return fmt.Sprintf("%sthe reward is %s in %d %s: %s; that threshold may be wrong, give --pass-threshold (open-instruct's verification_reward) to stats, prompts or the dashboard",
		step, levelList(slices.Sorted(maps.Keys(others)), "or"), rows, english.Plural(rows, "row"), first)
}

// levelList writes sorted levels as "1, 10 and 11" (conjunction "and";
// "or" gives "1, 10 or 11"), the first maxLevelsShown of them and how
// many more.
func levelList(levels []float64, conjunction string) string {
	texts := make([]string, 0, min(len(levels), maxLevelsShown)+1)
	for _, x := range levels[:min(len(levels), maxLevelsShown)] {
		texts = append(texts, strconv.FormatFloat(x, 'g', -1, 64))
	}
	if more := len(levels) - maxLevelsShown; more > 0 {
		texts = append(texts, fmt.Sprintf("%d more", more))
	}
	return english.Join(texts, conjunction)
}
