package agreement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
)

// Reproduces is how close rewards must come to every logged
// advantage for their settings to reproduce the log, relative to the
// logged value beyond 1 (Diff.MaxScaledDiff): above TRL's
// float32 rounding (about 1e-7 relative), below Tolerance, beyond
// which a row differs.
const Reproduces = 1e-5

// TrainerOptions returns opts as a trainer computes its advantages: a
// method a trainer computes (engine.MethodSpec.Trainers: grpo, rloo, gdpo,
// rpp-baseline, rloo-whitened, grpo-passk, gpg) is kept, any other becomes grpo, with
// opts' other settings.
func TrainerOptions(opts engine.Options) engine.Options {
	if spec := engine.Spec(opts.Method); spec == nil || len(spec.Trainers) == 0 {
		opts.Method = engine.GRPO
	}
	return opts
}

// trainerSetting is one value of a setting in which the trainers'
// advantages differ: set writes it into the options (objectives are the
// evaluation's, for the weights).
type trainerSetting func(o *engine.Options, objectives []scoring.Objective)

// A settingValue is a value of a setting in which the trainers differ and
// the trainers that have it: a trainer's layout tries the values its
// trainer has alone (Match.tries), rows of no trainer's layout every one.
type settingValue struct {
	set      trainerSetting
	trainers []engine.Trainer
}

// method returns the method value sets, "" for a value of another setting.
func (value settingValue) method() engine.Method {
	var o engine.Options
	value.set(&o, nil)
	return o.Method
}

// A settingRow is a setting in which the trainers differ: its name as the
// warnings list the settings tried (settingsTried; "" for the formula,
// whose methods they name, and for a setting they do not name), and its
// values.
type settingRow struct {
	name   string
	values []settingValue
}

var (
	trl, verl, openInstruct, openRLHF = engine.TrainerTRL, engine.TrainerVerl, engine.TrainerOpenInstruct, engine.TrainerOpenRLHF
	everyTrainer                      = engine.Trainers
)

// The formulas of grpo and of the methods whose weights fitWeights fits,
// which the formula row of trainerSettings holds too.
var (
	// TRL scale_rewards="group" (GRPOTrainer._generate_and_score_completions:
	// nanstd per group, + 1e-4); verl compute_grpo_outcome_advantage with
	// norm_adv_by_std_in_grpo=True (torch.std); OpenRLHF group_norm.
	grpoScaleGroup = settingValue{grpoScale(engine.ScaleGroup), []engine.Trainer{trl, verl, openRLHF}}
	// TRL scale_rewards="batch" (_generate_and_score_completions: nanstd of
	// the whole batch); no other trainer divides by the batch's std.
	grpoScaleBatch = settingValue{grpoScale(engine.ScaleBatch), []engine.Trainer{trl}}
	// TRL scale_rewards="none"; verl norm_adv_by_std_in_grpo=False
	// (compute_grpo_outcome_advantage); open-instruct
	// advantage_normalization_type="centered" (_data_preparation_loop);
	// OpenRLHF dr_grpo.
	grpoScaleNone = settingValue{grpoScale(engine.ScaleNone), []engine.Trainer{trl, verl, openInstruct, openRLHF}}
	// TRL multi_objective_aggregation="normalize_then_sum"
	// (_generate_and_score_completions).
	gdpoValue = settingValue{useGDPO, []engine.Trainer{trl}}
	// verl compute_rloo_outcome_advantage; TRL RLOOTrainer
	// (normalize_advantages=False); OpenRLHF rloo.
	rlooValue = settingValue{useRLOO, []engine.Trainer{trl, verl, openRLHF}}
)

// trainerSettings are the settings in which the trainers differ (README,
// Methods, "Where the trainers differ"), each with the values the trainers
// use and which trainers use each, as read in TRL's grpo_trainer.py
// (GRPOTrainer.__init__ and _generate_and_score_completions, commit
// f2cd57710ae3), verl's core_algos.py (compute_grpo_outcome_advantage,
// compute_rloo_outcome_advantage,
// compute_reinforce_plus_plus_baseline_outcome_advantage,
// compute_grpo_passk_outcome_advantage, compute_gpg_outcome_advantage, commit
// b178a3cd56f5; ray_trainer.py's compute_advantage passes none of them an
// epsilon), TRL's rloo_trainer.py (normalize_advantages, commit
// f2cd57710ae3), open-instruct's data_loader.py (_data_preparation_loop,
// commit e6c3044aa) and OpenRLHF's experience_maker.py (the group_norm
// estimator, commit 3c3be6234e0c).
// MatchLogged tries every combination of one value of each setting or the
// value as given, then weights fitted to the log (fitWeights); a value is
// an entry of its row, with the trainers that have it (a new setting also
// needs its flag in settingsChanges; a new method only its MethodSpec,
// which says what it reads). The weights
// come first, as the combinations are tried in order and each set of
// weights is scored once.
var trainerSettings = []settingRow{
	{"weights", []settingValue{
		// TRL: reward_weights' default (GRPOTrainer.__init__, torch.ones);
		// verl (the reward manager's compute_score), open-instruct
		// (RewardConfig.build): the reward is one number, the sum of what
		// makes it.
		{equalWeights(func(int) float64 { return 1 }), everyTrainer},
		// rewardlens's default for several objectives; TRL's
		// reward_weights (GRPOTrainer.__init__) may be anything.
		{equalWeights(func(m int) float64 { return 1 / float64(m) }), []engine.Trainer{trl}},
	}},
	{"", []settingValue{ // the advantage's formula: settingsTried names the scale and the methods
		grpoScaleGroup,
		grpoScaleBatch,
		grpoScaleNone,
		// open-instruct advantage_normalization_type="standard"
		// (_data_preparation_loop: numpy's std, n; + 1e-8).
		{grpoPopulation, []engine.Trainer{openInstruct}},
		gdpoValue,
		rlooValue,
		// verl compute_reinforce_plus_plus_baseline_outcome_advantage.
		{useMethod(engine.RPPBaseline), []engine.Trainer{verl}},
		// TRL RLOOTrainer, normalize_advantages=True.
		{useMethod(engine.RLOOWhitened), []engine.Trainer{trl}},
		// verl compute_grpo_passk_outcome_advantage, which reads
		// norm_adv_by_std_in_grpo from its config: True divides the margin
		// by torch.std + epsilon, False leaves it unscaled.
		{useGRPOPassK, []engine.Trainer{verl}},
		{useGRPOPassKUnnormalised, []engine.Trainer{verl}},
		// verl compute_gpg_outcome_advantage.
		{useMethod(engine.GPG), []engine.Trainer{verl}},
	}},
	{"epsilon", []settingValue{ // the epsilon added to the std
		{epsilon(1e-4), []engine.Trainer{trl}},      // GRPOTrainer: std_rewards + 1e-4
		{epsilon(1e-6), []engine.Trainer{verl}},     // compute_grpo_outcome_advantage's default, never passed
		{epsilon(1e-9), []engine.Trainer{openRLHF}}, // the group_norm estimator
	}},
	{"group of one", []settingValue{
		// TRL _generate_and_score_completions (only its evaluation has
		// one); open-instruct _data_preparation_loop: numpy's std of one
		// is 0, and so is s - mean.
		{groupOfOne(engine.GroupOfOneZero), []engine.Trainer{trl, openInstruct}},
		// verl compute_grpo_outcome_advantage, compute_rloo_outcome_advantage:
		// mean 0, std 1.
		{groupOfOne(engine.GroupOfOneScore), []engine.Trainer{verl}},
	}},
	{"", []settingValue{ // the objectives' normalisation (--normalize-objectives)
		{withoutObjectiveNorm, everyTrainer}, // every trainer sums the rewards as returned
	}},
}

func equalWeights(w func(m int) float64) trainerSetting {
	return func(o *engine.Options, objectives []scoring.Objective) {
		o.Weights = make([]float64, len(objectives))
		for k := range o.Weights {
			o.Weights[k] = w(len(objectives))
		}
	}
}

// grpoScale is grpo with scale and the sample std (n - 1: TRL's nanstd,
// verl's torch.std, OpenRLHF's).
func grpoScale(scale engine.Scale) trainerSetting {
	return func(o *engine.Options, _ []scoring.Objective) {
		o.Method, o.Scale, o.Normalize, o.Std = engine.GRPO, scale, true, engine.StdSample
	}
}

// grpoPopulation is open-instruct's standard advantage
// (_data_preparation_loop in open_instruct/data_loader.py): grpo with
// scale group, the population std (numpy's, n) and epsilon 1e-8, which
// the epsilon row may change.
func grpoPopulation(o *engine.Options, _ []scoring.Objective) {
	o.Method, o.Scale, o.Normalize, o.Std, o.Epsilon = engine.GRPO, engine.ScaleGroup, true, engine.StdPopulation, 1e-8
}

func useGDPO(o *engine.Options, _ []scoring.Objective) { o.Method, o.Normalize = engine.GDPO, true }

func useRLOO(o *engine.Options, _ []scoring.Objective) { o.Method = engine.RLOO }

// useGRPOPassK is verl's grpo_passk with its default
// norm_adv_by_std_in_grpo: normalised, torch's sample std.
func useGRPOPassK(o *engine.Options, _ []scoring.Objective) {
	o.Method, o.Normalize, o.Std = engine.GRPOPassK, true, engine.StdSample
}

// useGRPOPassKUnnormalised is verl's grpo_passk with
// norm_adv_by_std_in_grpo=False: the margin unscaled.
func useGRPOPassKUnnormalised(o *engine.Options, _ []scoring.Objective) {
	o.Method, o.Normalize = engine.GRPOPassK, false
}

// useMethod is method m, which reads none of the settings of the rows
// below (its trainer fixes them).
func useMethod(m engine.Method) trainerSetting {
	return func(o *engine.Options, _ []scoring.Objective) { o.Method = m }
}

func epsilon(eps float64) trainerSetting {
	return func(o *engine.Options, _ []scoring.Objective) { o.Epsilon = eps }
}

// withoutObjectiveNorm leaves the objectives' values raw: no trainer
// normalises them before weighting.
func withoutObjectiveNorm(o *engine.Options, _ []scoring.Objective) {
	o.NormalizeObjectives = engine.NormNone
}

func groupOfOne(g engine.GroupOfOne) trainerSetting {
	return func(o *engine.Options, _ []scoring.Objective) { o.GroupOfOne = g }
}

// Fit is how the rewards of one set of settings compare with the
// logged advantages.
type Fit struct {
	// Options are the settings.
	Options engine.Options
	// Changes are the flags that turn the options given to MatchLogged
	// into these, e.g. ["--scale batch"].
	Changes []string
	// Overall compares every row; Batches each batch's, in the order of
	// Match.Steps.
	Overall Diff
	Batches []Diff
	// ScaleFree is true for weights fitted to a log that does not tell
	// their common factor (fittedWeights.scaleFree): twice or half them
	// reproduce it as well.
	ScaleFree bool
	// fitted is true for weights fitted to the log (fitWeights).
	fitted bool
	// Kept compares the rows outside the groups the trainer grouped
	// otherwise (Match.leftOut); Overall's rows when there are none.
	Kept Diff
	// leftOut names those groups when the fit reproduces Kept but not
	// Overall: the fit is found of the other rows; "" otherwise.
	leftOut string
}

// reproduced is the comparison by which f reproduces the log: Kept when
// the rows of groups grouped otherwise are left out of it, else Overall.
func (f *Fit) reproduced() Diff {
	if f.leftOut != "" {
		return f.Kept
	}
	return f.Overall
}

// leftOutNote says, after the flags of a fit found with rows left out
// (leftOut), which: "" for none.
func (f *Fit) leftOutNote() string {
	if f.leftOut == "" {
		return ""
	}
	return fmt.Sprintf(" with %s left out, which no setting of the objectives reproduces (with them, %s)", f.leftOut, DifferingRows(f.Overall))
}

// Flags returns the changes as one command-line text, "the settings as
// given" when there are none.
func (f *Fit) Flags() string {
	if len(f.Changes) == 0 {
		return "the settings as given"
	}
	return "`" + strings.Join(f.Changes, " ") + "`"
}

// reproduces reports whether c has rows and all are within Reproduces.
func reproduces(c Diff) bool {
	return c.Rows > 0 && c.MaxScaledDiff <= Reproduces
}

// Match compares the trainer-style rewards (trainerOptions) with the
// advantages the trainer logged and, when they do not reproduce them,
// finds the settings that do among the trainers' (trainerSettings).
type Match struct {
	// Base is the settings checked: trainerOptions of the options given,
	// or Found once --match-logged computes with it (computedWith).
	Base Fit
	// Steps are the batches compared, ascending.
	Steps []int64
	// Found reproduces every row (Reproduces) with the fewest
	// changes (then best's order): Base when it does, nil when
	// no setting tried does; or, when none does and the settings as
	// given do not reproduce the rows outside the groups grouped
	// otherwise (leftOut), the setting that does those (Fit.leftOut).
	Found *Fit
	// Closest is the setting tried of the smallest max |diff| among those
	// closer than Base (closer), nil when none is.
	Closest *Fit
	// Tried counts the distinct settings compared, Base included.
	Tried int
	fits  []*Fit
	// regrouped names the groups of another size than their step's
	// others that hold every row differing under Base (oddGroupsDiffering),
	// "" for none: rows the trainer grouped otherwise, which no setting
	// of the objectives reproduces.
	regrouped string
	// regroupedSteps are the steps of those groups, and linesLeftOut
	// (TrainerCheck's, RewardComputer.LinesLeftOut) the line a reading
	// left out in a step: where every such step lost one, that line, not
	// a regrouping, is the likely cause.
	regroupedSteps []int64
	linesLeftOut   map[int64]string
	// leftOut marks the rows of the groups of another size than their
	// step's others (regroupedRows), nil for none: the trainer grouped
	// them otherwise, and the weights are fitted without them.
	leftOut []bool
	// leftOutNames names those groups.
	leftOutNames string
	// coarseOnly are the settings tried, Base aside, that reproduce every
	// row only within a coarse float32 bound (Diff.Float32Coarse), by
	// ascending max |diff|, when no setting reproduces it otherwise (Found
	// nil): the log cannot tell them apart at its scale, and none is
	// applied.
	coarseOnly []*Fit
	// oddSteps are the steps holding groups of another size than their
	// others (oddGroupSteps), nil for none.
	oddSteps map[int64]bool
	// rowCap is what a cap did to the rows matched (MatchLoggedFrom's).
	rowCap scoring.RowCap
	// stillWritten are the rows of the steps left out of the fit, whose
	// file's unfinished last line was left out (linesLeftOut: the run is
	// probably still writing the step), nil for none; stillWrittenSteps
	// their steps, ascending, and stillWrittenBase each one's comparison
	// under Base (compareStillWritten).
	stillWritten      *engine.Evaluation
	stillWrittenSteps []int64
	stillWrittenBase  []Diff
	// allZero is true when the logged advantage of every valid row that
	// has one is 0 (loggedAllZero): weights of 0 reproduce it, as does
	// anything that zeroes the advantage, so no weights are fitted.
	allZero bool
	// layout is the input layout the rows were read as
	// (engine.RewardComputer.Layout), "" when unknown: a trainer's layout
	// tries that trainer's methods alone (triesMethod).
	layout string
}

// loggedAllZero reports whether the logged advantage of every valid row
// of ev that has one (a finite number) is 0, at least one row having one.
func loggedAllZero(ev *engine.Evaluation) bool {
	rows := 0
	for i, a := range ev.Logged {
		if !comparedRow(ev, i) {
			continue
		}
		if a != 0 {
			return false
		}
		rows++
	}
	return rows > 0
}

// MatchLogged compares the rewards of TrainerOptions(opts) with the logged
// advantages, over every batch and batch by batch; when they are not
// within Reproduces, it computes every combination of
// trainerSettings on the evaluation (each distinct one once, over all the
// batches) and compares them too. It returns nil when the evaluation has
// no logged advantages.
// The rows' layout is taken as unknown (MatchLoggedFrom).
func MatchLogged(ev *engine.Evaluation, opts engine.Options) *Match {
	return MatchLoggedFrom(ev, opts, "", scoring.Uncapped, nil)
}

// MatchLoggedFrom is MatchLogged of rows read as layout
// (engine.RewardComputer.Layout, "" when unknown) under rowCap: a
// trainer's layout tries that trainer's methods alone (Match.triesMethod);
// the group the cap cut (CutGroupOf) is left out of the weights fitted, as
// the groups of another size than their step's are (Match.leftOut).
// linesLeftOut is the line a reading left out after each step's last row
// read (engine.RewardComputer.LinesLeftOut, as CheckTrainer has it): the
// run is probably still writing those steps, whose last group may be
// short, so they are left out of the fit and of the rows counted, each
// compared alone (BatchFit) and said (stillWrittenNote); when every step
// is one of them, they are fitted, the line named as why a group of its
// step is short. nil for none.
func MatchLoggedFrom(ev *engine.Evaluation, opts engine.Options, layout string, rowCap scoring.RowCap, linesLeftOut map[int64]string) *Match {
	if ev.Logged == nil {
		return nil
	}
	ev, stillWritten, lastLeftOut := splitStillWritten(ev, linesLeftOut)
	if lastLeftOut {
		rowCap = scoring.Uncapped // the group a cap cut is the last read, left out with its step
	}
	m := &Match{rowCap: rowCap, allZero: loggedAllZero(ev), layout: layout, linesLeftOut: linesLeftOut, stillWritten: stillWritten}
	base := TrainerOptions(opts)
	var reuse *engine.Result
	var reuseTies *rowSet // reuse's rows of float32 ties, every batch's
	fit := func(o engine.Options, changes []string) *Fit {
		res := ev.Prepare(o, reuse)
		res.Finish()
		f := &Fit{Options: o, Changes: changes}
		ties := tieRows(res)
		f.Overall, f.Batches = compareLoggedBatches(res, len(res.Ranking.Batches), ties)
		f.Kept = f.Overall
		if m.leftOut != nil {
			f.Kept = compareLoggedKept(res, ties, m.leftOut)
		}
		if m.Steps == nil {
			for _, b := range res.Ranking.Batches {
				m.Steps = append(m.Steps, b.Step)
			}
		}
		reuse, reuseTies = res, ties
		m.fits = append(m.fits, f)
		return f
	}
	m.Base = *fit(base, settingsChanges(opts, base, ev.Objectives))
	m.fits[0] = &m.Base
	m.leftOut, m.leftOutNames, m.oddSteps = regroupedRows(ev, CutGroupOf(reuse, rowCap))
	if m.leftOut != nil {
		m.Base.Kept = compareLoggedKept(reuse, reuseTies, m.leftOut)
	}
	seen := map[string]bool{settingsKey(base, ev.Objectives): true}
	if m.Base.Overall.Differing > 0 {
		m.regrouped, m.regroupedSteps = oddGroupsDiffering(reuse, reuseTies)
	}
	if !reproduces(m.Base.Overall) && m.Base.Overall.Rows > 0 {
		forEachCombination(base, ev.Objectives, m.tries, func(o engine.Options) {
			key := settingsKey(o, ev.Objectives)
			if seen[key] || !m.triesMethod(o.Method) {
				return
			}
			seen[key] = true
			fit(o, settingsChanges(opts, o, ev.Objectives))
		})
	}
	m.Found = best(m.fits, func(f *Fit) Diff { return f.Overall })
	if m.Found == nil && m.Base.Overall.Rows > 0 && ev.M > 1 && !m.allZero {
		// Unequal weights, fitted under each of grpo's scales, gdpo
		// (TRL's normalize_then_sum with reward_weights) and rloo (TRL's
		// RLOOTrainer with reward_weights). The groups that logged one
		// value are the same under each of grpo's scales: found once.
		equalLogged := equalLoggedGroups(reuse)
		for _, value := range []settingValue{grpoScaleGroup, grpoScaleBatch, grpoScaleNone, gdpoValue, rlooValue} {
			if !m.tries(value) {
				continue
			}
			o := effectiveSettings(base, ev.Objectives)
			o.Epsilon = base.Epsilon
			value.set(&o, ev.Objectives)
			// The weights are fitted to the raw objectives, as the
			// trainers weight them.
			withoutObjectiveNorm(&o, ev.Objectives)
			fitted, ok := fitWeights(reuse, o, m.leftOut, equalLogged)
			if !ok {
				continue
			}
			for _, w := range fitted.candidates {
				o.Weights = w
				if key := settingsKey(o, ev.Objectives); !seen[key] {
					seen[key] = true
					f := fit(o, settingsChanges(opts, o, ev.Objectives))
					f.fitted = true
					if reproduces(f.Kept) {
						f.ScaleFree = fitted.scaleFree
						break // the likeliest weights that reproduce
					}
				}
			}
		}
		m.Found = best(m.fits, func(f *Fit) Diff { return f.Overall })
		if m.Found == nil && m.leftOut != nil && !reproduces(m.Base.Kept) {
			// The rows grouped otherwise differ whatever the weights:
			// the settings that reproduce the others. (When the settings
			// as given do, regrouped says so.)
			if m.Found = best(m.fits, func(f *Fit) Diff { return f.Kept }); m.Found != nil {
				m.Found.leftOut = m.leftOutNames
			}
		}
	}
	m.Tried = len(m.fits)
	if m.Found == nil {
		for _, f := range m.fits[1:] {
			if reproduces(f.Overall) && f.Overall.Float32Coarse > 0 {
				m.coarseOnly = append(m.coarseOnly, f)
			}
		}
		slices.SortStableFunc(m.coarseOnly, func(a, b *Fit) int { return cmp.Compare(a.Overall.MaxAbsDiff, b.Overall.MaxAbsDiff) })
	}
	for _, f := range m.fits[1:] {
		if closer(f.Overall, m.Base.Overall) && (m.Closest == nil || f.Overall.MaxAbsDiff < m.Closest.Overall.MaxAbsDiff) {
			m.Closest = f
		}
	}
	m.compareStillWritten()
	return m
}

// splitStillWritten splits ev into the rows of the steps of linesLeftOut
// (stillWritten: nil for none) and the others (complete), and says
// whether ev's last row is one of stillWritten's. When every row is of
// those steps, complete is ev, nothing is split off: the fit has no
// other rows.
func splitStillWritten(ev *engine.Evaluation, linesLeftOut map[int64]string) (complete, stillWritten *engine.Evaluation, lastLeftOut bool) {
	if len(linesLeftOut) == 0 {
		return ev, nil, false
	}
	isStillWritten := func(i int) bool {
		_, ok := linesLeftOut[ev.StepOf(i)]
		return ok
	}
	n := ev.N()
	left := 0
	for i := range n {
		if isStillWritten(i) {
			left++
		}
	}
	if left == 0 || left == n {
		return ev, nil, false
	}
	return ev.Filter(func(i int) bool { return !isStillWritten(i) }), ev.Filter(isStillWritten), isStillWritten(n - 1)
}

// compareStillWritten compares the rows of each step left out of the fit
// (stillWritten) under Base alone: their batches are computed apart, as
// every batch is.
func (m *Match) compareStillWritten() {
	if m.stillWritten == nil {
		return
	}
	res := m.stillWritten.Prepare(m.Base.Options, nil)
	res.Finish()
	m.stillWrittenSteps = m.stillWrittenSteps[:0]
	for _, b := range res.Ranking.Batches {
		m.stillWrittenSteps = append(m.stillWrittenSteps, b.Step)
	}
	_, m.stillWrittenBase = compareLoggedBatches(res, len(res.Ranking.Batches), tieRows(res))
}

// stillWrittenNote says, after a warning or note, which steps were left
// out of the fit and why (MatchLoggedFrom's linesLeftOut), with, when
// compared, how their rows compare under Base where some differ: "; step
// 5 left out of the fit, its run probably still writing it (PATH's
// unfinished last line left out; 3 of 5 rows differ ...)"; "" for none.
func (m *Match) stillWrittenNote(compared bool) string {
	var text string
	for bi, step := range m.stillWrittenSteps {
		text += fmt.Sprintf("; step %d left out of the fit, its run probably still writing it (%s left out", step, m.linesLeftOut[step])
		if c := m.stillWrittenBase[bi]; compared && c.Differing > 0 {
			text += "; " + DifferingRows(c) + " under " + describeSettings(m.Base.Options)
		}
		text += ")"
	}
	return text
}

// trainer returns the trainer whose layout m's rows were read as
// (engine.Trainers), ok false for rows of no trainer's layout.
func (m *Match) trainer() (t engine.Trainer, ok bool) {
	t = engine.Trainer(m.layout)
	return t, slices.Contains(engine.Trainers, t)
}

// triesMethod reports whether the search tries method for m's rows: any
// method a trainer computes when their layout is not a trainer's, else
// only that trainer's (MethodSpec.ComputedBy): a verl dump is not
// TRL's RLOOTrainer's.
func (m *Match) triesMethod(method engine.Method) bool {
	trainer, known := m.trainer()
	if !known {
		return true
	}
	spec := engine.Spec(method)
	return spec != nil && spec.ComputedBy(trainer)
}

// tries reports whether the search tries value for m's rows: every value
// when their layout is not a trainer's, else the values that trainer has
// (settingValue.trainers): a verl dump is never told that TRL's scale
// batch reproduces it.
func (m *Match) tries(value settingValue) bool {
	trainer, known := m.trainer()
	return !known || slices.Contains(value.trainers, trainer)
}

// settingsTried names the settings the search varies for m's rows: the
// scale, each method of trainerSettings it tries but grpo (whose scales
// the scale is), then each named row of which it tries a value (epsilon,
// group of one; the weights, varied first, named last, beside the weights
// fitted to the log).
func (m *Match) settingsTried() string {
	var formula, after, before []string
	for _, row := range trainerSettings {
		for _, value := range row.values {
			name := string(value.method())
			if name == string(engine.GRPO) {
				name = "scale"
			}
			if name != "" && m.tries(value) && !slices.Contains(formula, name) {
				formula = append(formula, name)
			}
		}
		switch {
		case row.name == "" || !slices.ContainsFunc(row.values, m.tries):
		case formula == nil:
			before = append(before, row.name)
		default:
			after = append(after, row.name)
		}
	}
	return strings.Join(slices.Concat(formula, after, before, []string{"weights fitted to the log"}), ", ")
}

// tokenWeightedNote says, after the warning that no setting reproduces
// the log, that verl's reinforce_plus_plus_baseline and opo weigh each
// response by its token count, which a dump lacks: for a verl layout as
// a cause, for an unknown one as a condition; "" for another trainer's.
func (m *Match) tokenWeightedNote() string {
	switch trainer, known := m.trainer(); {
	case trainer == engine.TrainerVerl:
		return " (verl's rpp-baseline and opo weigh each response by its token count, not in the records: a run of either is not reproduced here)"
	case known:
		return ""
	}
	return " (if this is verl's reinforce_plus_plus_baseline or opo, they weigh each response by its token count, not in the records: neither is reproduced here)"
}

// klPenaltyNote says, after the warning that no setting reproduces the
// log of a TRL table, that TRL's RLOOTrainer with beta != 0 subtracts
// beta times the completion's summed KL from its reward before the
// leave-one-out baseline (_generate_and_score_completions: rewards =
// rewards - self.beta * kl), which the completions table leaves out (it
// logs rewards_per_func; the KL only as the mean kl metric): as the cause
// when the method checked is rloo or rloo-whitened, else as a condition;
// "" for another layout.
func (m *Match) klPenaltyNote() string {
	if trainer, _ := m.trainer(); trainer != engine.TrainerTRL {
		return ""
	}
	const note = "TRL's RLOOTrainer subtracts beta·KL, beta 0.05 by default, from the reward before its baseline, and the KL is not in the logged table: set beta=0 to compare"
	if method := m.Base.Options.Method; method == engine.RLOO || method == engine.RLOOWhitened {
		return " (" + note + ")"
	}
	return " (if this is RLOOTrainer's log: " + note + ")"
}

// closerBy is the factor by which a setting's max |diff| must be below
// that of the settings as given for the setting to be offered as the
// closest: a change of epsilon moves every row by about epsilon over the
// std, which makes no setting closer in any sense that matters.
const closerBy = 0.99

// closer reports whether c is closer to the log than base: no more rows
// differ, and its max |diff| is below closerBy times base's (weights
// fitted to one row far off come nearer that row and move every other).
func closer(c, base Diff) bool {
	return c.Rows > 0 && c.Differing <= base.Differing && c.MaxAbsDiff < closerBy*base.MaxAbsDiff
}

// forEachCombination calls fn with base changed by every combination of
// one value of each of trainerSettings that tries keeps, or none (the
// value as given).
func forEachCombination(base engine.Options, objectives []scoring.Objective, tries func(settingValue) bool, fn func(engine.Options)) {
	var walk func(o engine.Options, setting int)
	walk = func(o engine.Options, setting int) {
		if setting == len(trainerSettings) {
			fn(o)
			return
		}
		walk(o, setting+1)
		for _, value := range trainerSettings[setting].values {
			if !tries(value) {
				continue
			}
			next := o
			value.set(&next, objectives)
			walk(next, setting+1)
		}
	}
	walk(base, 0)
}

// best returns the fit of fits that reproduces the rows of of, none but
// the first (Base) only within a coarse float32 bound (Diff.Float32Coarse:
// such agreement does not tell settings apart, coarseOnly), a gpg fit
// only when no other does (gpgAlias), then with the fewest changes, then
// the weights of the fewest significant digits (grpo unscaled with [3,
// 0.7] and rloo with [2.25, 0.525] are one advantage when every group has
// 4 members: the trainer wrote the short one), then the smallest max
// |diff|; nil when none does.
func best(fits []*Fit, of func(*Fit) Diff) *Fit {
	var found *Fit
	for _, f := range fits {
		c := of(f)
		if !reproduces(c) || c.Float32Coarse > 0 && f != fits[0] {
			continue
		}
		if found == nil {
			found = f
			continue
		}
		if n := cmp.Or(cmp.Compare(gpgAlias(f), gpgAlias(found)), cmp.Compare(len(f.Changes), len(found.Changes)), cmp.Compare(weightDigits(f), weightDigits(found)), cmp.Compare(c.MaxAbsDiff, of(found).MaxAbsDiff)); n < 0 {
			found = f
		}
	}
	return found
}

// gpgAlias is 1 for a fit of gpg, else 0: gpg's advantage is grpo's
// unscaled (a group of one given its score) times the batch's valid
// members over those of a score not 0, the same wherever no score is 0,
// where verl's grpo with norm_adv_by_std_in_grpo=False, the likelier run,
// reproduces the log as well.
func gpgAlias(f *Fit) int {
	if f.Options.Method == engine.GPG {
		return 1
	}
	return 0
}

// weightDigits counts the significant digits of f's weights (0 for the
// objectives' own).
func weightDigits(f *Fit) int {
	n := 0
	for _, w := range f.Options.Weights {
		n += significantDigits(w)
	}
	return n
}

// CompareLoggedFirst compares the rewards of the valid rows of the first
// n batches of res (n at most their count) with their logged advantages,
// as one (CompareLogged of them all); ok is false when the evaluation has
// none. A follower leaves out the newest batch, which its run may still
// be writing, whose short groups reproduce nothing.
func CompareLoggedFirst(res *engine.Result, n int) (c Diff, ok bool) {
	if res.Evaluation.Logged == nil {
		return c, false
	}
	c, _ = compareLoggedBatches(res, n, nil)
	return c, true
}

// Reproduced reports whether the rewards compared reproduce every logged
// advantage (Reproduces), at least one row compared.
func (c Diff) Reproduced() bool { return reproduces(c) }

// FoundReproduces reports whether res, computed with the settings m found
// (Found), reproduces the logged advantages of its first n batches (n at
// most their count) as Found reproduced m's rows: every row, or, Found
// being of the rows outside those the trainer grouped otherwise
// (Fit.leftOut), every row outside them (regroupedRows of res, the group
// the cap cut under m's RowCap among them). It is false when m found
// none. A follower keeps the settings found while it holds: a repeated
// prompt's rows differ under any setting, and reproduce nothing.
func (m *Match) FoundReproduces(res *engine.Result, n int) bool {
	if m == nil || m.Found == nil || res.Evaluation.Logged == nil {
		return false
	}
	if m.Found.leftOut == "" {
		c, _ := compareLoggedBatches(res, n, nil)
		return reproduces(c)
	}
	leftOut, _, _ := regroupedRows(res.Evaluation, CutGroupOf(res, m.rowCap))
	c := newDiffCount()
	ties := allTieResidues(res)
	for bi := range n {
		for _, i := range res.Ranking.Batches[bi].Members {
			if (leftOut == nil || !leftOut[i]) && comparedRow(res.Evaluation, i) {
				c.addCompared(res, ties, i)
			}
		}
	}
	return reproduces(c.diff())
}

// compareLoggedBatches compares the rewards of res's valid rows with their
// logged advantages over the first n batches and per batch: an invalid
// row's reward is rewardlens's convention (its group's mean), which no
// trainer setting changes. ties is compareLogged's: nil, or tieRows(res)
// to keep every batch's rows of float32 ties.
func compareLoggedBatches(res *engine.Result, n int, ties *rowSet) (Diff, []Diff) {
	all := Diff{MaxAbsDiff: math.NaN(), MeanAbsDiff: math.NaN()}
	per := make([]Diff, n)
	sum := 0.0
	for bi := range n {
		c := compareLogged(res, &res.Ranking.Batches[bi], ties)
		per[bi] = c
		if c.Rows == 0 {
			continue
		}
		if all.Rows == 0 || c.MaxAbsDiff > all.MaxAbsDiff {
			all.MaxAbsDiff = c.MaxAbsDiff
		}
		all.MaxScaledDiff = max(all.MaxScaledDiff, c.MaxScaledDiff)
		sum += c.MeanAbsDiff * float64(c.Rows)
		all.Rows += c.Rows
		all.Differing += c.Differing
		all.TieResidueGroups += c.TieResidueGroups
		all.Float32Coarse = max(all.Float32Coarse, c.Float32Coarse)
	}
	if all.Rows > 0 {
		all.MeanAbsDiff = sum / float64(all.Rows)
	}
	return all, per
}

// effectiveSettings returns o with what its method does not read cleared
// (engine.Options.MethodSettings, from the method's MethodSpec: ReadsScale,
// Divides, Unnormalised, ReadsGroupOfOne) and its weights written out, so
// that two settings that give the same rewards compare equal: grpo
// unscaled (scale none or normalize off) reads no epsilon, gdpo no scale
// nor group of one, rloo none of them but the group of one, grpo-passk no
// scale nor group of one (nor, unnormalised, epsilon and std),
// rpp-baseline, rloo-whitened and gpg none at all. A scale read is kept as
// given (scale batch too under scope batch, where it is the group's), or
// none when unscaled; a Normalize not read is true.
func effectiveSettings(o engine.Options, objectives []scoring.Objective) engine.Options {
	if o.Weights == nil {
		o.Weights = make([]float64, len(objectives))
		for k, obj := range objectives {
			o.Weights[k] = obj.Weight
		}
	}
	o.NormalizeObjectives = cmp.Or(o.NormalizeObjectives, engine.NormNone)
	read := o.MethodSettings()
	switch {
	case read.Scale == engine.ScaleNone:
		o.Scale, o.Normalize = engine.ScaleNone, true
	case read.Scale != "":
		o.Scale = cmp.Or(o.Scale, engine.ScaleGroup)
	default:
		o.Scale = ""
	}
	if read.Normalize == nil {
		o.Normalize = true
	}
	o.Epsilon, o.Std, o.GroupOfOne = read.Epsilon, read.Std, read.GroupOfOne
	return o
}

// settingsKey identifies the rewards settings o give.
func settingsKey(o engine.Options, objectives []scoring.Objective) string {
	return fmt.Sprintf("%+v", effectiveSettings(o, objectives))
}

// settingsChanges returns the flags that turn the options base into o:
// only those of the settings o's method reads (its MethodSpec: the scale,
// which carries the normalisation, of a method that ReadsScale; the
// normalisation of one not Unnormalised; effectiveSettings' others).
func settingsChanges(base, o engine.Options, objectives []scoring.Objective) []string {
	e := effectiveSettings(o, objectives)
	var changes []string
	if e.Method != base.Method {
		changes = append(changes, "--method "+string(e.Method))
	}
	switch spec := engine.Spec(e.Method); {
	case spec == nil:
	case spec.ReadsScale: // the scale carries the normalisation
		scale := cmp.Or(base.Scale, engine.ScaleGroup)
		if e.Scale != engine.ScaleNone && !base.Normalize {
			changes = append(changes, "--no-normalize=false")
		}
		if e.Scale != scale && (e.Scale != engine.ScaleNone || base.Normalize) {
			changes = append(changes, "--scale "+string(e.Scale))
		}
	case spec.Unnormalised == "":
		switch {
		case e.Normalize && !base.Normalize:
			changes = append(changes, "--no-normalize=false")
		case !e.Normalize && base.Normalize:
			changes = append(changes, "--no-normalize")
		}
	}
	if e.Epsilon != 0 && e.Epsilon != base.EpsilonOrDefault() {
		changes = append(changes, "--epsilon "+strconv.FormatFloat(e.Epsilon, 'g', -1, 64))
	}
	if e.Std != "" && e.Std != cmp.Or(base.Std, engine.StdSample) {
		changes = append(changes, "--std "+string(e.Std))
	}
	if e.GroupOfOne != "" && e.GroupOfOne != cmp.Or(base.GroupOfOne, engine.GroupOfOneZero) {
		changes = append(changes, "--group-of-one "+string(e.GroupOfOne))
	}
	if e.NormalizeObjectives != cmp.Or(base.NormalizeObjectives, engine.NormNone) {
		changes = append(changes, "--normalize-objectives "+string(e.NormalizeObjectives))
	}
	if !slices.Equal(e.Weights, effectiveSettings(base, objectives).Weights) {
		ws := make([]string, len(e.Weights))
		for k, w := range e.Weights {
			if w == 0 {
				w = 0 // never "-0"
			}
			ws[k] = fmt.Sprintf("--weight %s=%s", objectives[k].Name, strconv.FormatFloat(w, 'g', -1, 64))
		}
		changes = append(changes, strings.Join(ws, " "))
	}
	return changes
}

// noLoggedRows is the warning of a comparison with no logged advantage to
// compare the rewards with (Match.Warning).
const noLoggedRows = "no row has a logged advantage (a finite number): the rewards are compared with nothing"

// Warning says, when the trainer-style rewards differ from the logged
// advantages beyond Tolerance, how many rows, by how much, and which
// settings reproduce them (Found), or that the rows that differ are all in
// groups of odd size (regrouped), or that none reproduces it but the
// closest agrees within Tolerance (agreeing), or which steps differ and
// what reproduces each (stepsNote), or that none tried does, naming the
// closest; that no row has a logged advantage when none has; "" when
// they agree. A step the run is probably still writing, left out of the
// fit, is said after (stillWrittenNote), its rows alone when they differ
// and the others agree.
func (m *Match) Warning() string {
	w := m.warning()
	if w == "" {
		if !slices.ContainsFunc(m.stillWrittenBase, func(c Diff) bool { return c.Differing > 0 }) {
			return ""
		}
		w = fmt.Sprintf("the %d %s of the other steps agree with the logged advantage under %s", m.Base.Overall.Rows, english.Plural(m.Base.Overall.Rows, "row"), describeSettings(m.Base.Options))
	}
	return w + m.stillWrittenNote(true)
}

// warning is Warning without the steps left out of the fit.
func (m *Match) warning() string {
	c := m.Base.Overall
	if c.Rows == 0 {
		return noLoggedRows
	}
	if c.Differing == 0 {
		return ""
	}
	text := DifferingRows(c) + fmt.Sprintf(" under %s", describeSettings(m.Base.Options))
	if m.Found != nil {
		return text + fmt.Sprintf("; %s reproduces it to %s%s (--match-logged applies it)", m.Found.Flags(), shortNumber(m.Found.reproduced().MaxAbsDiff), m.Found.leftOutNote()) + m.foundNotes()
	}
	if m.regrouped != "" || m.agreeing() != nil {
		return text + "; " + m.nothingFits()
	}
	if steps := m.stepsNote(); steps != "" {
		return text + steps
	}
	return text + "; " + m.nothingFits()
}

// maxAnswersNamed is how many sets of steps stepsNote names, and
// maxRangesNamed how many ranges of steps it writes of each.
const maxAnswersNamed, maxRangesNamed = 4, 6

// stepsNote says, when no one setting reproduces every row but the
// batches tell more (the differing rows lie in some steps only, or some
// step is reproduced by a setting tried), which steps differ and, for the
// steps each setting reproduces (the fewest changes per batch, as
// BatchFit), that setting: ", in step 4 only; no one setting of the 27
// tried reproduces every step: `--scale none` reproduces step 4 to
// 5.72e-08 (the settings changed during the run?)", or, when no setting
// reproduces any of those steps, ", in step 4 only; none of the 27
// trainer settings tried reproduces those rows". It is "" when every
// batch with rows differs and none is reproduced by any setting tried.
func (m *Match) stepsNote() string {
	type answer struct {
		fit     *Fit
		batches []int // indices into Steps, ascending
		maxDiff float64
	}
	var answers []*answer
	var differing []int
	withRows, reproduced := 0, false
	for bi, c := range m.Base.Batches {
		if c.Rows > 0 {
			withRows++
		}
		if c.Differing == 0 {
			continue
		}
		differing = append(differing, bi)
		f := best(m.fits, func(f *Fit) Diff { return f.Batches[bi] })
		reproduced = reproduced || f != nil
		k := slices.IndexFunc(answers, func(a *answer) bool { return a.fit == f })
		if k < 0 {
			k = len(answers)
			answers = append(answers, &answer{fit: f})
		}
		a := answers[k]
		a.batches = append(a.batches, bi)
		if f != nil {
			a.maxDiff = max(a.maxDiff, f.Batches[bi].MaxAbsDiff)
		}
	}
	if !reproduced && len(differing) == withRows {
		return ""
	}
	text := ", in " + m.stepList(differing)
	if len(differing) < withRows {
		text += " only"
	}
	if !reproduced {
		return text + fmt.Sprintf("; none of the %d trainer settings tried reproduces those rows", m.Tried)
	}
	text += fmt.Sprintf("; no one setting of the %d tried reproduces every step: ", m.Tried)
	parts := make([]string, 0, maxAnswersNamed+1)
	for _, a := range answers[:min(len(answers), maxAnswersNamed)] {
		if a.fit == nil {
			parts = append(parts, "none reproduces "+m.stepList(a.batches)+m.batchWideNote(a.batches...))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s reproduces %s to %s", a.fit.Flags(), m.stepList(a.batches), shortNumber(a.maxDiff)))
	}
	if n := len(answers) - maxAnswersNamed; n > 0 {
		parts = append(parts, fmt.Sprintf("and %d more %s", n, english.Plural(n, "setting")))
	}
	return text + strings.Join(parts, "; ") + " (the settings changed during the run?)"
}

// stepList names the batches of index batches (into Steps, ascending),
// consecutive steps as a range: "step 4", "steps 1–3, 7", and past
// maxRangesNamed ranges the count of the steps left ("and 5 more").
func (m *Match) stepList(batches []int) string {
	var ranges []string
	for i := 0; i < len(batches); {
		j := i
		for j+1 < len(batches) && batches[j+1] == batches[j]+1 && m.Steps[batches[j+1]] == m.Steps[batches[j]]+1 {
			j++
		}
		if len(ranges) == maxRangesNamed {
			ranges = append(ranges, fmt.Sprintf("and %d more", len(batches)-i))
			break
		}
		r := strconv.FormatInt(m.Steps[batches[i]], 10)
		if j > i {
			r += "–" + strconv.FormatInt(m.Steps[batches[j]], 10)
		}
		ranges = append(ranges, r)
		i = j + 1
	}
	return english.Plural(len(batches), "step") + " " + strings.Join(ranges, ", ")
}

// DifferingRows says how many of c's rows differ from the logged
// advantage beyond Tolerance, and by how much at most: the wording of
// every message that counts them.
func DifferingRows(c Diff) string {
	return fmt.Sprintf("%d of %d %s %s from the logged advantage by more than %g (max |diff| %s)",
		c.Differing, c.Rows, english.Plural(c.Rows, "row"), english.Verb(c.Differing, "differs", "differ"), Tolerance, shortNumber(c.MaxAbsDiff))
}

// nothingFits says that no setting tried reproduces the logged advantage,
// and which comes closest when one comes closer than the settings as
// given (not that the advantage is not computed from these objectives
// when the closest agrees with every row: agreeing, which --match-logged
// computes with, so that the rows of groups of another size, regrouped,
// are named as differing under the settings as given only); or, when the
// rows that differ are all in groups of another size (regrouped) and no
// closest agrees, that those are the cause.
func (m *Match) nothingFits() string {
	if m.allZero {
		return fmt.Sprintf("the logged advantage is 0 in every row, which tells nothing of the weights (weights of 0, or any setting that zeroes every advantage, reproduce it), and none of the %d trainer settings tried zeroes these rows' rewards",
			m.Tried)
	}
	if len(m.coarseOnly) > 0 {
		return m.coarseOnlyText()
	}
	if a := m.agreeing(); a != nil {
		regrouped := ""
		if m.regrouped != "" {
			regrouped = fmt.Sprintf("; the rows that differ under the settings as given are all in %s, which the trainer may have grouped otherwise, but the closest agrees with them too", m.regrouped)
		}
		return fmt.Sprintf("none of the %d trainer settings tried (%s) reproduces it to float32's noise (%g, relative beyond 1), the closest being %s (max |diff| %s), which agrees with every row within %g%s: the trainer's are likely those or near them (weights of more digits than tried?)",
			m.Tried, m.settingsTried(), Reproduces, a.Flags(), shortNumber(a.Overall.MaxAbsDiff), Tolerance, regrouped)
	}
	if m.regrouped != "" {
		return fmt.Sprintf("none of the %d trainer settings tried reproduces it: every row that differs is in %s, %s, not a matter of the objectives' settings",
			m.Tried, m.regrouped, m.regroupedWhy())
	}
	closest := "none closer than the settings as given"
	if m.Closest != nil {
		closest = fmt.Sprintf("the closest being %s (max |diff| %s)", m.Closest.Flags(), shortNumber(m.Closest.Overall.MaxAbsDiff))
	}
	return fmt.Sprintf("none of the %d trainer settings tried (%s) reproduces it, %s: the logged advantage is not computed from these objectives as any of them does%s",
		m.Tried, m.settingsTried(), closest, m.tokenWeightedNote()+m.klPenaltyNote())
}

// coarseOnlyText says that the log cannot determine the settings at its
// scale: the settings of coarseOnly agree with it only within float32's
// error there, which cannot tell them apart, each named with its max
// |diff|, at most coarseOnlyNamed of them.
func (m *Match) coarseOnlyText() string {
	const coarseOnlyNamed = 4
	bound := 0.0
	var named []string
	for _, f := range m.coarseOnly {
		bound = max(bound, f.Overall.Float32Coarse)
		if len(named) < coarseOnlyNamed {
			named = append(named, fmt.Sprintf("%s (max |diff| %s)", f.Flags(), shortNumber(f.Overall.MaxAbsDiff)))
		}
	}
	more := ""
	if n := len(m.coarseOnly) - len(named); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	apart := "apart " + strings.Join(named, ", ") + more
	if len(m.coarseOnly) == 1 {
		apart = named[0] + " from settings whose advantages are that close"
	}
	return fmt.Sprintf("the log cannot determine the settings at this scale: of the %d trainer settings tried (%s), none reproduces it but within float32's error at this scale (up to %s: the trainer's float32 sums of scores far from 0 lose digits), which cannot tell %s",
		m.Tried, m.settingsTried(), shortNumber(bound), apart)
}

// regroupedWhy says why the groups of regrouped are of another size:
// short of the lines a reading left out in their steps (linesLeftOut)
// when each of those steps lost one, else grouped otherwise by the
// trainer, with what its batch may hold.
func (m *Match) regroupedWhy() string {
	var lines []string
	for _, step := range m.regroupedSteps {
		line, ok := m.linesLeftOut[step]
		if !ok {
			return "which the trainer grouped otherwise (a prompt repeated in the batch, evaluation rows, a partial batch?)"
		}
		if !slices.Contains(lines, line) {
			lines = append(lines, line)
		}
	}
	return "short of the row the reading left out after it (" + english.List(lines) + ")"
}

// agreeing returns Closest when no setting tried reproduces the log
// (Found is nil) but Closest agrees with every row within Tolerance:
// closer than float32's noise would leave a trainer's own settings, yet
// nearer them than anything else; nil otherwise.
func (m *Match) agreeing() *Fit {
	if m.Found != nil || m.Closest == nil || m.Closest.Overall.Rows == 0 || m.Closest.Overall.Differing > 0 || m.Closest.Overall.Float32Coarse > 0 {
		return nil
	}
	return m.Closest
}

// BatchFit returns the comparison of the batch of step with the settings
// checked (Base) and the settings that reproduce its rows with the fewest
// changes (nil when none tried does); a step left out of the fit (its
// run still writing it: MatchLoggedFrom's linesLeftOut) is compared alone
// under Base, found nil, no setting tried on it; ok is false when step is
// neither, or m is nil.
func (m *Match) BatchFit(step int64) (base Diff, found *Fit, ok bool) {
	if m == nil {
		return base, nil, false
	}
	if bi, ok := slices.BinarySearch(m.stillWrittenSteps, step); ok {
		return m.stillWrittenBase[bi], nil, true // left out of the fit: no setting was tried on it
	}
	bi, ok := slices.BinarySearch(m.Steps, step)
	if !ok {
		return base, nil, false
	}
	return m.Base.Batches[bi], best(m.fits, func(f *Fit) Diff { return f.Batches[bi] }), true
}

// BatchWarning is Warning for the batch of step: "" when its rows agree
// (or the step is not one of Steps).
func (m *Match) BatchWarning(step int64) string {
	c, f, ok := m.BatchFit(step)
	if !ok || c.Differing == 0 {
		return ""
	}
	text := DifferingRows(c) + fmt.Sprintf(" under %s", describeSettings(m.Base.Options))
	if slices.Contains(m.stillWrittenSteps, step) {
		return text + fmt.Sprintf("; left out of the fit of the trainer's settings, its run probably still writing this step (%s left out)", m.linesLeftOut[step])
	}
	bi, _ := slices.BinarySearch(m.Steps, step) // found: BatchFit found it
	if f != nil {
		text += fmt.Sprintf("; %s reproduces this batch to %s", f.Flags(), shortNumber(f.Batches[bi].MaxAbsDiff))
		if generation := m.generationBatchNote(f); generation != "" {
			text += "; " + generation
		}
		return text
	}
	return text + "; no trainer setting tried reproduces this batch" + m.batchWideNote(bi)
}

// batchWideNote says, after the batches (indices into Steps) that no
// setting reproduces, when one of them holds groups of another size than
// its others on rows of TRL's layout (whose log() writes evaluation rows
// with the last training rows; in plain records such groups are common),
// that the batch-wide settings take those rows into their statistics,
// which TRL's GRPOTrainer and RLOOTrainer (_generate_and_score_completions)
// compute over the training batch alone; "" otherwise. A step whose
// file's unfinished last line was left out after its last row
// (linesLeftOut) is not one: its odd group is the one that line cut
// short, which the layout's warning says.
func (m *Match) batchWideNote(batches ...int) string {
	if trainer, _ := m.trainer(); trainer != engine.TrainerTRL {
		return ""
	}
	if !slices.ContainsFunc(batches, func(bi int) bool {
		_, cut := m.linesLeftOut[m.Steps[bi]]
		return m.oddSteps[m.Steps[bi]] && !cut
	}) {
		return ""
	}
	which := "whose groups of another size than its others"
	if len(batches) > 1 {
		which = "where groups of another size than their steps' others"
	}
	return ", " + which + " (evaluation rows?) enter the statistics that scale batch, gdpo and rloo-whitened take over the whole step, where TRL takes the training rows alone: with evaluation rows in the table those settings cannot be reproduced"
}

// Settings names the settings checked: "grpo, scale group, epsilon 0.0001".
func (m *Match) Settings() string { return describeSettings(m.Base.Options) }

// applied returns the options --match-logged computes with and the note
// that says so: Found's options when a setting reproduces the logged
// advantage; else the closest's when it agrees with every row within
// Tolerance (agreeing), with a warning that says it is the closest, not
// a reproduction (nearer the trainer's than the options given, which
// differ); else opts, with a loud warning; when settings reproduce some
// steps only (stepsNote), opts too, as no one setting is the trainer's
// for the whole run, with the warning naming each step's.
func (m *Match) applied(opts engine.Options) (engine.Options, Note) {
	warning := func(text string) Note { return Note{Text: text, Warning: true} }
	switch {
	case m == nil:
		return opts, warning("--match-logged: the inputs carry no logged advantage to match (give --logged-advantage EXPR); computing with the settings as given")
	case m.Base.Overall.Rows == 0:
		return opts, warning("--match-logged: no row has a logged advantage (a finite number); computing with the settings as given")
	case m.Found == nil && m.agreeing() != nil:
		a := m.agreeing()
		return a.Options, warning(fmt.Sprintf("--match-logged: %s; computing with the closest, %s (%s)", m.nothingFits(), a.Flags(), describeSettings(a.Options)) + m.stillWrittenNote(false))
	case m.Found == nil:
		return opts, warning(unreproducedText(m.unreproduced()) + m.stillWrittenNote(false))
	case len(m.Found.Changes) == 0:
		return m.Found.Options, Note{Text: fmt.Sprintf("--match-logged: %s reproduces the logged advantage to %s: computing with it",
			describeSettings(m.Found.Options), shortNumber(m.Found.Overall.MaxAbsDiff)) + m.foundNotes() + m.stillWrittenNote(false)}
	}
	return m.Found.Options, Note{Text: fmt.Sprintf("--match-logged: %s (%s) reproduces the logged advantage to %s%s: computing with it",
		m.Found.Flags(), describeSettings(m.Found.Options), shortNumber(m.Found.reproduced().MaxAbsDiff), m.Found.leftOutNote()) + m.foundNotes() + m.stillWrittenNote(false)}
}

// foundNotes says, after the flags that reproduce the log (Found), what
// they leave a guess or assume: the weights' common factor when the log
// does not tell it (ScaleFree: the score's mean and spread depend on it,
// the advantage hardly), or tells it only through epsilon against one std
// over the batch (weights fitted under grpo's scale batch or gdpo); and, for
// rloo-whitened on rows of TRL's layout or none, that TRL's RLOOTrainer
// whitens over the generation batch, which is the step only with
// steps_per_generation 1.
func (m *Match) foundNotes() string {
	f := m.Found
	var note string
	switch {
	case f.ScaleFree:
		note = "; the log tells the weights' ratios but not their common factor (half or twice them reproduces it as well, the std dwarfing epsilon): their scale, and the score's, is a guess (the simplest weights that reproduce it, the largest, or another, 1)"
	case f.fitted && f.Options.MethodSettings().Scale == engine.ScaleBatch:
		note = "; under scale batch the log tells the weights' ratios but hardly their common factor (epsilon against one std over the batch): that is a guess"
	case f.fitted && f.Options.Method == engine.GDPO:
		// TRL's normalize_then_sum (_generate_and_score_completions) divides
		// the weighted sum by one std over the batch last, as scale batch does.
		note = "; under gdpo, normalised over the batch last, the log tells the weights' ratios but hardly their common factor (epsilon against one std over the batch): that is a guess"
	}
	if generation := m.generationBatchNote(f); generation != "" {
		note += "; " + generation
	}
	return note
}

// generationBatchNote says, of settings f that reproduce rows of TRL's
// layout or none with rloo-whitened, that RLOOTrainer
// (_generate_and_score_completions) whitens over the generation batch,
// which is the step only with steps_per_generation 1; "" otherwise.
func (m *Match) generationBatchNote(f *Fit) string {
	if trainer, known := m.trainer(); f == nil || f.Options.Method != engine.RLOOWhitened || known && trainer != engine.TrainerTRL {
		return ""
	}
	return "rloo-whitened takes the step for TRL's generation batch, which RLOOTrainer whitens over: so it is with steps_per_generation 1"
}

// BatchNote is what the settings that reproduce the batch of step
// (BatchFit's found) assume, as --match-logged's note says it of the
// run's: that rloo-whitened takes the step for TRL's generation batch;
// "" otherwise.
func (m *Match) BatchNote(step int64) string {
	_, found, ok := m.BatchFit(step)
	if !ok {
		return ""
	}
	return m.generationBatchNote(found)
}

// unreproduced says why --match-logged computes with the settings as
// given though rows with a logged advantage differ: the steps each
// setting reproduces (Warning with stepsNote), or that none tried does
// (nothingFits); "" when a setting reproduces it (Found), the closest
// agrees (agreeing: computed with) or no row has a logged advantage.
func (m *Match) unreproduced() string {
	switch {
	case m == nil || m.Found != nil || m.Base.Overall.Rows == 0 || m.agreeing() != nil:
		return ""
	case m.regrouped == "" && m.stepsNote() != "":
		return m.warning()
	}
	return m.nothingFits()
}

// unreproducedText is the text of --match-logged's warning that no
// setting tried reproduces the logged advantage, for why (unreproduced).
func unreproducedText(why string) string {
	return "--match-logged: " + why + "; computing with the settings as given"
}

// computedWith returns m checked under the settings --match-logged
// computes with (Found, or the closest that agrees: agreeing), so that what is reported of the batches is of
// the rewards computed; m itself when none was found.
func (m *Match) computedWith() *Match {
	if m == nil {
		return m
	}
	with := m.Found
	if with == nil {
		with = m.agreeing()
	}
	if with == nil {
		return m
	}
	r := *m
	r.Base = *with
	r.stillWrittenSteps = nil // compared again under with, not m's slices
	r.compareStillWritten()
	return &r
}

// describeSettings names the method of o and the settings of it that it
// reads (engine.MethodSettings): its scale and epsilon, and its std,
// normalize and group of one where not the defaults, and the objectives'
// normalisation when there is one: "grpo, scale group, epsilon 0.0001",
// "gdpo, normalize false, epsilon 0.0001, population std", "rloo, group
// of one score", "grpo, scale group, epsilon 0.0001, objectives
// normalised by minmax".
func describeSettings(o engine.Options) string {
	m := o.MethodSettings()
	parts := []string{string(o.Method)}
	if m.Scale != "" {
		parts = append(parts, "scale "+string(m.Scale))
	}
	if m.Normalize != nil && !*m.Normalize {
		parts = append(parts, "normalize false")
	}
	if m.Epsilon != 0 {
		parts = append(parts, "epsilon "+strconv.FormatFloat(m.Epsilon, 'g', -1, 64))
	}
	if m.Std == engine.StdPopulation {
		parts = append(parts, "population std")
	}
	if m.GroupOfOne == engine.GroupOfOneScore {
		parts = append(parts, "group of one score")
	}
	if n := o.NormalizeObjectives; n != "" && n != engine.NormNone {
		parts = append(parts, "objectives normalised by "+string(n))
	}
	return strings.Join(parts, ", ")
}

// shortNumber prints x with 3 significant digits: 1.93, 2e-07.
func shortNumber(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
