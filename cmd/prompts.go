package cmd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/suggest"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/prompts"
)

// newPromptColumns is prompts.NewColumns with the CLI's errors: a
// threshold that is no number is the user's (exit status 2), and so is an
// expression that does not compile (a *scoring.CompileError); either is
// said at its line when the value is file's, the --config file's.
func newPromptColumns(cfg setup.Config, objectives []scoring.Objective, file *configFile) (*promptColumns, error) {
	c, err := prompts.NewColumns(cfg, objectives)
	var compile *scoring.CompileError
	switch {
	case errors.Is(err, prompts.ErrThreshold) && file.uses(passThresholdKey):
		return nil, file.at(passThresholdKey, fmt.Errorf("%s %v: want a finite number", passThresholdKey, *cfg.PassThreshold))
	case errors.Is(err, prompts.ErrThreshold):
		return nil, usagef("--pass-threshold %v: want a finite number", *cfg.PassThreshold)
	case errors.As(err, &compile) && file.uses(compile.Name):
		return nil, file.at(compile.Name, err)
	case err != nil:
		return nil, inputError{err}
	}
	return &promptColumns{c, file}, nil
}

// promptColumns are the prompts' columns of the trajectories of a
// command that asked for them; its methods take a nil one for none.
type promptColumns struct {
	*prompts.Columns
	file *configFile
}

func (c *promptColumns) readsRecords() bool { return c != nil && c.ReadsRecords() }

// add reads the prompts and task metrics of ts. A prompt expression that
// reads a field the first record lacks is said as the setting's mistake,
// with the fields near it: at its line when it is file's, the --config
// file's, else as --prompt-by's.
func (c *promptColumns) add(ts []scoring.Trajectory) error {
	if c == nil {
		return nil
	}
	err := c.Add(ts)
	var bad *prompts.PromptError
	if !errors.As(err, &bad) || !bad.First || len(bad.Absent) == 0 {
		return err
	}
	why := fmt.Sprintf("%q: the first record (%s) has no field %s%s", bad.Expr, bad.Where, english.List(bad.Absent), fieldHint(bad.Expr, bad.Has))
	if c.file.uses(prompts.PromptBySetting) {
		return c.file.at(prompts.PromptBySetting, errors.New(prompts.PromptBySetting+" "+why))
	}
	return usagef("--prompt-by %s", why)
}

func (c *promptColumns) finish(ev *engine.Evaluation) {
	if c != nil {
		c.Finish(ev)
	}
}

// check fails when there is no task metric (NoDefaultTask), or when no
// trajectory has it, naming the fields
// nearest to it (fields, the inputs' first records'); at its line when
// it is file's, the --config file's.
func (c *promptColumns) check(fields []string, file *configFile) error {
	if c == nil {
		return nil
	}
	if c.NoDefaultTask != "" {
		return inputError{fmt.Errorf("%s (give --task-metric NAME or EXPR)", c.NoDefaultTask)}
	}
	if c.HasTask() {
		return nil
	}
	if file.uses(prompts.TaskMetricSetting) && file.Config.TaskMetric == c.TaskName {
		return file.at(prompts.TaskMetricSetting, fmt.Errorf("%s %q: no trajectory has it as a finite number%s", prompts.TaskMetricSetting, c.TaskName, fieldHint(c.TaskName, fields)))
	}
	return inputError{fmt.Errorf("task metric %q: no trajectory has it as a finite number%s (give --task-metric NAME or EXPR)", c.TaskName, fieldHint(c.TaskName, fields))}
}

// fieldHint is what an error about expr, which reads a field the records
// lack, adds: "; did you mean X?" (didYouMean), else "; the records have
// A, B" (suggest.Fields).
func fieldHint(expr string, fields []string) string {
	if hint := didYouMean(expr, fields); hint != "" {
		return hint
	}
	return suggest.Fields("the records have", fields)
}

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
		for _, s := range suggest.Near(word, fields) {
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
	k, err := prompts.FilterObjective(res.Objectives, name)
	if err != nil {
		return p.file.filterObjectiveError(err)
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
	fmt.Fprintf(w, "rewardlens: --filter-groups %s: %d of %d %s dropped (zero spread of %s), %d of %d %s kept; a dropped one's reward is 0\n",
		textsafe.Line(objective), dropped, kept+dropped, english.Plural(kept+dropped, "group"), textsafe.Line(objective), effective, total, english.Plural(total, "trajectory"))
}

// The keys of --filter-groups and --pass-threshold in a config file.
const (
	filterGroupsKey  = "filter_groups"
	passThresholdKey = "pass_threshold"
)

// noValidAt is err, invalid.NoValid's, as the user's error (status 2):
// at the line of the expr of the config file's objective it blames for
// reading a field no record has (the first such cause), when the file
// sets the objectives.
func (f *configFile) noValidAt(err error) error {
	var causes []invalid.Cause
	var noValid *invalid.NoValidError
	var absent *invalid.AbsentFieldError
	switch {
	case !f.uses("objective"):
	case errors.As(err, &noValid):
		causes = noValid.Causes
	case errors.As(err, &absent):
		causes = absent.Causes
	}
	for _, c := range causes {
		if c.Objective != "" && len(c.Unseen) > 0 {
			if placed := f.ObjectiveAt(err, c.Objective); placed != nil {
				return inputError{placed}
			}
			break
		}
	}
	return inputError{err}
}

// filterObjectiveError is err, a --filter-groups that names no objective
// (prompts.NotAnObjectiveError), as the CLI says it: the user's (exit
// status 2), by the config file's key at its line when the file set it.
func (f *configFile) filterObjectiveError(err error) error {
	var notObjective *prompts.NotAnObjectiveError
	if !errors.As(err, &notObjective) {
		return err
	}
	if f.uses(filterGroupsKey) {
		said := *notObjective
		said.Setting = filterGroupsKey
		return f.at(filterGroupsKey, &said)
	}
	return usageError{err}
}

// notFiltered refuses --filter-groups (or the config's filter_groups, at
// its line in file) where it is not applied yet, rather than showing
// rewards it did not filter: stats --follow.
func notFiltered(cfg setup.Config, where string, file *configFile) error {
	if cfg.FilterGroups == "" {
		return nil
	}
	const why = "%s does not apply the group filter yet (compute, stats and the dashboard do)"
	if file.uses(filterGroupsKey) {
		return file.at(filterGroupsKey, fmt.Errorf("%s %q: "+why, filterGroupsKey, cfg.FilterGroups, where))
	}
	return usagef("--filter-groups %q: "+why, cfg.FilterGroups, where)
}
