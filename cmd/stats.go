package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
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
			report := newStatsReport(res, p.check.Logged)
			report.InvalidAt = p.invalidAt
			report.addPrompts(res, p)
			if p.columns != nil {
				// The correlations are with the task metric, when it is
				// an objective.
				health.task = p.columns.TaskName
			}
			if report.Health, err = health.report(res, healthDeadSignal(p)); err != nil {
				return err
			}
			err = writeOutput(cmd.Context(), out, args, stdio.Stdout, func(w io.Writer) error {
				if format == "json" {
					text, err := json.MarshalIndent(report, "", "  ")
					if err != nil {
						return err
					}
					_, err = w.Write(append(output.SafeJSON(text), '\n'))
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
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json (not given: json for an --out ending .json)")
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

type objectiveJSON struct {
	Name   string `json:"name"`
	Goal   string `json:"goal"`
	Weight number `json:"weight"`
	summaryJSON
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
	Warning      string  `json:"warning,omitempty"`
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
}

// statsReport is the output of stats.
type statsReport struct {
	Method     engine.Method  `json:"method"`
	Scope      engine.Scope   `json:"scope"`
	Normalize  bool           `json:"normalize"`
	Objectives []string       `json:"objectives"`
	Invalid    map[string]int `json:"invalid"`
	// InvalidAt is where the first trajectory invalid for each cause was
	// read ("file:line").
	InvalidAt map[string]string `json:"invalid_at,omitempty"`
	Prompts   *promptsJSON      `json:"prompts,omitempty"`
	Batches   []batchJSON       `json:"batches"`
	Health    *healthReport     `json:"health,omitempty"`
}

func newStatsReport(res *engine.Result, match *agreement.Match) statsReport {
	r := statsReport{
		Method:    res.Options.Method,
		Scope:     res.Options.Scope,
		Normalize: res.Options.Normalize,
		Invalid:   res.Evaluation.InvalidCounts(),
	}
	for _, o := range res.Objectives {
		r.Objectives = append(r.Objectives, o.Name)
	}
	for _, st := range diagnose.Stats(res) {
		b := batchJSON{
			Batch: st.Step, Trajectories: st.Trajectories, Valid: st.Trajectories - st.Invalid, Invalid: st.Invalid,
			Groups: st.Groups, Fronts: st.Fronts, FrontierSize: st.FrontierSize,
			FracZeroStdGroups: number(st.FracZeroStdGroups),
			Score:             newSummaryJSON(st.Score),
			Reward:            newSummaryJSON(st.Reward),
		}
		for _, ss := range diagnose.SourceStatsOf(res, &res.Ranking.Batches[len(r.Batches)]) {
			sj := sourceJSON{Source: ss.Source, Trajectories: ss.Trajectories, Invalid: ss.Invalid, Score: newSummaryJSON(ss.Score), Reward: newSummaryJSON(ss.Reward)}
			for _, o := range ss.Objectives {
				sj.Objectives = append(sj.Objectives, objectiveJSON{o.Name, string(o.Goal), number(o.Weight), newSummaryJSON(o.Summary)})
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
		for _, o := range st.Objectives {
			b.Objectives = append(b.Objectives, objectiveJSON{o.Name, string(o.Goal), number(o.Weight), newSummaryJSON(o.Summary)})
		}
		for _, row := range st.Correlation {
			out := make([]number, len(row))
			for j, v := range row {
				out[j] = number(v)
			}
			b.Correlation = append(b.Correlation, out)
		}
		if c, ok := agreement.CompareLogged(res, &res.Ranking.Batches[len(r.Batches)]); ok {
			b.Logged = &loggedJSON{c.Rows, number(c.MaxAbsDiff), number(c.MeanAbsDiff), c.Differing, agreement.Tolerance}
		}
		if c, found, ok := match.BatchFit(st.Step); ok {
			b.Agreement = &agreementJSON{Settings: match.Settings(), Rows: c.Rows, Differing: c.Differing, MaxAbsDiff: number(c.MaxAbsDiff), Warning: match.BatchWarning(st.Step)}
			if found != nil {
				flags := strings.Join(found.Changes, " ")
				b.Agreement.ReproducedBy = &flags
			}
		}
		r.Batches = append(r.Batches, b)
	}
	return r
}

// writeStatsTable prints the report as aligned text, a block per batch.
func writeStatsTable(w io.Writer, r statsReport) error {
	fmt.Fprintf(w, "method %s, scope %s, normalize %v\n", r.Method, r.Scope, r.Normalize)
	if len(r.Invalid) > 0 {
		fmt.Fprintf(w, "invalid trajectories: %s\n", describeCounts(r.Invalid, r.InvalidAt))
	}
	writePromptsSummary(w, r.Prompts)
	for _, b := range r.Batches {
		fmt.Fprintf(w, "\nbatch %d: %d %s (%d invalid), %d %s, %d %s, frontier %d, frac_zero_std_groups %s\n",
			b.Batch, b.Trajectories, english.Plural(b.Trajectories, "trajectory"), b.Invalid, b.Groups, english.Plural(b.Groups, "group"),
			b.Fronts, english.Plural(b.Fronts, "front"), b.FrontierSize, tableNumber(float64(b.FracZeroStdGroups)))
		if err := writeSummaries(w, b.Objectives, b.Score, b.Reward); err != nil {
			return err
		}
		if err := writeCorrelation(w, r.Objectives, b.Correlation); err != nil {
			return err
		}
		writeStructure(w, b)
		if err := writeSources(w, b.Sources); err != nil {
			return err
		}
		if l := b.Logged; l != nil {
			fmt.Fprintf(w, "reward vs logged advantage: %d %s, max |diff| %s, mean |diff| %s, %d %s by more than %g\n",
				l.Rows, english.Plural(l.Rows, "row"), tableNumber(float64(l.MaxAbsDiff)), tableNumber(float64(l.MeanAbsDiff)),
				l.Differing, english.Verb(l.Differing, "differs", "differ"), agreement.Tolerance)
		}
		if a := b.Agreement; a != nil && a.Warning != "" {
			fmt.Fprintf(w, "warning: %s\n", textsafe.Line(a.Warning))
		}
		writeBatchSignal(w, &b)
	}
	return writeHealthTable(w, r.Health, r.Objectives)
}

func writeSummaryRow(w io.Writer, name, goal string, s summaryJSON) {
	cells := []string{name, goal, strconv.Itoa(s.Count)}
	for _, v := range []number{s.Mean, s.Std, s.Min, s.P25, s.Median, s.P75, s.Max} {
		cells = append(cells, tableNumber(float64(v)))
	}
	fmt.Fprintln(w, strings.Join(cells, "\t")+"\t")
}

func writeCorrelation(w io.Writer, names []string, corr [][]number) error {
	if len(names) < 2 {
		return nil
	}
	if corr == nil {
		_, err := fmt.Fprintf(w, "correlation (Pearson): not computed for more than %d objectives (%d)\n", diagnose.MaxCorrelationObjectives, len(names))
		return err
	}
	fmt.Fprintln(w, "correlation (Pearson)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := []string{""}
	for _, n := range names {
		header = append(header, textsafe.Line(n))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for i, row := range corr {
		cells := []string{textsafe.Line(names[i])}
		for _, v := range row {
			cells = append(cells, tableNumber(float64(v)))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tw.Flush()
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
func writeSources(w io.Writer, sources []sourceJSON) error {
	for _, src := range sources {
		fmt.Fprintf(w, "source %s: %d %s (%d invalid)\n", textsafe.Line(src.Source), src.Trajectories, english.Plural(src.Trajectories, "trajectory"), src.Invalid)
		if err := writeSummaries(w, src.Objectives, src.Score, src.Reward); err != nil {
			return err
		}
	}
	return nil
}

// writeSummaries prints the summary table of the objectives, the scores
// and the rewards, aligned.
func writeSummaries(w io.Writer, objectives []objectiveJSON, score, reward summaryJSON) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tgoal\tcount\tmean\tstd\tmin\tp25\tmedian\tp75\tmax\t")
	for _, o := range objectives {
		writeSummaryRow(tw, textsafe.Line(o.Name), o.Goal, o.summaryJSON)
	}
	writeSummaryRow(tw, "score", "", score)
	writeSummaryRow(tw, "reward", "", reward)
	return tw.Flush()
}
