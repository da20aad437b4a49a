package cmd

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/stats"
)

func newStatsCommand(s *settings, stdio IO) *cobra.Command {
	var format, out string
	var force bool
	var health healthFlags
	var follow bool
	cmd := &cobra.Command{
		Use:   "stats [flags] FILE...",
		Short: "Print per-batch statistics of objectives, scores and rewards",
		Long: `stats prints, for every batch, the count, mean, population std, min,
quartiles and max of each objective, of the scores and of the rewards (valid
trajectories only), the objectives' Pearson correlation matrix, the number of
fronts, the frontier size and frac_zero_std_groups.

TRL logs reward_std and rewards/NAME/std as sample stds (n - 1): an std
here times sqrt(count / (count - 1)) is TRL's.

--health adds the trends (hypervolume, mean step_count...) and the health
checks against the first --baseline batches, and exits with status 3 when
one of them raises an ALERT.

When no trajectory is valid, nothing is printed and the status is 2 (with
--follow, once the first batch is complete); a batch more than half
invalid is warned of on stderr.

--follow keeps watching the inputs and prints one line per batch as they
grow (step, count, reward mean and std, frontier size, the health findings
of that step; JSON lines with --format json) until interrupted.`,
		Example: `  rewardlens stats rollouts.jsonl
  rewardlens stats --format json --method grpo rollouts.jsonl | jq '.batches[0].reward'
  rewardlens stats --follow runs/today/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := outFormat(cmd, &format, out, stdio.Stderr, "table", "json"); err != nil {
				return err
			}
			if err := checkOut(out, cmd.Flags().Changed("out"), args, stdio.Stdin, force); err != nil {
				return err
			}
			if follow {
				if out != "" {
					return usagef("--follow prints to stdout, line by line: --out is not for it")
				}
				if s.maxRows > 0 {
					return usagef("--max-rows is not for --follow, which reads on as the run writes")
				}
				return runStatsFollow(cmd.Context(), cmd, s, &health, format, args, stdio)
			}
			p, err := prepareColumns(cmd, s, args, stdio)
			if err != nil {
				return err
			}
			res, err := p.result(stdio.Stderr)
			if err != nil {
				return err
			}
			report := newStatsReport(res, p.check.Logged, p.rowCap)
			report.InvalidAt = p.invalidWhere(res.Evaluation)
			report.invalidReason = res.Evaluation.EvalReason
			report.InvalidCauses = invalidCauses(report.Invalid, report.InvalidAt, report.invalidReason)
			// On stderr too, as compute says it: stdout may go to a file.
			reportInvalid(stdio.Stderr, report.Invalid, report.InvalidAt, report.invalidReason)
			report.addPrompts(res, p)
			if p.columns != nil {
				// The correlations are with the task metric, when it is
				// an objective.
				health.task = p.columns.TaskName
			}
			if report.Health, err = health.report(res, p.healthReading(), healthDeadSignal(p)); err != nil {
				return err
			}
			report.Health.sayProvisional(stdio.Stderr)
			err = writeOutput(cmd.Context(), out, args, stdio.Stdout, func(w io.Writer) error {
				if format == "json" {
					text, err := output.MarshalJSON(report, "  ")
					if err != nil {
						return err
					}
					_, err = w.Write(append(text, '\n'))
					return err
				}
				return writeStatsTable(w, report)
			})
			if alert := report.Health.status(); err != nil && alert != nil {
				// Both are told; the ALERT's status 3 stands, as the
				// status is what a pipeline watching the run reads.
				return fmt.Errorf("%w; %w", err, alert)
			}
			if err != nil {
				return err
			}
			return report.Health.status()
		},
	}
	health.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&format, "format", "", "output format: table or json (default: json for an --out ending .json, else table)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `PATH` (atomically) instead of stdout")
	cmd.Flags().BoolVar(&force, "force", false, "let --out replace a read-only file or another user's (keeping its owner and mode)")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep watching the inputs; print a line per batch as they grow, until interrupted")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"table", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// number is a float64 that marshals as null when it is not finite (JSON
// has no NaN).
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	return output.AppendJSONNumber(nil, float64(n)), nil
}

type summaryJSON struct {
	Count  int    `json:"count"`
	Mean   number `json:"mean"`
	Std    number `json:"std"`
	Min    number `json:"min"`
	P25    number `json:"p25"`
	Median number `json:"median"`
	P75    number `json:"p75"`
	Max    number `json:"max"`
}

func newSummaryJSON(s stats.Summary) summaryJSON {
	return summaryJSON{s.Count, number(s.Mean), number(s.Std), number(s.Min), number(s.P25), number(s.Median), number(s.P75), number(s.Max)}
}

// objectiveJSON is diagnose.ObjectiveStats: the summary of the values
// present, then how many valid trajectories miss one (nansum). WeightBy
// says why a batch's weight is null: "source" when the sources weigh the
// objective differently, "none" when no source has it; omitted with a
// weight.
type objectiveJSON struct {
	Name     string `json:"name"`
	Goal     string `json:"goal"`
	Weight   number `json:"weight"`
	WeightBy string `json:"weight_by,omitempty"`
	summaryJSON
	Missing int `json:"missing"`
}

func newObjectiveJSON(o diagnose.ObjectiveStats) objectiveJSON {
	return objectiveJSON{Name: o.Name, Goal: string(o.Goal), Weight: number(o.Weight), summaryJSON: newSummaryJSON(o.Summary), Missing: o.Missing}
}

// weightBy is objectiveJSON.WeightBy of objective k over every
// trajectory of ev, of weight w (engine.Evaluation.ObjectiveWeight).
func weightBy(ev *engine.Evaluation, k int, w float64) string {
	switch {
	case !math.IsNaN(w) || !ev.HasSources():
		return ""
	case ev.SourceLess(k):
		return "none"
	default:
		return "source"
	}
}

type batchJSON struct {
	Batch             int64           `json:"batch"`
	Trajectories      int             `json:"trajectories"`
	Valid             int             `json:"valid"`
	Invalid           int             `json:"invalid"`
	Groups            int             `json:"groups"`
	Fronts            int             `json:"fronts"`
	FrontierSize      int             `json:"frontier_size"`
	FracZeroStdGroups number          `json:"frac_zero_std_groups"`
	Objectives        []objectiveJSON `json:"objectives"`
	Score             summaryJSON     `json:"score"`
	Reward            summaryJSON     `json:"reward"`
	Correlation       [][]number      `json:"correlation"`
	// Collapse is the share of the CollapseGroups groups of distinct
	// objective vectors where distinct vectors get identical rewards.
	Collapse       number `json:"collapse"`
	CollapseGroups int    `json:"collapse_groups"`
	// Feasible is the share of valid trajectories meeting every
	// constraint, Constraints each one's share (with --constraint).
	Feasible    *number          `json:"feasible,omitempty"`
	Constraints []constraintJSON `json:"constraints,omitempty"`
	// Sources splits the batch by source (with source_by).
	Sources []sourceJSON `json:"sources,omitempty"`
	// Logged compares the rewards with the trainer's logged advantages,
	// when the input has them; Agreement the trainer-style rewards.
	Logged    *loggedJSON    `json:"logged_advantage,omitempty"`
	Agreement *agreementJSON `json:"trainer_agreement,omitempty"`
	// DeadSignal splits the groups without signal by the task metric;
	// Filter is what --filter-groups kept.
	DeadSignal *deadSignalJSON `json:"dead_signal,omitempty"`
	Filter     *filterJSON     `json:"filter,omitempty"`
}

// agreementJSON compares a batch's trainer-style rewards with the logged
// advantages (agreement.Match.BatchFit): the settings, how many rows
// differ by more than agreement.Tolerance, and the flags that reproduce
// the batch's rows to agreement.Reproduces (null when none tried does;
// "" when the settings as given do).
type agreementJSON struct {
	Settings     string  `json:"settings"`
	Rows         int     `json:"rows"`
	Differing    int     `json:"differing"`
	MaxAbsDiff   number  `json:"max_abs_diff"`
	ReproducedBy *string `json:"reproduced_by"`
	// ReproducedNote is what those flags assume (agreement.Match.BatchNote):
	// rloo-whitened taking the step for TRL's generation batch.
	ReproducedNote string `json:"reproduced_note,omitempty"`
	Warning        string `json:"warning,omitempty"`
	// Provisional marks, while following, a warning of a step probably
	// read in part (stats --follow).
	Provisional bool `json:"provisional,omitempty"`
}

// sourceJSON is diagnose.SourceStats.
type sourceJSON struct {
	Source       string          `json:"source"`
	Trajectories int             `json:"trajectories"`
	Invalid      int             `json:"invalid"`
	Objectives   []objectiveJSON `json:"objectives"`
	Score        summaryJSON     `json:"score"`
	Reward       summaryJSON     `json:"reward"`
}

// constraintJSON is a constraint and the share of a batch's valid
// trajectories that meet it.
type constraintJSON struct {
	Expr     string `json:"expr"`
	Feasible number `json:"feasible"`
}

// loggedJSON is agreement.Comparison.
type loggedJSON struct {
	Rows        int    `json:"rows"`
	MaxAbsDiff  number `json:"max_abs_diff"`
	MeanAbsDiff number `json:"mean_abs_diff"`
	Differing   int    `json:"differing"`
	Tolerance   number `json:"tolerance"`
	// TieResidueGroups counts the groups of equal scores whose logged
	// advantage is the trainer's float32 residue, not 0
	// (agreement.Diff.TieResidueGroups).
	TieResidueGroups int `json:"tie_residue_groups"`
	// overBatch says that the method normalises over the batch last
	// (agreement.OverBatch), which the groups' line says.
	overBatch bool
	// logged counts the rows with a finite logged value, valid or not
	// (agreement.Diff.Logged).
	logged int
}

// statsReport is the output of stats.
type statsReport struct {
	Method engine.Method `json:"method"`
	Scope  engine.Scope  `json:"scope"`
	methodSettings
	Objectives []string       `json:"objectives"`
	Invalid    map[string]int `json:"invalid"`
	// InvalidAt is where the first trajectory invalid for each cause was
	// read ("file:line").
	InvalidAt map[string]string `json:"invalid_at,omitempty"`
	// invalidReason is why an evaluation error's expression failed in its
	// first trajectory, or what a value that is not a number was there
	// (Evaluation.EvalReason; nil: not known).
	invalidReason func(cause string) string
	// InvalidCauses is what the table's "invalid trajectories" line says
	// (describeCounts): each cause, its count, where and why its first
	// trajectory was invalid.
	InvalidCauses []invalidCauseJSON `json:"invalid_causes"`
	Prompts       *promptsJSON       `json:"prompts,omitempty"`
	Batches       []batchJSON        `json:"batches"`
	Health        *healthReport      `json:"health,omitempty"`
	// missingColumn shows the objectives' missing counts in the table:
	// under nansum, the only setting where a valid trajectory can miss a
	// value.
	missingColumn bool
}

// invalidCauseJSON is one cause of invalid trajectories: its count, where
// its first trajectory was read (as invalid_at) and why its expression
// failed there or what its value that is not a number was
// (Evaluation.EvalReason), each omitted when not known.
type invalidCauseJSON struct {
	Cause  string `json:"cause"`
	Count  int    `json:"count"`
	At     string `json:"at,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// invalidCauses lists counts per cause, most frequent first
// (causesByCount), with where (at) and why (reason, nil: not known) the
// first trajectory of each was invalid; empty, not nil, when none is.
func invalidCauses(counts map[string]int, at map[string]string, reason func(cause string) string) []invalidCauseJSON {
	out := []invalidCauseJSON{}
	for _, c := range causesByCount(counts) {
		ic := invalidCauseJSON{Cause: c, Count: counts[c], At: at[c]}
		if reason != nil {
			ic.Reason = reason(c)
		}
		out = append(out, ic)
	}
	return out
}

// methodSettings are engine.MethodSettings, the settings the method
// reads, each set only where it does, and the score's precision when it
// is float32, which every method's score is summed in.
type methodSettings struct {
	Normalize      *bool                 `json:"normalize,omitempty"`
	Scale          engine.Scale          `json:"scale,omitempty"`
	Epsilon        *number               `json:"epsilon,omitempty"`
	Std            engine.Std            `json:"std,omitempty"`
	GroupOfOne     engine.GroupOfOne     `json:"group_of_one,omitempty"`
	ScorePrecision engine.ScorePrecision `json:"score_precision,omitempty"`
}

// methodSettingsOf returns the settings of o that o.Method reads.
func methodSettingsOf(o engine.Options) methodSettings {
	s := o.MethodSettings()
	m := methodSettings{Normalize: s.Normalize, Scale: s.Scale, Std: s.Std, GroupOfOne: s.GroupOfOne}
	if s.Epsilon != 0 {
		eps := number(s.Epsilon)
		m.Epsilon = &eps
	}
	if o.ScorePrecision == engine.ScoreFloat32 {
		m.ScorePrecision = o.ScorePrecision
	}
	return m
}

// text lists the settings set, as the table's first line has them:
// ", scale group, epsilon 1e-06, std sample, group of one score, score
// float32".
func (m methodSettings) text() string {
	var b strings.Builder
	if m.Normalize != nil {
		fmt.Fprintf(&b, ", normalize %v", *m.Normalize)
	}
	if m.Scale != "" {
		fmt.Fprintf(&b, ", scale %s", m.Scale)
	}
	if m.Epsilon != nil {
		fmt.Fprintf(&b, ", epsilon %s, std %s", strconv.FormatFloat(float64(*m.Epsilon), 'g', -1, 64), m.Std)
	}
	if m.GroupOfOne != "" {
		fmt.Fprintf(&b, ", group of one %s", m.GroupOfOne)
	}
	if m.ScorePrecision != "" {
		fmt.Fprintf(&b, ", score %s", m.ScorePrecision)
	}
	return b.String()
}

func newStatsReport(res *engine.Result, match *agreement.Match, rowCap scoring.RowCap) statsReport {
	r := statsReport{
		Method:         res.Options.Method,
		Scope:          res.Options.Scope,
		methodSettings: methodSettingsOf(res.Options),
		Invalid:        res.Evaluation.InvalidCounts(),

		missingColumn: res.Evaluation.Absent != nil,
	}
	for _, o := range res.Objectives {
		r.Objectives = append(r.Objectives, o.Name)
	}
	// The group the cap cut, found once when a batch's warning asks.
	var cut *agreement.CutGroup
	cutFound := false
	// Each objective's weight_by, the same in every batch (its weight is
	// the run's: engine.Evaluation.ObjectiveWeight), found at the first.
	var weightBys []string
	for _, st := range diagnose.Stats(res) {
		b := batchJSON{
			Batch: st.Step, Trajectories: st.Trajectories, Valid: st.Valid(), Invalid: st.Invalid,
			Groups: st.Groups, Fronts: st.Fronts, FrontierSize: st.FrontierSize,
			FracZeroStdGroups: number(st.FracZeroStdGroups),
			Score:             newSummaryJSON(st.Score),
			Reward:            newSummaryJSON(st.Reward),
		}
		for _, ss := range diagnose.SourceStatsOf(res, &res.Ranking.Batches[len(r.Batches)]) {
			sj := sourceJSON{Source: ss.Source, Trajectories: ss.Trajectories, Invalid: ss.Invalid, Score: newSummaryJSON(ss.Score), Reward: newSummaryJSON(ss.Reward)}
			for _, o := range ss.Objectives {
				sj.Objectives = append(sj.Objectives, newObjectiveJSON(o))
			}
			b.Sources = append(b.Sources, sj)
		}
		collapse, groups := diagnose.Collapse(res, &res.Ranking.Batches[len(r.Batches)])
		b.Collapse, b.CollapseGroups = number(collapse), groups
		if res.Evaluation.HasConstraints() {
			feasible := number(st.Feasible)
			b.Feasible = &feasible
			for c, def := range res.Evaluation.Constraints {
				b.Constraints = append(b.Constraints, constraintJSON{def.Expr, number(st.ConstraintFeasible[c])})
			}
		}
		if weightBys == nil {
			weightBys = make([]string, len(st.Objectives))
			for k, o := range st.Objectives {
				weightBys[k] = weightBy(res.Evaluation, k, o.Weight)
			}
		}
		for k, o := range st.Objectives {
			oj := newObjectiveJSON(o)
			oj.WeightBy = weightBys[k]
			b.Objectives = append(b.Objectives, oj)
		}
		for _, row := range st.Correlation {
			out := make([]number, len(row))
			for j, v := range row {
				out[j] = number(v)
			}
			b.Correlation = append(b.Correlation, out)
		}
		b.Logged = newLoggedJSON(res, &res.Ranking.Batches[len(r.Batches)])
		b.Agreement = newAgreementJSON(match, st.Step)
		if b.Agreement != nil { // its warning said of the group --max-rows cut, as on stderr
			if !cutFound {
				cut, cutFound = agreement.CutGroupOf(res, rowCap), true
			}
			b.Agreement.Warning = agreement.CutGroupWarning(b.Agreement.Warning, res, cut, &res.Ranking.Batches[len(r.Batches)])
		}
		r.Batches = append(r.Batches, b)
	}
	return r
}

// newLoggedJSON compares the rewards of batch b with the logged
// advantages; nil without them.
func newLoggedJSON(res *engine.Result, b *engine.Batch) *loggedJSON {
	c, ok := agreement.CompareLogged(res, b)
	if !ok {
		return nil
	}
	return &loggedJSON{c.Rows, number(c.MaxAbsDiff), number(c.MeanAbsDiff), c.Differing, agreement.Tolerance, c.TieResidueGroups, agreement.OverBatch(res.Options), c.Logged}
}

// newAgreementJSON is match's comparison of the batch of step; nil when
// match compared none (no logged advantage).
func newAgreementJSON(match *agreement.Match, step int64) *agreementJSON {
	c, found, ok := match.BatchFit(step)
	if !ok {
		return nil
	}
	a := &agreementJSON{Settings: match.Settings(), Rows: c.Rows, Differing: c.Differing, MaxAbsDiff: number(c.MaxAbsDiff), Warning: match.BatchWarning(step)}
	if found != nil {
		flags := strings.Join(found.Changes, " ")
		a.ReproducedBy = &flags
		a.ReproducedNote = match.BatchNote(step)
	}
	return a
}

// writeLogged prints a batch's comparison with the logged advantages, as
// the table of stats shows it, each line after indent.
func writeLogged(w io.Writer, indent string, logged *loggedJSON, agree *agreementJSON) error {
	if l := logged; l != nil {
		if _, err := fmt.Fprintf(w, "%sreward vs logged advantage: %d %s, max |diff| %s, mean |diff| %s, %d %s by more than %g\n", indent,
			l.Rows, english.Plural(l.Rows, "row"), tableNumber(float64(l.MaxAbsDiff)), tableNumber(float64(l.MeanAbsDiff)),
			l.Differing, english.Verb(l.Differing, "differs", "differ"), agreement.Tolerance); err != nil {
			return err
		}
		if g := l.TieResidueGroups; g > 0 {
			format := "%s%d whole %s of equal scores %s an equal non-zero logged advantage within torch's float32 residue of 0 (trained on; its value depends on torch's summation order): it agrees with their reward 0 here\n"
			if l.overBatch {
				format = "%s%d whole %s with a reward tied in float32 %s torch's float32 residue of its group's normalisation or baseline, which the batch's normalisation spreads to every row (trained on; its value depends on torch's summation order): the batch's logged advantages agree with its rewards here\n"
			}
			if _, err := fmt.Fprintf(w, format, indent, g, english.Plural(g, "group"), english.Verb(g, "carries", "carry")); err != nil {
				return err
			}
		}
	}
	if a := agree; a != nil && a.Warning != "" {
		if _, err := fmt.Fprintf(w, "%swarning: %s\n", indent, textsafe.Line(a.Warning)); err != nil {
			return err
		}
	}
	return nil
}

// writeStatsTable prints the report as aligned text, a block per batch.
func writeStatsTable(w io.Writer, r statsReport) error {
	fmt.Fprintf(w, "method %s, scope %s%s\n", r.Method, r.Scope, r.methodSettings.text())
	if len(r.Invalid) > 0 {
		fmt.Fprintf(w, "invalid trajectories: %s\n", describeCounts(r.Invalid, r.InvalidAt, r.invalidReason))
	}
	writePromptsSummary(w, r.Prompts)
	for _, b := range r.Batches {
		// Groups counts those with a valid trajectory: said so where a
		// group may have none.
		groups := english.Plural(b.Groups, "group")
		if b.Invalid > 0 {
			groups += " with a valid trajectory"
		}
		fmt.Fprintf(w, "\nbatch %d: %d %s (%d invalid), %d %s, %d %s, frontier %d, frac_zero_std_groups %s\n",
			b.Batch, b.Trajectories, english.Plural(b.Trajectories, "trajectory"), b.Invalid, b.Groups, groups,
			b.Fronts, english.Plural(b.Fronts, "front"), b.FrontierSize, tableNumber(float64(b.FracZeroStdGroups)))
		if err := writeSummaries(w, b.Objectives, b.Score, b.Reward, r.missingColumn); err != nil {
			return err
		}
		if err := writeCorrelation(w, r.Objectives, b.Correlation); err != nil {
			return err
		}
		writeStructure(w, b)
		if err := writeSources(w, b.Sources, r.missingColumn); err != nil {
			return err
		}
		if err := writeLogged(w, "", b.Logged, b.Agreement); err != nil {
			return err
		}
		writeBatchSignal(w, &b)
	}
	return writeHealthTable(w, r.Health, r.Objectives)
}

// writeSummaryRow prints a row of the summary table, missing the cells
// after the count (the missing column's, or none).
func writeSummaryRow(w io.Writer, name, goal string, s summaryJSON, missing ...string) {
	cells := append([]string{name, goal, strconv.Itoa(s.Count)}, missing...)
	for _, v := range []number{s.Mean, s.Std, s.Min, s.P25, s.Median, s.P75, s.Max} {
		cells = append(cells, tableNumber(float64(v)))
	}
	fmt.Fprintln(w, strings.Join(cells, "\t")+"\t")
}

// tableNames returns the names of the objectives as the stats tables
// call them: an objective named score or reward (verl's score) is
// objectives.score, as its CSV column is, beside the weighted score's and
// the reward's rows, whose names it would take.
func tableNames(names []string) []string {
	return csvObjectiveColumns([]string{"score", "reward"}, names)
}

func writeCorrelation(w io.Writer, names []string, corr [][]number) error {
	if len(names) < 2 {
		return nil
	}
	names = tableNames(names)
	if corr == nil {
		_, err := fmt.Fprintf(w, "correlation (Pearson): not computed for more than %d objectives (%d)\n", diagnose.MaxCorrelationObjectives, len(names))
		return err
	}
	fmt.Fprintln(w, "correlation (Pearson)")
	tw := newColumnWriter(w, true)
	header := []string{""}
	for _, n := range names {
		header = append(header, textsafe.Line(n))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for i, row := range corr {
		cells := []string{textsafe.Line(names[i])}
		for _, v := range row {
			cells = append(cells, correlationNumber(float64(v)))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tw.Flush()
}

// correlationNumber prints a correlation, in [-1, 1], with 4 decimals
// always, so that the matrix's columns align (tableNumber's exponent for
// a small one widened them); NaN as "NaN". One that rounds to 0 at 4
// decimals reads 0.0000, never -0.0000.
func correlationNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.Abs(x) < 5e-5:
		x = 0
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// tableNumber prints x with 4 decimals (or an exponent when that would
// hide it), NaN as "NaN"; rounding noise below 1e-12 prints as 0.
func tableNumber(x float64) string {
	switch {
	case math.Abs(x) < 1e-12:
		x = 0
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 0):
		return strconv.FormatFloat(x, 'f', -1, 64)
	case x != 0 && (math.Abs(x) >= 1e6 || math.Abs(x) < 1e-3):
		return strconv.FormatFloat(x, 'e', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// writeStructure prints a batch's collapse diagnostic and, with
// constraints, its feasible shares.
func writeStructure(w io.Writer, b batchJSON) {
	fmt.Fprintf(w, "collapse %s: of %d %s of distinct objective vectors, the share where distinct vectors get identical rewards\n",
		tableNumber(float64(b.Collapse)), b.CollapseGroups, english.Plural(b.CollapseGroups, "group"))
	if b.Feasible == nil {
		return
	}
	parts := make([]string, len(b.Constraints))
	for c, x := range b.Constraints {
		parts[c] = textsafe.Line(x.Expr) + " " + tableNumber(float64(x.Feasible))
	}
	fmt.Fprintf(w, "feasible %s (%s)\n", tableNumber(float64(*b.Feasible)), strings.Join(parts, ", "))
}

// writeSources prints a batch's statistics by source.
func writeSources(w io.Writer, sources []sourceJSON, missingColumn bool) error {
	for _, src := range sources {
		fmt.Fprintf(w, "source %s: %d %s (%d invalid)\n", textsafe.Line(src.Source), src.Trajectories, english.Plural(src.Trajectories, "trajectory"), src.Invalid)
		if err := writeSummaries(w, src.Objectives, src.Score, src.Reward, missingColumn); err != nil {
			return err
		}
	}
	return nil
}

// writeSummaries prints the summary table of the objectives, the scores
// and the rewards, aligned; with missingColumn, the objectives' missing
// counts after their count (blank for the score and the reward, which
// are never missing).
func writeSummaries(w io.Writer, objectives []objectiveJSON, score, reward summaryJSON, missingColumn bool) error {
	tw := newColumnWriter(w, true)
	header, blank := "\tgoal\tcount\tmean\tstd\tmin\tp25\tmedian\tp75\tmax\t", []string(nil)
	if missingColumn {
		header, blank = "\tgoal\tcount\tmissing\tmean\tstd\tmin\tp25\tmedian\tp75\tmax\t", []string{""}
	}
	fmt.Fprintln(tw, header)
	names := make([]string, len(objectives))
	for k, o := range objectives {
		names[k] = o.Name
	}
	names = tableNames(names)
	for k, o := range objectives {
		missing := blank
		if missingColumn {
			missing = []string{strconv.Itoa(o.Missing)}
		}
		writeSummaryRow(tw, textsafe.Line(names[k]), o.Goal, o.summaryJSON, missing...)
	}
	writeSummaryRow(tw, "score", "", score, blank...)
	writeSummaryRow(tw, "reward", "", reward, blank...)
	return tw.Flush()
}
