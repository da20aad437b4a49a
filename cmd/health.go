package cmd

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// exitHealthAlert is the status of stats --health when a check raised an
// ALERT, so that a training script or CI can stop a bad run.
const exitHealthAlert = 3

// healthFlags are the settings of the trends and the health checks: stats
// takes them all, the dashboard all but --health.
type healthFlags struct {
	health   bool
	baseline int
	hvRef    []float64
	length   string
	task     string
}

// register adds the flags to f; withHealth adds --health.
func (h *healthFlags) register(f *pflag.FlagSet, withHealth bool) {
	if withHealth {
		f.BoolVar(&h.health, "health", false, "run the health checks; exit status 3 when one raises an ALERT")
	}
	f.IntVar(&h.baseline, "baseline", health.DefaultBaseline, "health checks: how many first batches form the baseline")
	f.Float64SliceVar(&h.hvRef, "hv-ref", nil, "hypervolume reference point `v1,v2,...`, raw values in objective order (default: the worst of each in the first batch)")
	// pflag says "(default [])" of an empty list: the usage says the default.
	f.Lookup("hv-ref").DefValue = ""
	f.StringVar(&h.length, "health-length", "", "health checks: follow the mean of objective `NAME` for length drift (default step_count)")
	f.StringVar(&h.task, healthTaskFlag, "", "the task metric (--task-metric's older name); the health checks correlate the others with it when it is an objective `NAME` (default the first)")
}

// healthTaskFlag is the older name of --task-metric, which the health
// flags keep.
const healthTaskFlag = "health-task"

// healthConfig returns the health checks' config, checking what needs no
// objectives.
func (h *healthFlags) healthConfig() (health.Config, error) {
	cfg := health.Config{Baseline: h.baseline, LengthObjective: h.length, TaskObjective: h.task}
	if h.baseline < 1 {
		return cfg, usagef("--baseline %d: want a number of batches >= 1", h.baseline)
	}
	return cfg, nil
}

// config returns the health checks' config and the hypervolume reference
// (nil for the default), checked against the objectives.
func (h *healthFlags) config(objectives []scoring.Objective) (health.Config, []float64, error) {
	cfg, err := h.healthConfig()
	if err != nil {
		return cfg, nil, err
	}
	if !slices.ContainsFunc(objectives, func(o scoring.Objective) bool { return o.Name == cfg.TaskObjective }) {
		// A task metric that is an expression: the correlations are
		// with the first objective.
		cfg.TaskObjective = ""
	}
	if err := cfg.Validate(objectives); err != nil {
		return cfg, nil, usagef("--health-length, --health-task: %v", err)
	}
	if err := diagnose.ValidateHVRef(objectives, h.hvRef); err != nil {
		return cfg, nil, usagef("--hv-ref: %v", err)
	}
	return cfg, h.hvRef, nil
}

// noStepCount reports whether no batch's valid trajectories have a
// step_count above 0 (every mean 0 or NaN): length_drift would follow a
// constant, the records (a trainer's rollouts) holding none.
func noStepCount(trends []diagnose.Trend) bool {
	for i := range trends {
		if m := trends[i].MeanStepCount; m != 0 && !math.IsNaN(m) {
			return false
		}
	}
	return true
}

// healthReport is the "health" part of stats' output.
type healthReport struct {
	// Baseline is how many batches the baseline has: --baseline, or all
	// of them when there are fewer.
	Baseline int `json:"baseline"`
	// asked is --baseline, said when more than the batches there are.
	asked    int
	HVRef    []number         `json:"hv_ref"`
	Trends   []trendJSON      `json:"trends"`
	Findings []health.Finding `json:"findings"`
	// NotRun names the checks that compare with the baseline when no
	// batch follows it, and length_drift when it follows step_count and
	// no trajectory has one (noStepCount): an empty findings list would
	// read as healthy.
	NotRun []string `json:"not_run,omitempty"`
	// Float32Note says that rows agree with the logged advantage only
	// within a coarse float32 bound (float32CoarseNote): an empty
	// findings list would read as the settings verified.
	Float32Note string `json:"float32_note,omitempty"`
	// noStepCount says length_drift is in NotRun for want of step_count;
	// stepCounted, that a batch has a mean step_count (noStepCount's
	// opposite, whatever length_drift follows).
	noStepCount, stepCounted bool
	// noHypervolume is why no batch has a hypervolume
	// (diagnose.NoHypervolume), "" when one may.
	noHypervolume string
	// stillWritten names the steps left out of the verdict, with why
	// (health.Config.Provisional); baselineLeftOut those of them that the
	// baseline would have held (health.BaselineLen).
	stillWritten    map[int64]string
	baselineLeftOut []int64
}

// float32Verdict is what stats --health's verdict says, with no
// finding, when trainer_agreement passed only within a coarse float32
// bound (healthReport.Float32Note), after the checks not run if any.
const float32Verdict = "trainer_agreement within float32's error only, which does not tell the settings from slightly wrong ones (the note above)"

// float32CoarseNote is agreement.Float32CoarseNote of res's batches
// whose rows all agree with the logged advantage, some only within a
// coarse float32 bound (agreement.Diff.Float32Coarse), the largest such
// bound said; "" for none.
func float32CoarseNote(res *engine.Result) string {
	var coarse agreement.Diff
	for bi := range res.Ranking.Batches {
		if c, ok := agreement.CompareLogged(res, &res.Ranking.Batches[bi]); ok && c.Differing == 0 {
			coarse.Float32Coarse = max(coarse.Float32Coarse, c.Float32Coarse)
		}
	}
	return agreement.Float32CoarseNote(coarse)
}

// sayProvisional says on w, for each step r left out of the verdict
// (stillWritten), that it was and why, with its findings' levels: its
// findings are listed, marked provisional, but raise no exit status 3.
func (r *healthReport) sayProvisional(w io.Writer) {
	if r == nil {
		return
	}
	for _, step := range slices.Sorted(maps.Keys(r.stillWritten)) {
		var alerts, warns int
		for _, f := range r.Findings {
			switch {
			case f.Step != step || f.Provisional == "":
			case f.Level == health.Alert:
				alerts++
			default:
				warns++
			}
		}
		found := "no finding"
		if alerts+warns > 0 {
			var levels []string
			if alerts > 0 {
				levels = append(levels, fmt.Sprintf("%d %s", alerts, english.Plural(alerts, "ALERT")))
			}
			if warns > 0 {
				levels = append(levels, fmt.Sprintf("%d %s", warns, english.Plural(warns, "WARN")))
			}
			found = "its findings (" + strings.Join(levels, ", ") + ") are provisional"
		}
		fmt.Fprintf(w, "rewardlens: health: step %d left out of the verdict (exit status): %s; %s\n", step, textsafe.Line(r.stillWritten[step]), found)
	}
}

// trendJSON is what the trends add to a batch's statistics; the dead
// signal's shares when the task metric is known.
type trendJSON struct {
	Batch             int64   `json:"batch"`
	Hypervolume       number  `json:"hypervolume"`
	MeanStepCount     number  `json:"mean_step_count"`
	ScoreGroupStd     number  `json:"score_group_std"`
	FracAtMax         number  `json:"frac_at_max"`
	DeadShare         *number `json:"dead_share,omitempty"`
	ExpectedDeadShare *number `json:"expected_dead_share,omitempty"`
	PhantomShare      *number `json:"phantom_share,omitempty"`
}

// report runs the health checks on res, or returns nil without --health;
// reading is what the reading told the checks, not a setting: what
// --max-rows did to it (RowCap), the steps its run is probably still
// writing, whose findings are provisional (Provisional), and the trainer
// whose run it is (Trainer); addDead, when not nil, adds the dead signal
// to the trends first.
func (h *healthFlags) report(res *engine.Result, reading health.Config, addDead func(*engine.Result, []diagnose.Trend)) (*healthReport, error) {
	if !h.health {
		return nil, nil
	}
	cfg, ref, err := h.config(res.Objectives)
	if err != nil {
		return nil, err
	}
	cfg.RowCap, cfg.Provisional, cfg.Trainer = reading.RowCap, reading.Provisional, reading.Trainer
	if ref == nil {
		ref = diagnose.DefaultHVRef(res)
	}
	trends := diagnose.Trends(res, ref)
	if addDead != nil {
		addDead(res, trends)
	}
	noSteps := noStepCount(trends)
	// An empty list, not null, when healthy.
	r := &healthReport{Baseline: health.BaselineLen(trends, cfg), asked: cfg.Baseline, Findings: append([]health.Finding{}, health.Findings(res, trends, cfg)...), noHypervolume: diagnose.NoHypervolume(res), stepCounted: !noSteps, stillWritten: reading.Provisional}
	for i, t := range trends {
		// Those the baseline would have held (its span, or all when it
		// has fewer than asked).
		if _, provisional := cfg.Provisional[t.Step]; provisional && (i < r.Baseline || r.Baseline < r.asked) {
			r.baselineLeftOut = append(r.baselineLeftOut, t.Step)
		}
	}
	r.Float32Note = float32CoarseNote(res)
	if len(trends) <= r.Baseline || r.Baseline == 0 {
		for _, c := range health.BaselineChecks {
			r.NotRun = append(r.NotRun, string(c))
		}
	} else if cfg.LengthObjective == "" && noSteps {
		r.NotRun, r.noStepCount = append(r.NotRun, string(health.CheckLengthDrift)), true
	}
	for _, v := range ref {
		r.HVRef = append(r.HVRef, number(v))
	}
	for _, t := range trends {
		tj := trendJSON{Batch: t.Step, Hypervolume: number(t.Hypervolume), MeanStepCount: number(t.MeanStepCount), ScoreGroupStd: number(t.ScoreGroupStd), FracAtMax: number(t.FracAtMax)}
		if d := t.DeadSignal; d != nil {
			dead, expected, phantom := number(d.DeadShare), number(d.ExpectedDeadShare), number(d.PhantomShare)
			tj.DeadShare, tj.ExpectedDeadShare, tj.PhantomShare = &dead, &expected, &phantom
		}
		r.Trends = append(r.Trends, tj)
	}
	return r, nil
}

// healthAlert is the error of a run whose health checks raised an ALERT.
type healthAlert struct{ alerts []health.Finding }

func (e healthAlert) Error() string {
	parts := make([]string, len(e.alerts))
	for i, f := range e.alerts {
		parts[i] = fmt.Sprintf("%s at step %d", checkName(f), f.Step)
	}
	return fmt.Sprintf("health: %d %s: %s", len(e.alerts), english.Plural(len(e.alerts), "ALERT"), strings.Join(parts, ", "))
}

// status returns a healthAlert when r holds an ALERT that stands (not
// provisional: health.Standing).
func (r *healthReport) status() error {
	if r == nil {
		return nil
	}
	var alerts []health.Finding
	for _, f := range health.Standing(r.Findings) {
		if f.Level == health.Alert {
			alerts = append(alerts, f)
		}
	}
	if len(alerts) == 0 {
		return nil
	}
	return healthAlert{alerts}
}

// checkName is the check and, when it is about one, its objective.
func checkName(f health.Finding) string {
	if f.Objective == "" {
		return string(f.Check)
	}
	return fmt.Sprintf("%s (%s)", f.Check, f.Objective)
}

// writeHealthTable prints the trends and the findings of r (nothing when r
// is nil: no --health).
func writeHealthTable(w io.Writer, r *healthReport, objectives []string) error {
	if r == nil {
		return nil
	}
	refs := make([]string, len(r.HVRef))
	for k, v := range r.HVRef {
		refs[k] = textsafe.Line(objectives[k]) + " " + tableNumber(float64(v))
	}
	baseline := fmt.Sprintf("baseline the first %d %s", r.Baseline, english.Plural(r.Baseline, "batch"))
	var leftOut []string
	for _, step := range r.baselineLeftOut {
		leftOut = append(leftOut, strconv.FormatInt(step, 10))
	}
	stillWritten := fmt.Sprintf("%s %s, still being written", english.Plural(len(leftOut), "step"), strings.Join(leftOut, ", "))
	switch {
	case r.asked > r.Baseline && len(leftOut) > 0:
		baseline += fmt.Sprintf(" (fewer than --baseline %d: %s, left out)", r.asked, stillWritten)
	case r.asked > r.Baseline:
		baseline += fmt.Sprintf(" (all of them, fewer than --baseline %d)", r.asked)
	case len(leftOut) > 0:
		baseline += " but " + stillWritten
	}
	if r.noHypervolume == "" {
		fmt.Fprintf(w, "\nhealth: %s; hypervolume reference %s\n", baseline, strings.Join(refs, ", "))
	} else { // its column is NaN
		fmt.Fprintf(w, "\nhealth: %s; no hypervolume: %s\n", baseline, r.noHypervolume)
	}
	tw := newColumnWriter(w, true)
	// A column no batch has a value in is left out: the line above says
	// why there is no hypervolume, and a step_count that no trajectory
	// has would read as a mean of 0.
	type column struct {
		name  string
		value func(t trendJSON) number
		shown bool
	}
	columns := slices.DeleteFunc([]column{
		{"hypervolume", func(t trendJSON) number { return t.Hypervolume }, r.noHypervolume == ""},
		{"mean_step_count", func(t trendJSON) number { return t.MeanStepCount }, r.stepCounted},
		{"score_group_std", func(t trendJSON) number { return t.ScoreGroupStd }, true},
		{"frac_at_max", func(t trendJSON) number { return t.FracAtMax }, true},
	}, func(c column) bool { return !c.shown })
	dead := len(r.Trends) > 0 && r.Trends[0].DeadShare != nil
	header := "batch\t"
	for _, c := range columns {
		header += c.name + "\t"
	}
	if dead {
		header += "dead_share\texpected_dead_share\tphantom_share\t"
	}
	fmt.Fprintln(tw, header)
	for _, t := range r.Trends {
		fmt.Fprintf(tw, "%d\t", t.Batch)
		for _, c := range columns {
			fmt.Fprintf(tw, "%s\t", tableNumber(float64(c.value(t))))
		}
		if dead {
			fmt.Fprintf(tw, "%s\t%s\t%s\t", tableNumber(float64(*t.DeadShare)), tableNumber(float64(*t.ExpectedDeadShare)), tableNumber(float64(*t.PhantomShare)))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// With no batch after the baseline, the checks that compare with it
	// could not run: "healthy" would say more than was checked.
	notRun := ""
	switch {
	case r.noStepCount:
		notRun = "length_drift not run: no trajectory has a step_count above 0 (--health-length NAME follows an objective)"
	case len(r.NotRun) > 0:
		notRun = fmt.Sprintf("no batch after the baseline: drift checks not run (%s)", strings.Join(r.NotRun, ", "))
	}
	if len(r.Findings) == 0 {
		var caveats []string
		if notRun != "" {
			caveats = append(caveats, notRun)
		}
		if r.Float32Note != "" {
			caveats = append(caveats, float32Verdict)
		}
		verdict := ", healthy"
		if len(caveats) > 0 {
			verdict = "; " + strings.Join(caveats, "; ")
		}
		_, err := fmt.Fprintf(w, "findings: none%s\n", verdict)
		return err
	}
	if notRun != "" {
		fmt.Fprintln(w, notRun)
	}
	fmt.Fprintln(w, "findings")
	tw = newColumnWriter(w, false)
	for _, f := range r.Findings {
		fmt.Fprintf(tw, "  %s\tstep %s\t%s\t%s\n", f.Level, strconv.FormatInt(f.Step, 10), textsafe.Line(checkName(f)), textsafe.Line(f.Message)+provisionalNote(f.Provisional))
	}
	return tw.Flush()
}
