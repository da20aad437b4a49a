// Package health runs the health checks of a training run on the trends of
// its batches (diagnose.Trends): zero spread, variance collapse,
// dominance of one objective, a ceiling, length drift, a correlation
// flip, groups without signal by the task metric (dead and phantom
// signal) and scores not finite, each at WARN or ALERT, some against a
// baseline of the first batches.
package health

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/stats"
)

// DefaultBaseline is how many of the first batches form the health checks'
// baseline by default.
const DefaultBaseline = 3

// Config says what the health checks compare against.
type Config struct {
	// Baseline is how many of the first batches form the baseline
	// (DefaultBaseline when not positive).
	Baseline int
	// LengthObjective names the objective whose batch mean the length-drift
	// check follows; "" follows the mean step_count.
	LengthObjective string
	// TaskObjective names the objective the correlation check correlates
	// the others with; "" is the first objective.
	TaskObjective string
	// DeadSignal and PhantomSignal are the thresholds of dead_signal and
	// phantom_signal (zero: DefaultDeadSignal, DefaultPhantomSignal).
	DeadSignal, PhantomSignal Thresholds
	// RowCap says whether the reading stopped at a number of rows
	// (--max-rows), and what the first row not read told:
	// trainer_agreement, zero_spread and variance_collapse leave out the
	// group the cap cut (agreement.CutGroupOf), whose rewards no trainer
	// computed; dead_signal and phantom_signal say they count it.
	RowCap scoring.RowCap
	// Provisional names the steps whose findings may not stand, with why
	// (loaders.StillWritten: the newest file of a directory whose
	// unfinished last line the reading left out, its run probably still
	// writing that step). Their findings are listed, each carrying that
	// reason (Finding.Provisional), but raise no level a later step must
	// exceed to be listed, and count in no verdict (Standing).
	Provisional map[int64]string
	// Trainer is the trainer whose run the data is (the layout's; ""
	// for none): non_finite's level is what it does with a NaN or
	// infinite score (nonFiniteEffects).
	Trainer engine.Trainer
}

// Validate reports a name that is not one of the objectives. Findings skips
// the check of a name that Validate rejects.
func (c Config) Validate(objectives []scoring.Objective) error {
	for _, name := range []string{c.LengthObjective, c.TaskObjective} {
		if name != "" && objectiveIndex(objectives, name) < 0 {
			return fmt.Errorf("unknown objective %q (objectives: %s)", name, strings.Join(objectiveNameList(objectives), ", "))
		}
	}
	return nil
}

// Level is how bad a finding is.
type Level int

// The levels of a finding, in increasing severity.
const (
	Warn Level = iota + 1
	Alert
)

func (l Level) String() string {
	if l == Alert {
		return "ALERT"
	}
	return "WARN"
}

// MarshalText writes the level as WARN or ALERT.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Check names a health check.
type Check string

// The health checks.
const (
	CheckZeroSpread       Check = "zero_spread"
	CheckVarianceCollapse Check = "variance_collapse"
	CheckDominance        Check = "dominance"
	CheckCeiling          Check = "ceiling"
	CheckLengthDrift      Check = "length_drift"
	CheckCorrelationFlip  Check = "correlation_flip"
	CheckInvalidFraction  Check = "invalid_fraction"
	CheckConstraint       Check = "constraint_violation"
	CheckTrainerAgreement Check = "trainer_agreement"
	CheckNonFinite        Check = "non_finite"
)

// The thresholds of the checks (see Findings). A value beyond the first of a
// pair is a WARN, beyond the second an ALERT.
const (
	zeroSpreadWarn, zeroSpreadAlert = 0.50, 0.75 // fraction of groups, above
	collapseWarn, collapseAlert     = 0.20, 0.05 // std / baseline std, below
	dominanceWarn, dominanceAlert   = 0.75, 0.90 // variance share, above
	ceilingWarn, ceilingAlert       = 0.80, 0.95 // fraction of scores, above
	driftWarn, driftAlert           = 3.0, 5.0   // baseline sds, above
	flipMin, flipAlert              = 0.1, 0.3   // |r|, above
	// driftFloor is the smallest baseline sd of the drift check, relative
	// to the baseline mean: a baseline of 3 steady batches would otherwise
	// make noise a drift.
	driftFloor = 0.05
)

// Finding is a health check that fired: at Step, the check's value
// crossed the threshold of Level.
type Finding struct {
	Check Check `json:"check"`
	Level Level `json:"level"`
	Step  int64 `json:"step"`
	// Objective is the objective the finding is about ("" when it is about
	// the batch, or the mean step_count).
	Objective string  `json:"objective,omitempty"`
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Message   string  `json:"message"`
	// Measure is the text Message ends in after ": ", its Value with a
	// unit ("-5.9 sd"); "" when it ends in words. Not in the JSON, whose
	// message and value say it.
	Measure string `json:"-"`
	// Provisional is why the finding may not stand ("" when it stands):
	// its step is probably still being written (Config.Provisional).
	// Such a finding counts in no verdict (Standing).
	Provisional string `json:"provisional,omitempty"`
}

// Standing returns the findings that count in a verdict (the exit status
// of stats --health, the dashboard's badge's ALERT): all but the
// provisional ones.
func Standing(findings []Finding) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Provisional == "" {
			out = append(out, f)
		}
	}
	return out
}

// Findings runs the health checks on every batch's trend point (trends as
// diagnose.Trends returns them) and returns, per check and objective, the first
// step where it reached WARN and the first where it reached ALERT (the ALERT
// alone when both come at once), in step order. The baseline is the first
// cfg.Baseline batches not provisional (BaselineLen); the checks that
// compare with it run on the batches after it.
//
//   - zero_spread: the fraction of comparison groups whose scores all equal
//     (no GRPO signal: FracZeroStdGroups, which leaves out a group of one
//     that the method rewards by its score) above 0.5 (WARN), 0.75
//     (ALERT); a WARN that it cannot be judged when every group of
//     the batch has one row.
//   - variance_collapse: ScoreGroupStd / its mean over the baseline below
//     0.20, 0.05. Scores, not rewards: a normalised method gives rewards of
//     std ~1 whatever the spread of the scores.
//   - dominance: an objective's share of the weighted score's variance,
//     w_k^2 var(o'_k) / sum_j w_j^2 var(o'_j) (the terms' own variances,
//     in [0, 1], summing to 1), above 0.75, 0.90. Only for the methods that
//     reward the score (engine.MethodSpec.RewardsScore): pareto ranks do
//     not weigh objectives, gdpo normalises each before weighing it.
//   - ceiling: the fraction of scores at the batch maximum (FracAtMax) above
//     0.80, 0.95, in a batch of 2 or more whose scores are not all equal.
//   - length_drift: the batch mean of step_count (or cfg.LengthObjective) at
//     |x - mean| / sd above 3, 5, with the baseline batches' mean and sample
//     std (n - 1) of their means, the sd at least 5% of |mean| so that
//     small changes after a steady baseline stay quiet.
//   - correlation_flip: the Pearson correlation r of an objective with the
//     task objective of the opposite sign to its mean r0 over the baseline,
//     with |r0| and |r| above 0.1 (WARN) and |r| above 0.3 (ALERT): the
//     signature of reward hacking.
//   - dead_signal: the fraction of the groups whose task metric all pass
//     or all fail (diagnose.DeadSignal.DeadShare) above cfg.DeadSignal
//     (0.5, 0.75 by default), when the trends carry a DeadSignal.
//   - phantom_signal: the fraction of the groups whose task metric all
//     pass or all fail while their scores vary (PhantomShare) above
//     cfg.PhantomSignal (0.1, 0.25 by default).
//   - constraint_violation: per constraint, the share of the batch's valid
//     trajectories that break it (1 - its feasible share) above 0.2, 0.5.
//   - non_finite: the batch's rows whose objective value or weighted
//     score is NaN or infinite (invalid here, their group's others scored
//     without them), at the level of what cfg.Trainer does with such a
//     score (nonFiniteEffects): an ALERT where it skips the update
//     (verl) or trains on NaN advantages (open-instruct; TRL's on an
//     infinite reward), else a WARN from one row.
//   - invalid_fraction: the fraction of the batch's trajectories that are
//     invalid above 0.1, 0.5 (invalid.Mostly), so that a batch whose
//     rewards are mostly neutral fillers is never healthy.
//   - trainer_agreement: the fraction of the batch's rows with a logged
//     advantage whose reward differs from it (agreement.CompareLogged)
//     above 0, 0.1, when the evaluation has logged advantages and the
//     method computes a trainer's advantage (MethodSpec.Trainers): the
//     rewards here are not what the trainer trained on. When cfg.RowCap
//     is capped, the rows of the group the cap cut (agreement.CutGroupOf)
//     are not graded: its rewards are computed without its rows not read.
//
// When cfg.RowCap is capped, zero_spread and variance_collapse count the
// groups of the batch the cap cut without that group too
// (leaveOutCutGroup), and say so; dead_signal and phantom_signal, whose
// counts come summed over the batch (diagnose.DeadSignal) with no task
// metric to take that group's out, say they count it; a batch that holds
// that group alone is graded by no check and left out of the baseline.
//
// The findings of a step of cfg.Provisional are listed where they exceed
// the level reported before, marked with its reason, but raise no level:
// a later step's finding of the same level is listed too.
func Findings(res *engine.Result, trends []diagnose.Trend, cfg Config) []Finding {
	h := newHealthRun(res, trends, cfg)
	type key struct {
		check     Check
		objective string
	}
	reported := map[key]Level{}
	var out []Finding
	for b := range trends {
		for _, f := range h.batch(b) {
			if k := (key{f.Check, f.Objective}); f.Level > reported[k] {
				if f.Provisional == "" {
					reported[k] = f.Level
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// healthRun holds what the checks compare the batches with.
type healthRun struct {
	res    *engine.Result
	trends []diagnose.Trend
	cfg    Config
	base   int // the baseline is trends[:base]
	// baseGroupStd is the baseline's mean ScoreGroupStd.
	baseGroupStd float64
	// length returns the drift check's series, nil when it is unknown;
	// lengthObjective names its objective, "" for step_count.
	length               func(*diagnose.Trend) float64
	lengthObjective      string
	lengthMean, lengthSD float64
	// task is the task objective's index (-1: unknown); baseCorr holds the
	// baseline mean of each objective's correlation with it.
	task     int
	baseCorr []float64
	// cut is the group the cap on the rows read cut (Config.RowCap), nil
	// for none.
	cut *agreement.CutGroup
}

// leaveOutCutGroup replaces the trend point of the batch the cap cut
// (h.cut) by one whose group counts leave that group out: Groups,
// ZeroStdGroups and FracZeroStdGroups (zero_spread), and ScoreGroupStd,
// the mean std over the other groups (variance_collapse). A group of
// the few rows read has all-equal scores more often than a whole group
// (a group of one always); no trainer's batch held it. h.trends is then
// a copy of the trends given.
func (h *healthRun) leaveOutCutGroup() {
	if h.cut == nil {
		return
	}
	ti, found := slices.BinarySearchFunc(h.trends, h.cut.Step, func(t diagnose.Trend, step int64) int { return cmp.Compare(t.Step, step) })
	if !found {
		return
	}
	b := &h.res.Ranking.Batches[h.cut.Batch]
	k := 0
	for &b.Groups[k] != h.cut.Group {
		k++
	}
	g := diagnose.GroupSummaries(h.res, b)[k] // of b.Groups under scope group, as the cut's
	if g.Valid == 0 {
		return // not counted
	}
	t := h.trends[ti]
	n := float64(t.Groups)
	t.Groups--
	if g.NoSignal(h.res.Options) {
		t.ZeroStdGroups--
	}
	t.FracZeroStdGroups, t.ScoreGroupStd = math.NaN(), math.NaN()
	if t.Groups > 0 {
		t.FracZeroStdGroups = float64(t.ZeroStdGroups) / float64(t.Groups)
		t.ScoreGroupStd = max(0, (h.trends[ti].ScoreGroupStd*n-g.Score.Std)/(n-1))
	}
	h.trends = slices.Clone(h.trends)
	h.trends[ti] = t
}

// onlyCut reports whether t's batch holds the group the cap cut and no
// other: every statistic of it is of that group's rows alone, perhaps a
// few of it, which no check grades.
func (h *healthRun) onlyCut(t *diagnose.Trend) bool {
	return h.cut != nil && t.Step == h.cut.Step && len(h.res.Ranking.Batches[h.cut.Batch].Groups) == 1
}

// cutNote is what the message of a check that counts groups adds on the
// trend point of the batch the cap cut (h.cut): that group left out, or
// counted ("" on the other points).
func (h *healthRun) cutNote(t *diagnose.Trend, counted bool) string {
	if h.cut == nil || t.Step != h.cut.Step {
		return ""
	}
	how := "left out"
	if counted {
		how = "counted"
	}
	return "; " + h.cut.Name() + " " + how
}

// BaselineLen returns how many of the first trend points the baseline
// spans: up to the cfg.Baseline-th (DefaultBaseline when not positive)
// whose step is not provisional (cfg.Provisional), or the last such
// point when fewer are. A provisional step, read in part, has short
// groups and is compared with the baseline, never part of it: a run of
// exactly cfg.Baseline steps whose newest is still being written has a
// baseline of the others, and that step is graded against it. One
// within the span keeps its place but is left out of the baseline's
// means (healthRun.baseline).
func BaselineLen(trends []diagnose.Trend, cfg Config) int {
	n := cfg.Baseline
	if n < 1 {
		n = DefaultBaseline
	}
	end, kept := 0, 0
	for i := 0; i < len(trends) && kept < n; i++ {
		if _, provisional := cfg.Provisional[trends[i].Step]; !provisional {
			end, kept = i+1, kept+1
		}
	}
	return end
}

func newHealthRun(res *engine.Result, trends []diagnose.Trend, cfg Config) *healthRun {
	h := &healthRun{res: res, trends: trends, cfg: cfg, base: BaselineLen(trends, cfg)}
	if res != nil {
		// Under scope batch, no comparison group is cut short.
		if c := agreement.CutGroupOf(res, cfg.RowCap); c != nil && c.Compared {
			h.cut = c
		}
	}
	h.leaveOutCutGroup()
	baseline := h.baseline()
	h.baseGroupStd = meanOver(baseline, func(t *diagnose.Trend) float64 { return t.ScoreGroupStd })
	h.setLength(cfg.LengthObjective)
	h.task = 0
	if cfg.TaskObjective != "" {
		h.task = objectiveIndex(res.Objectives, cfg.TaskObjective)
	}
	if h.task >= 0 && h.task < len(res.Objectives) {
		for k := range res.Objectives {
			h.baseCorr = append(h.baseCorr, meanOver(baseline, func(t *diagnose.Trend) float64 {
				if t.Correlation == nil { // more objectives than are correlated
					return math.NaN()
				}
				return t.Correlation[h.task][k]
			}))
		}
	}
	return h
}

// baseline returns the trend points of the baseline, h.trends[:h.base],
// but a batch that holds the group the cap cut alone (onlyCut), whose
// statistics are of that group's rows alone, perhaps a few of it, which
// no check grades nor compares with, and a provisional step's
// (Config.Provisional), read in part.
func (h *healthRun) baseline() []diagnose.Trend {
	baseline := h.trends[:h.base]
	leftOut := func(t diagnose.Trend) bool {
		_, provisional := h.cfg.Provisional[t.Step]
		return provisional || h.onlyCut(&t)
	}
	if slices.ContainsFunc(baseline, leftOut) {
		return slices.DeleteFunc(slices.Clone(baseline), leftOut)
	}
	return baseline
}

// setLength picks the drift check's series and its baseline.
func (h *healthRun) setLength(name string) {
	switch k := objectiveIndex(h.res.Objectives, name); {
	case name == "":
		h.length = func(t *diagnose.Trend) float64 { return t.MeanStepCount }
	case k >= 0:
		h.length, h.lengthObjective = func(t *diagnose.Trend) float64 { return t.Objectives[k].Mean }, name
	default:
		return
	}
	var x []float64
	baseline := h.baseline()
	for i := range baseline {
		if v := h.length(&baseline[i]); !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	h.lengthMean, h.lengthSD = stats.Mean(x), 0
	if len(x) > 1 {
		h.lengthSD = stats.SampleStd(x)
	}
	h.lengthSD = max(h.lengthSD, driftFloor*math.Abs(h.lengthMean), 1e-12)
}

// meanOver returns the mean of f over the trends where it is not NaN (NaN
// when it is NaN everywhere).
func meanOver(trends []diagnose.Trend, f func(*diagnose.Trend) float64) float64 {
	var x []float64
	for i := range trends {
		if v := f(&trends[i]); !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	return stats.Mean(x)
}

// checkSpec is a health check: its name, whether it compares with the
// baseline (and so runs only on the batches after it), and its function,
// which hands add each finding it makes on trend point t (one per
// objective for a check per objective).
type checkSpec struct {
	check         Check
	afterBaseline bool
	run           func(h *healthRun, t *diagnose.Trend, add func(Finding, bool))
}

// checks are the health checks, in the order a batch's findings are
// listed. A new check is a Check constant, its entry here with its
// function, and its row in docs/CONTRACT.md's Health checks table.
var checks = []checkSpec{
	{CheckInvalidFraction, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.invalidFraction(t)) }},
	{CheckNonFinite, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.nonFinite(t)) }},
	{CheckConstraint, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) {
		for c := range t.ConstraintFeasible {
			add(h.constraintViolation(t, c))
		}
	}},
	{CheckZeroSpread, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.zeroSpread(t)) }},
	{CheckDominance, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.dominance(t)) }},
	{CheckCeiling, false, func(_ *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(ceiling(t)) }},
	{CheckDeadSignal, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) {
		add(deadSignal(t, h.cfg.DeadSignal, h.cutNote(t, true)))
	}},
	{CheckPhantomSignal, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) {
		add(phantomSignal(t, h.cfg.PhantomSignal, h.cutNote(t, true)))
	}},
	{CheckTrainerAgreement, false, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.trainerAgreement(t)) }},
	{CheckVarianceCollapse, true, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.varianceCollapse(t)) }},
	{CheckLengthDrift, true, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) { add(h.lengthDrift(t)) }},
	{CheckCorrelationFlip, true, func(h *healthRun, t *diagnose.Trend, add func(Finding, bool)) {
		for k := range h.baseCorr {
			add(h.correlationFlip(t, k))
		}
	}},
}

// Checks lists every health check, in the order of the checks table.
var Checks = func() []Check {
	cs := make([]Check, len(checks))
	for i := range checks {
		cs[i] = checks[i].check
	}
	return cs
}()

// BaselineChecks lists the checks that compare with the baseline, and so
// run only on the batches after it.
var BaselineChecks = func() []Check {
	var cs []Check
	for i := range checks {
		if checks[i].afterBaseline {
			cs = append(cs, checks[i].check)
		}
	}
	return cs
}()

// batch returns the findings of batch b, at the level each reached,
// marked provisional at a step of cfg.Provisional; none for a batch that
// holds the group the cap cut alone (onlyCut).
func (h *healthRun) batch(b int) []Finding {
	t := &h.trends[b]
	if h.onlyCut(t) {
		return nil
	}
	var out []Finding
	provisional := h.cfg.Provisional[t.Step]
	add := func(f Finding, ok bool) {
		if ok {
			f.Step, f.Provisional = t.Step, provisional
			out = append(out, f)
		}
	}
	for i := range checks {
		if b >= h.base || !checks[i].afterBaseline {
			checks[i].run(h, t, add)
		}
	}
	return out
}

// finding grades value against the thresholds warn and alert (crossed
// upwards, or downwards when below is true); ok is false when it crosses
// neither, or is NaN.
func finding(check Check, objective string, value, warn, alert float64, below bool, msg string) (f Finding, ok bool) {
	beyond := func(threshold float64) bool {
		if below {
			return value < threshold
		}
		return value > threshold
	}
	f = Finding{Check: check, Objective: objective, Value: value, Message: msg}
	switch {
	case beyond(alert):
		f.Level, f.Threshold = Alert, alert
	case beyond(warn):
		f.Level, f.Threshold = Warn, warn
	default:
		return f, false
	}
	return f, true
}

// The thresholds of trainer_agreement: the fraction of a batch's rows
// whose reward differs from the logged advantage, above. One row that
// differs is not the trainer's reward.
const agreementWarn, agreementAlert = 0, 0.1

// trainerAgreement grades t's batch's rewards against the advantages its
// trainer logged, when there are some and the method computes a
// trainer's advantage (MethodSpec.Trainers; another method's rewards
// differ by design).
func (h *healthRun) trainerAgreement(t *diagnose.Trend) (Finding, bool) {
	if h.res == nil || h.res.Evaluation == nil || h.res.Evaluation.Logged == nil {
		return Finding{}, false
	}
	if spec := engine.Spec(h.res.Options.Method); spec == nil || len(spec.Trainers) == 0 {
		return Finding{}, false
	}
	// The batches are in ascending step order: a search, not a scan per step.
	b, found := h.res.Ranking.BatchIndex(t.Step)
	if !found {
		return Finding{}, false
	}
	batch, notGraded := &h.res.Ranking.Batches[b], ""
	if h.cut != nil && h.cut.Batch == b {
		batch, notGraded = h.withoutCut(batch)
	}
	c, _ := agreement.CompareLogged(h.res, batch)
	if c.Rows == 0 {
		return Finding{}, false
	}
	msg := agreement.DifferingRows(c) + ": these rewards are not the advantages the trainer trained on" + notGraded
	return finding(CheckTrainerAgreement, "", float64(c.Differing)/float64(c.Rows), agreementWarn, agreementAlert, false, msg)
}

// withoutCut returns batch without the members of the group the cap cut
// (h.cut, of that batch), and what the message of trainer_agreement adds
// to say so ("" when that group has no row to grade).
func (h *healthRun) withoutCut(batch *engine.Batch) (*engine.Batch, string) {
	cut := h.cut.Group.Members // in input order, as batch.Members
	kept := *batch
	kept.Members = slices.DeleteFunc(slices.Clone(batch.Members), func(i int) bool {
		_, in := slices.BinarySearch(cut, i)
		return in
	})
	c, _ := agreement.CompareLogged(h.res, &engine.Batch{Step: batch.Step, Members: cut})
	if c.Rows == 0 {
		return &kept, ""
	}
	return &kept, fmt.Sprintf("; the %d %s of %s not graded", c.Rows, english.Plural(c.Rows, "row"), h.cut.Name())
}

// The thresholds of invalid_fraction: the fraction of a batch's
// trajectories that are invalid, above.
const invalidWarn, invalidAlert = 0.1, invalid.Mostly

// invalidFraction grades the batch's invalid trajectories; those of the
// groups the dashboard's group filter dropped are not invalid data, and
// are left out of the count (diagnose.BatchStats.Dropped), as stats, which
// keeps them valid, leaves them out.
func (h *healthRun) invalidFraction(t *diagnose.Trend) (Finding, bool) {
	if t.Trajectories == 0 {
		return Finding{}, false
	}
	v := float64(t.Invalid) / float64(t.Trajectories)
	msg := fmt.Sprintf("%d of %d %s invalid (%s)", t.Invalid, t.Trajectories, english.Plural(t.Trajectories, "trajectory"), english.Percent(v))
	f, ok := finding(CheckInvalidFraction, "", v, invalidWarn, invalidAlert, false, msg)
	if ok {
		if ib, found := invalid.Step(h.res, t.Step); found {
			if ib.MainCount > 0 {
				f.Message += ", " + ib.Mostly()
			}
			f.Message += ib.DroppedNote()
		}
	}
	return f, ok
}

// nonFiniteEffect is what a trainer does with the rows of a NaN or an
// infinite score: the level of non_finite's finding and its words,
// naming the trainer's function, given how many rows are infinite.
type nonFiniteEffect func(inf int) (Level, string)

// nonFiniteEffects says, per trainer, what it does with a NaN or
// infinite score; a trainer not here, or none, gets nonFiniteUnknown.
var nonFiniteEffects = map[engine.Trainer]nonFiniteEffect{
	// Every estimator of verl's makes some advantage NaN
	// (layouts.verlNaNAdvantages), whence the loss and the grad norm of
	// the mini-batch that holds it: verl accumulates a mini-batch's
	// micro-batches and steps once.
	engine.TrainerVerl: func(int) (Level, string) {
		return Alert, "verl's advantages of such a row's group are NaN (compute_grpo_outcome_advantage's mean and std over the group; its other estimators alike), " +
			"so the loss and grad norm of each mini-batch holding them are not finite, and its actor's optimizer step " +
			"(DataParallelPPOActor._optimizer_step, or the engine's FSDPEngine.optimizer_step: if not torch.isfinite(grad_norm), zero_grad) skips that update"
	},
	// open-instruct's mean and std over a group are numpy's, NaN with one
	// NaN score, and the advantages it logs are those it trains on.
	engine.TrainerOpenInstruct: func(int) (Level, string) {
		return Alert, "open-instruct's advantages of such a row's group are NaN (numpy's mean and std over the group in DataPreparationActor._data_preparation_loop, " +
			"logged so in the traces), and that loop packs them into the step's training batch as they are, no check of their finiteness: the step's loss trains on them"
	},
	engine.TrainerTRL: func(inf int) (Level, string) {
		if inf > 0 {
			return Alert, "an infinite reward makes TRL's group mean infinite and the group's advantages NaN (nanmean and nanstd in GRPOTrainer._generate_and_score_completions), and the step's loss with them"
		}
		return Warn, "TRL leaves a NaN reward (every reward function returned None) out of its group's mean and std and gives its row advantage 0 (GRPOTrainer._generate_and_score_completions), " +
			"as here its group's others are scored without it"
	},
}

// nonFiniteUnknown is what non_finite says without a trainer that
// nonFiniteEffects knows.
func nonFiniteUnknown(int) (Level, string) {
	return Warn, "here those rows are invalid and their group's others scored without them; a trainer's advantages of such a group may be NaN"
}

// nonFinite grades the rows of t's batch whose objective value or
// weighted score is NaN or infinite by what cfg.Trainer does with them
// (nonFiniteEffects).
func (h *healthRun) nonFinite(t *diagnose.Trend) (Finding, bool) {
	if t.Invalid == 0 || h.res == nil || h.res.Evaluation == nil {
		return Finding{}, false
	}
	b, found := h.res.Ranking.BatchIndex(t.Step)
	if !found {
		return Finding{}, false
	}
	ev := h.res.Evaluation
	var nan, inf int
	// Each cause is looked up once, with its count: a batch's invalid rows
	// share a few causes.
	for cause, n := range ev.InvalidCauses(h.res.Ranking.Batches[b].Members) {
		switch c, ok := ev.CauseOf(cause); {
		case !ok || c.Setting():
		case c.Err == scoring.ErrNaN:
			nan += n
		case c.Err == scoring.ErrInf:
			inf += n
		}
	}
	n := nan + inf
	if n == 0 {
		return Finding{}, false
	}
	effect, ok := nonFiniteEffects[h.cfg.Trainer]
	if !ok {
		effect = nonFiniteUnknown
	}
	level, says := effect(inf)
	var kinds []string
	if nan > 0 {
		kinds = append(kinds, fmt.Sprintf("%d NaN", nan))
	}
	if inf > 0 {
		kinds = append(kinds, fmt.Sprintf("%d infinite", inf))
	}
	msg := fmt.Sprintf("%d %s of %d with a score not finite (%s): %s", n, english.Plural(n, "row"), t.Trajectories, strings.Join(kinds, ", "), says)
	return Finding{Check: CheckNonFinite, Level: level, Value: float64(n), Message: msg}, true
}

// The thresholds of constraint_violation: the share of a batch's valid
// trajectories that break a constraint, above.
const violationWarn, violationAlert = 0.2, 0.5

func (h *healthRun) constraintViolation(t *diagnose.Trend, c int) (Finding, bool) {
	v := 1 - t.ConstraintFeasible[c]
	expr := h.res.Evaluation.Constraints[c].Expr
	msg := fmt.Sprintf("%s of valid trajectories break %s", english.Percent(v), expr)
	return finding(CheckConstraint, expr, v, violationWarn, violationAlert, false, msg)
}

// zeroSpread grades the share of groups of all-equal scores. A batch whose
// every group has one row has no spread within a group to judge: the
// groups of the run's trainer were not these (a table of one row per
// prompt, as TRL's log_unique_prompts=True logs), or it trained without
// one; said as a WARN of what cannot be judged, not graded.
func (h *healthRun) zeroSpread(t *diagnose.Trend) (Finding, bool) {
	v, n := t.FracZeroStdGroups, t.ZeroStdGroups
	msg := fmt.Sprintf("%d of %d %s %s all-equal scores (no GRPO signal)", n, t.Groups, english.Plural(t.Groups, "group"), english.Verb(n, "has", "have")) + h.cutNote(t, false)
	f, ok := finding(CheckZeroSpread, "", v, zeroSpreadWarn, zeroSpreadAlert, false, msg)
	if ok && t.Groups > 1 && t.Groups == t.Trajectories {
		f.Level, f.Threshold = Warn, zeroSpreadWarn
		f.Message = fmt.Sprintf("every group has one row (%d groups): no spread within a group to judge (a table of one row per prompt, as TRL's log_unique_prompts=True logs, holds none of its group's other rows)", t.Groups)
	}
	return f, ok
}

func (h *healthRun) varianceCollapse(t *diagnose.Trend) (Finding, bool) {
	if !(h.baseGroupStd > stats.ZeroStd) {
		return Finding{}, false // no spread to lose
	}
	v := t.ScoreGroupStd / h.baseGroupStd
	msg := fmt.Sprintf("score std within groups %.3g, %s of the baseline's %.3g", t.ScoreGroupStd, english.Percent(v), h.baseGroupStd) + h.cutNote(t, false)
	return finding(CheckVarianceCollapse, "", v, collapseWarn, collapseAlert, true, msg)
}

func (h *healthRun) dominance(t *diagnose.Trend) (Finding, bool) {
	if len(t.Objectives) < 2 || !h.res.Options.Method.RewardsScore() || t.ScoreShares == nil {
		return Finding{}, false
	}
	k := 0
	for j, share := range t.ScoreShares {
		if share > t.ScoreShares[k] {
			k = j
		}
	}
	v, name := t.ScoreShares[k], t.Objectives[k].Name
	msg := fmt.Sprintf("%s carries %s of the weighted score's variance", name, english.Percent(v))
	return finding(CheckDominance, name, v, dominanceWarn, dominanceAlert, false, msg)
}

// ceiling grades FracAtMax in a batch of 2 or more scores that spread: a
// batch whose every score is one value, every answer passing alike or
// failing alike, is not graded, as nothing tells its value a maximum from
// a minimum; it has no signal, which zero_spread and dead_signal say
// (dead_signal as all-pass or all-fail).
func ceiling(t *diagnose.Trend) (Finding, bool) {
	if t.Score.Count < 2 || !(t.Score.Max > t.Score.Min) {
		return Finding{}, false
	}
	v := t.FracAtMax
	msg := fmt.Sprintf("%s of scores are at the batch maximum %.4g", english.Percent(v), t.Score.Max)
	return finding(CheckCeiling, "", v, ceilingWarn, ceilingAlert, false, msg)
}

func (h *healthRun) lengthDrift(t *diagnose.Trend) (Finding, bool) {
	if h.length == nil || math.IsNaN(h.lengthMean) {
		return Finding{}, false
	}
	x := h.length(t)
	z := (x - h.lengthMean) / h.lengthSD
	f, ok := finding(CheckLengthDrift, h.lengthObjective, math.Abs(z), driftWarn, driftAlert, false, "")
	f.Value, f.Measure = z, fmt.Sprintf("%+.1f sd", z)
	f.Message = fmt.Sprintf("mean %s %.3g, baseline %.3g ± %.3g: %s",
		cmp.Or(h.lengthObjective, "step_count"), x, h.lengthMean, h.lengthSD, f.Measure)
	return f, ok
}

func (h *healthRun) correlationFlip(t *diagnose.Trend, k int) (Finding, bool) {
	if t.Correlation == nil {
		return Finding{}, false
	}
	r0, r := h.baseCorr[k], t.Correlation[h.task][k]
	if k == h.task || !(math.Abs(r0) > flipMin) || math.Signbit(r) == math.Signbit(r0) {
		return Finding{}, false
	}
	name, task := t.Objectives[k].Name, t.Objectives[h.task].Name
	msg := fmt.Sprintf("corr(%s, %s) %+.2f, baseline %+.2f: the sign flipped", name, task, r, r0)
	f, ok := finding(CheckCorrelationFlip, name, math.Abs(r), flipMin, flipAlert, false, msg)
	f.Value = r
	return f, ok
}

// objectiveIndex returns the index of the objective named name, -1 when
// there is none.
func objectiveIndex(objectives []scoring.Objective, name string) int {
	return slices.IndexFunc(objectives, func(o scoring.Objective) bool { return o.Name == name })
}

// objectiveNameList returns the objectives' names.
func objectiveNameList(objectives []scoring.Objective) []string {
	var names []string
	for _, o := range objectives {
		names = append(names, o.Name)
	}
	return names
}
