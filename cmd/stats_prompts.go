package cmd

import (
	"fmt"
	"io"
	"strconv"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/prompts"
)

// promptsJSON is what stats says of the prompts across the run.
type promptsJSON struct {
	TaskMetric    string                `json:"task_metric"`
	PassThreshold number                `json:"pass_threshold"`
	Prompts       int                   `json:"prompts"`
	Statuses      []prompts.StatusCount `json:"statuses"`
	WithoutMetric int                   `json:"without_metric"`
}

// deadSignalJSON is diagnose.DeadSignal.
type deadSignalJSON struct {
	Groups            int    `json:"groups"`
	ZeroSpread        int    `json:"zero_spread"`
	ZeroAllPass       int    `json:"zero_spread_all_pass"`
	ZeroAllFail       int    `json:"zero_spread_all_fail"`
	ZeroOther         int    `json:"zero_spread_other"`
	Phantom           int    `json:"phantom"`
	PassRate          number `json:"pass_rate"`
	DeadShare         number `json:"dead_share"`
	ExpectedDeadShare number `json:"expected_dead_share"`
	PhantomShare      number `json:"phantom_share"`
}

func newDeadSignalJSON(d diagnose.DeadSignal) *deadSignalJSON {
	return &deadSignalJSON{d.Groups, d.ZeroSpread, d.ZeroAllPass, d.ZeroAllFail, d.ZeroOther, d.Phantom,
		number(d.PassRate), number(d.DeadShare), number(d.ExpectedDeadShare), number(d.PhantomShare)}
}

// filterJSON is prompts.FilterStep.
type filterJSON struct {
	Objective      string `json:"objective"`
	KeptGroups     int    `json:"kept_groups"`
	DroppedGroups  int    `json:"dropped_groups"`
	EffectiveBatch int    `json:"effective_batch"`
}

// addPrompts adds to r what the prompts' columns and the group filter
// say: the status counts, and per batch the dead signal and what the
// filter kept.
func (r *statsReport) addPrompts(res *engine.Result, p *prepared) {
	if c := p.columns; c != nil {
		a := c.Analyze(res)
		r.Prompts = &promptsJSON{TaskMetric: c.TaskName, PassThreshold: number(c.Threshold), Prompts: len(a.Prompts), Statuses: a.Counts(), WithoutMetric: a.WithoutMetric}
		for bi := range r.Batches {
			r.Batches[bi].DeadSignal = newDeadSignalJSON(diagnose.DeadSignalOf(res, &res.Ranking.Batches[bi], c.Task, c.Threshold))
		}
	}
	if f := p.filter; f != nil {
		for bi, st := range f.Steps {
			r.Batches[bi].Filter = &filterJSON{p.cfg.FilterGroups, st.Kept, st.Dropped, st.EffectiveBatch}
		}
	}
}

// writePromptsSummary prints the prompts' statuses under the header of
// stats' table.
func writePromptsSummary(w io.Writer, p *promptsJSON) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "task metric %s, a completion passes at >= %s; %d %s: %s\n", textsafe.Line(p.TaskMetric),
		strconv.FormatFloat(float64(p.PassThreshold), 'g', -1, 64), p.Prompts, english.Plural(p.Prompts, "prompt"), describeStatuses(p.Statuses))
	if p.WithoutMetric > 0 {
		fmt.Fprintf(w, "%d %s without the task metric at any step\n", p.WithoutMetric, english.Plural(p.WithoutMetric, "prompt"))
	}
}

// writeBatchSignal prints a batch's dead signal and what the filter kept.
func writeBatchSignal(w io.Writer, b *batchJSON) {
	if d := b.DeadSignal; d != nil {
		fmt.Fprintln(w, deadSignalLine(d))
	}
	if f := b.Filter; f != nil {
		fmt.Fprintf(w, "filter-groups %s: kept %d %s, dropped %d, effective batch %d of %d\n",
			textsafe.Line(f.Objective), f.KeptGroups, english.Plural(f.KeptGroups, "group"), f.DroppedGroups, f.EffectiveBatch, b.Trajectories)
	}
}

// deadSignalLine is a batch's dead signal as stats and stats --follow
// print it.
func deadSignalLine(d *deadSignalJSON) string {
	return fmt.Sprintf("dead signal: %d zero-spread %s (%d all-pass, %d all-fail, %d other), %d phantom; all pass or all fail %s, independent sampling at pass rate %s: %s",
		d.ZeroSpread, english.Plural(d.ZeroSpread, "group"), d.ZeroAllPass, d.ZeroAllFail, d.ZeroOther, d.Phantom,
		tableNumber(float64(d.DeadShare)), tableNumber(float64(d.PassRate)), tableNumber(float64(d.ExpectedDeadShare)))
}

// healthDeadSignal returns what adds the dead signal to the health
// trends, so that dead_signal and phantom_signal run: nothing without
// the prompts' columns, nor when the task metric is the first objective
// by default: with several objectives the others vary the score by
// design, which is no shaping.
func healthDeadSignal(p *prepared) func(*engine.Result, []diagnose.Trend) {
	c := p.columns
	if c == nil || p.cfg.TaskMetric == "" {
		return nil
	}
	return func(res *engine.Result, trends []diagnose.Trend) {
		diagnose.AddDeadSignal(res, trends, c.Task, c.Threshold)
	}
}
