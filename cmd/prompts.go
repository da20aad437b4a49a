package cmd

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/prompts"
)

// Setting names of the prompts' analysis, as errors name them.
const (
	promptBySetting   = "prompt_by"
	taskMetricSetting = "task_metric"
)

// promptColumns are what the prompts' analysis and the dead signal read
// of each trajectory besides its evaluation: the prompt it answers and its
// task metric. Where the prompt is the group and the task metric an
// objective, nothing is read of the records.
type promptColumns struct {
	// promptExpr is nil when the prompt is the group.
	promptExpr *engine.Expression
	// taskExpr is nil when the task metric is objective taskObjective.
	taskExpr      *engine.Expression
	taskObjective int
	// taskName is the task metric as the user or the layout named it (the
	// objective's name, or the expression).
	taskName  string
	threshold float64

	keys *prompts.Keys
	task []float64
}

// newPromptColumns compiles cfg's prompt and task metric expressions, the
// scorer's objectives being known: a task metric that names an objective
// is that objective's raw value, otherwise it is an expression; "" is the
// first objective. A prompt expression that is cfg's group expression is
// the group.
func newPromptColumns(cfg engine.Config, objectives []engine.Objective) (*promptColumns, error) {
	c := &promptColumns{threshold: 1, taskName: cmp.Or(cfg.TaskMetric, objectives[0].Name)}
	if cfg.PassThreshold != nil {
		c.threshold = *cfg.PassThreshold
	}
	if math.IsNaN(c.threshold) || math.IsInf(c.threshold, 0) {
		return nil, usagef("--pass-threshold %v: want a finite number", c.threshold)
	}
	if cfg.PromptBy != "" && cfg.PromptBy != cfg.GroupBy {
		e, err := engine.CompileExpression(promptBySetting, cfg.PromptBy)
		if err != nil {
			return nil, inputError{err}
		}
		c.promptExpr, c.keys = e, &prompts.Keys{}
	}
	c.taskObjective = slices.IndexFunc(objectives, func(o engine.Objective) bool { return o.Name == c.taskName })
	if c.taskObjective < 0 {
		e, err := engine.CompileExpression(taskMetricSetting, c.taskName)
		if err != nil {
			return nil, inputError{err}
		}
		c.taskExpr = e
	}
	return c, nil
}

// readsRecords reports whether c evaluates expressions on the records,
// which then must come whole (not picked).
func (c *promptColumns) readsRecords() bool {
	return c != nil && (c.promptExpr != nil || c.taskExpr != nil)
}

// add reads the prompt and the task metric of ts, which follow the
// trajectories added before. A prompt that cannot be read is the error
// "PATH:LINE: prompt_by EXPR: why"; a task metric that cannot, NaN (that
// completion is left out of the pass rates).
func (c *promptColumns) add(ts []engine.Trajectory) error {
	if c == nil {
		return nil
	}
	for i := range ts {
		t := &ts[i]
		if c.promptExpr != nil {
			key, err := c.promptExpr.Text(t)
			if err != nil {
				return fmt.Errorf("%s:%d: %s %q: %w", t.Source, t.Line, promptBySetting, c.promptExpr.Source, err)
			}
			c.keys.Add(key)
		}
		if c.taskExpr != nil {
			x, err := c.taskExpr.Eval(t)
			if err != nil {
				x = math.NaN()
			}
			c.task = append(c.task, x)
		}
	}
	return nil
}

// finish completes the columns from the evaluation ev: the groups as the
// prompts, the objective as the task metric.
func (c *promptColumns) finish(ev *engine.Evaluation) {
	if c == nil {
		return
	}
	if c.promptExpr == nil {
		c.keys = prompts.GroupKeys(ev)
	}
	if c.taskExpr == nil {
		c.task = make([]float64, ev.N())
		for i := range c.task {
			c.task[i] = ev.Values[i*ev.M+c.taskObjective]
			if ev.Absent != nil && ev.Absent[i*ev.M+c.taskObjective] {
				c.task[i] = math.NaN() // missing, counted 0 by nansum
			}
		}
	}
}

// check fails when no trajectory has the task metric, naming the fields
// nearest to it (fields, the inputs' first records').
func (c *promptColumns) check(fields []string) error {
	if c == nil {
		return nil
	}
	for _, x := range c.task {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return nil
		}
	}
	if len(c.task) == 0 {
		return nil
	}
	hint := didYouMean(c.taskName, fields)
	if hint == "" && len(fields) > 0 && len(fields) <= maxFieldsListed {
		hint = "; the records have " + strings.Join(fields, ", ")
	}
	return inputError{fmt.Errorf("task metric %q: no trajectory has it as a finite number%s (give --task-metric NAME or EXPR)", c.taskName, hint)}
}

// maxFieldsListed is how many field names an error lists at most.
const maxFieldsListed = 20

// didYouMean returns "; did you mean X?" with the candidates nearest to
// the identifiers of expr that are none of them, "" when none is near.
func didYouMean(expr string, fields []string) string {
	var near []string
	for _, word := range strings.FieldsFunc(expr, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if slices.Contains(fields, word) {
			continue
		}
		for _, s := range engine.Suggest(word, fields) {
			if !slices.Contains(near, s) {
				near = append(near, s)
			}
		}
	}
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(near, " or ") + "?"
}

// filterGroups applies --filter-groups to res: the rewards are those of
// the groups kept, computed without the others, and 0 for the dropped
// ones.
func (p *prepared) filterGroups(res *engine.Result) error {
	name := p.cfg.FilterGroups
	if name == "" {
		return nil
	}
	k := slices.IndexFunc(res.Objectives, func(o engine.Objective) bool { return o.Name == name })
	if k < 0 {
		names := make([]string, len(res.Objectives))
		for j, o := range res.Objectives {
			names[j] = o.Name
		}
		return usagef("--filter-groups %q: not an objective%s (objectives: %s)", name, didYouMean(name, names), strings.Join(names, ", "))
	}
	p.filter = prompts.FilterGroups(p.ev, k)
	res.Rewards = p.filter.Rewards(p.ev, res.Options)
	return nil
}

// reportFilter says on stderr how many groups --filter-groups dropped.
func reportFilter(w io.Writer, objective string, f *prompts.Filtered) {
	kept, dropped, effective, total := 0, 0, 0, 0
	for _, st := range f.Steps {
		kept += st.Kept
		dropped += st.Dropped
		effective += st.EffectiveBatch
		total += st.Trajectories
	}
	fmt.Fprintf(w, "rewardlens: --filter-groups %s: %d of %d %s dropped (zero spread of %s), %d of %d trajectories kept; a dropped one's reward is 0\n",
		textsafe.Line(objective), dropped, kept+dropped, plural(kept+dropped, "group"), textsafe.Line(objective), effective, total)
}

// notFiltered refuses --filter-groups (or the config's filter_groups)
// where it is not applied yet, rather than showing rewards it did not
// filter: the dashboard and stats --follow.
func notFiltered(cfg engine.Config, where string) error {
	if cfg.FilterGroups == "" {
		return nil
	}
	return usagef("--filter-groups %q: %s does not apply the group filter yet (compute and stats do)", cfg.FilterGroups, where)
}
