package prompts

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// The settings of the prompts' analysis, as errors name them.
const (
	PromptBySetting   = "prompt_by"
	TaskMetricSetting = "task_metric"
)

// DefaultPassThreshold is the task metric at or above which a completion
// passes by default.
const DefaultPassThreshold = 1.0

// Columns are what the analysis and the dead signal read of each
// trajectory besides its evaluation: the prompt it answers (Keys) and its
// task metric (Task, NaN where it is missing). Where the prompt is the
// group and the task metric an objective, nothing is read of the records;
// otherwise Add reads them, whole (not picked), as they are evaluated.
type Columns struct {
	Keys *Keys
	Task []float64
	// TaskName is the task metric as it was named: the objective's name,
	// or the expression.
	TaskName  string
	Threshold float64
	// NoDefaultTask says why there is no task metric ("" when there is
	// one): none was named and the first objective, the default, is not
	// an objective of every source (sourceLacking); its Task is then NaN
	// throughout.
	NoDefaultTask string

	// promptExpr is nil when the prompt is the group; taskExpr when the
	// task metric is objective taskObjective.
	promptExpr    *scoring.Expression
	taskExpr      *scoring.Expression
	taskObjective int
}

// ErrThreshold is the error of a pass threshold that is not a finite
// number.
var ErrThreshold = errors.New("the pass threshold must be a finite number")

// NewColumns compiles cfg's prompt (PromptBy) and task metric (TaskMetric)
// for a scorer of the objectives given: a task metric that names an
// objective is that objective's raw value, otherwise an expression; ""
// is the first objective, with sources only when every source has it
// (else NoDefaultTask says so). A prompt expression that is cfg's group
// expression, or "", is the group. The error is a *scoring.CompileError,
// or ErrThreshold.
func NewColumns(cfg setup.Config, objectives []scoring.Objective) (*Columns, error) {
	c := &Columns{Threshold: DefaultPassThreshold, TaskName: cmp.Or(cfg.TaskMetric, objectives[0].Name)}
	if cfg.TaskMetric == "" {
		if src, ok := sourceLacking(cfg, c.TaskName); ok {
			c.NoDefaultTask = fmt.Sprintf("no default task metric: the first objective %s is not one of source %s's", c.TaskName, src)
		}
	}
	if cfg.PassThreshold != nil {
		c.Threshold = *cfg.PassThreshold
	}
	if math.IsNaN(c.Threshold) || math.IsInf(c.Threshold, 0) {
		return nil, ErrThreshold
	}
	if cfg.PromptBy != "" && cfg.PromptBy != cfg.GroupBy {
		e, err := scoring.CompileExpression(PromptBySetting, cfg.PromptBy)
		if err != nil {
			return nil, err
		}
		c.promptExpr, c.Keys = e, &Keys{}
	}
	if c.NoDefaultTask != "" {
		c.taskObjective = -1
		return c, nil
	}
	c.taskObjective = slices.IndexFunc(objectives, func(o scoring.Objective) bool { return o.Name == c.TaskName })
	if c.taskObjective < 0 {
		e, err := scoring.CompileExpression(TaskMetricSetting, c.TaskName)
		if err != nil {
			return nil, err
		}
		c.taskExpr = e
	}
	return c, nil
}

// sourceLacking returns the first source, in the config's order, whose
// objectives lack the objective name (a source without a section of cfg
// has the top-level objectives, "(other)" when they lack it): grading its
// trajectories by it would read the 0 the engine holds for an objective a
// source lacks as a failed task. ok is false without sources.
func sourceLacking(cfg setup.Config, name string) (source string, ok bool) {
	has := func(objectives []setup.ObjectiveConfig) bool {
		return slices.ContainsFunc(objectives, func(o setup.ObjectiveConfig) bool { return o.Name == name })
	}
	for _, src := range cfg.SourceNames() {
		if !has(cfg.Sources[src].Objectives) {
			return src, true
		}
	}
	if len(cfg.Sources) > 0 && len(cfg.Objectives) > 0 && !has(cfg.Objectives) {
		return "(other)", true
	}
	return "", false
}

// ReadsRecords reports whether Add evaluates expressions on the records,
// which then must come whole (not picked).
func (c *Columns) ReadsRecords() bool {
	return c.promptExpr != nil || c.taskExpr != nil
}

// Add reads the prompt and the task metric of ts, which follow the
// trajectories added before. A prompt that cannot be read is the error
// "PATH:LINE: prompt_by EXPR: why"; a task metric that cannot is NaN (that
// completion is left out of the pass rates). Add is not safe for
// concurrent use.
func (c *Columns) Add(ts []scoring.Trajectory) error {
	for i := range ts {
		t := &ts[i]
		if c.promptExpr != nil {
			key, err := c.promptExpr.Text(t)
			if err != nil {
				return c.promptError(t, err)
			}
			c.Keys.Add(key)
		}
		if c.taskExpr != nil {
			x, err := c.taskExpr.Eval(t)
			if err != nil {
				x = math.NaN()
			}
			c.Task = append(c.Task, x)
		}
	}
	return nil
}

// PromptError is a prompt that cannot be read of a record: the error
// "PATH:LINE: prompt_by EXPR: why". First says the record is the first the
// columns read, Absent names the fields the expression reads that the
// record lacks, Has the record's (scoring.FieldNames): on the first
// record, a field it lacks is likely misnamed, the setting's fault rather
// than the record's.
type PromptError struct {
	Where  string
	Expr   string
	First  bool
	Absent []string
	Has    []string
	Err    error
}

func (e *PromptError) Error() string {
	return fmt.Sprintf("%s: %s %q: %v", e.Where, PromptBySetting, e.Expr, e.Err)
}

func (e *PromptError) Unwrap() error { return e.Err }

// promptError is the PromptError of the prompt expression on t.
func (c *Columns) promptError(t *scoring.Trajectory, err error) *PromptError {
	e := &PromptError{Where: t.Where(), Expr: c.promptExpr.Source, First: len(c.Keys.Of) == 0, Has: scoring.FieldNames(t), Err: err}
	for _, f := range c.promptExpr.FieldsRead() {
		if !slices.Contains(e.Has, f) {
			e.Absent = append(e.Absent, f)
		}
	}
	return e
}

// DeleteFunc removes the rows for which drop holds from the columns read
// of the records (Add), the others kept in their order: those of the
// files a follower reads again, whose trajectories leave the evaluation
// (live.Evaluation.Update). The columns that Finish fills it fills again. The
// columns are replaced, not written into: a slice taken of them before
// stays as it was.
func (c *Columns) DeleteFunc(drop func(i int) bool) {
	if c.taskExpr != nil {
		task := make([]float64, 0, len(c.Task))
		for i, x := range c.Task {
			if !drop(i) {
				task = append(task, x)
			}
		}
		c.Task = task
	}
	if c.promptExpr != nil {
		// Added again, so that a prompt whose rows all left has no name.
		old := c.Keys
		c.Keys = &Keys{}
		for i, k := range old.Of {
			if !drop(i) {
				c.Keys.Add(old.Names[k])
			}
		}
	}
}

// Finish completes the columns from the evaluation of the trajectories
// added: the groups as the prompts, the objective's raw values as the task
// metric (NaN where nansum counted a missing one 0, and where the
// trajectory's source lacks the objective: the engine holds 0 there).
// Without a task metric (NoDefaultTask), it is NaN throughout.
func (c *Columns) Finish(ev *engine.Evaluation) {
	if c.promptExpr == nil {
		c.Keys = GroupKeys(ev)
	}
	c.FinishTask(ev)
}

// FinishTask is Finish without the prompts: for what reads only the task
// metric (the dead signal).
func (c *Columns) FinishTask(ev *engine.Evaluation) {
	if c.taskExpr == nil {
		c.Task = make([]float64, ev.N())
		for i := range c.Task {
			if c.taskObjective < 0 || !ev.HasObjective(i, c.taskObjective) || ev.Missing(i, c.taskObjective) {
				c.Task[i] = math.NaN()
				continue
			}
			c.Task[i] = ev.Values[i*ev.M+c.taskObjective]
		}
	}
}

// HasTask reports whether some trajectory has the task metric as a finite
// number (true when there is no trajectory).
func (c *Columns) HasTask() bool {
	for _, x := range c.Task {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return true
		}
	}
	return len(c.Task) == 0
}

// Analyze is Analyze on the columns, for res computed from the
// trajectories added.
func (c *Columns) Analyze(res *engine.Result) Analysis {
	return Analyze(res, c.Task, c.Keys, c.Threshold)
}
