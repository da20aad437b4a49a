// Package setup is the config of a reward computation (Config: a TOML
// config file's values or the CLI flags') and what builds its scorer: the
// scorer it names, the objectives, inferred from the first record when
// none is given, the sources' objectives and weights, and the record
// fields' expressions. It is below the engine, which turns a Config into
// a RewardComputer (engine.New, engine.OptionsOf: the options of the
// method) and never hands a Config's internals back: the scorer it builds
// is engine/scoring's.
package setup

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// Computer names a scorer.
type Computer string

// The scorers.
const (
	ComputerPareto Computer = "pareto"
	ComputerSVRL   Computer = "svrl"
)

// Computers lists every scorer.
var Computers = []Computer{ComputerPareto, ComputerSVRL}

// ParseComputer returns the scorer named s, or an error listing the valid names.
func ParseComputer(s string) (Computer, error) { return suggest.Parse("computer", s, Computers) }

// Defaults of the svrl scorer (docs/CONTRACT.md, Scorers).
const (
	defaultTask               = "metadata.accuracy"
	DefaultVerificationWeight = 0.1
	DefaultEfficiencyWeight   = 0.05
)

// loggedAdvantageSetting is the config key of the logged advantage's
// expression, named in its errors.
const loggedAdvantageSetting = "logged_advantage"

// ObjectiveConfig is one objective of a config file or of the flags.
type ObjectiveConfig struct {
	Name   string   `toml:"name" json:"name"`
	Expr   string   `toml:"expr" json:"expr"`
	Goal   string   `toml:"goal,omitempty" json:"goal,omitempty"`
	Weight *float64 `toml:"weight,omitempty" json:"weight,omitempty"`
}

// Config is everything that builds an engine.RewardComputer (engine.New):
// the values of a TOML config file or of the CLI flags. The zero value
// means every default.
type Config struct {
	Computer           string            `toml:"computer,omitempty"`
	Method             string            `toml:"method,omitempty"`
	Scope              string            `toml:"scope,omitempty"`
	Scale              string            `toml:"scale,omitempty"`
	Normalize          *bool             `toml:"normalize,omitempty"`
	Task               string            `toml:"task,omitempty"`
	VerificationWeight *float64          `toml:"verification_weight,omitempty"`
	EfficiencyWeight   *float64          `toml:"efficiency_weight,omitempty"`
	Objectives         []ObjectiveConfig `toml:"objective,omitempty"`
	// Minimize names objectives whose goal is min (the --minimize flag).
	Minimize []string `toml:"minimize,omitempty"`
	// Weights override objective weights by name (the --weight flag).
	Weights map[string]float64 `toml:"weights,omitempty"`
	// Epsilon is what grpo and gdpo add to the std (default 1e-4).
	Epsilon *float64 `toml:"epsilon,omitempty"`
	// Std is the std grpo and gdpo divide by: "sample" (default) or
	// "population" (open-instruct's "standard" advantage).
	Std string `toml:"std,omitempty"`
	// GroupOfOne is what grpo and rloo give a group of one: "zero"
	// (default) or "score" (verl).
	GroupOfOne string `toml:"group_of_one,omitempty"`
	// ScorePrecision is the arithmetic of the weighted score: "float64"
	// (default) or "float32" (TRL's, which its layout sets).
	ScorePrecision string `toml:"score_precision,omitempty"`
	// NanSum makes a missing or NaN objective add nothing to the score
	// (TRL's nansum over reward functions): see scoring.ParetoScorer.
	NanSum *bool `toml:"nansum,omitempty"`
	// GroupBy, BatchBy and IDBy derive a record's group, batch and ID by
	// expression (RecordFields); "" keeps the record's own.
	GroupBy string `toml:"group_by,omitempty"`
	BatchBy string `toml:"batch_by,omitempty"`
	IDBy    string `toml:"id_by,omitempty"`
	// LoggedAdvantage is an expression for the advantage the trainer
	// logged, compared with the rewards (engine.Evaluation.Logged).
	LoggedAdvantage string `toml:"logged_advantage,omitempty"`
	// MatchLogged computes with the trainer settings that reproduce the
	// logged advantage, when one does (agreement.CheckTrainer).
	MatchLogged *bool `toml:"match_logged,omitempty"`
	// Constraints are the constraint expressions (--constraint), Gates
	// the gates "NAME: EXPR" (--gate): scoring.WithStructure. Penalty is lambda
	// in score - lambda * violation (default 1).
	Constraints []string `toml:"constraint,omitempty"`
	Gates       []string `toml:"gate,omitempty"`
	Penalty     *float64 `toml:"penalty,omitempty"`
	// NormalizeObjectives is none (default), minmax, zscore or rank
	// (engine.ObjectiveNorm).
	NormalizeObjectives string `toml:"normalize_objectives,omitempty"`
	// Priority and PriorityTolerance are lexicographic's
	// (engine.Lexicographic).
	Priority          []string           `toml:"priority,omitempty"`
	PriorityTolerance map[string]float64 `toml:"priority_tolerance,omitempty"`
	// SourceBy gives each trajectory's source (verl's data_source), and
	// Sources each source's objectives and weights (sources.go).
	SourceBy string                  `toml:"source_by,omitempty"`
	Sources  map[string]SourceConfig `toml:"sources,omitempty"`
	// SourceOrder is the order the config file declares the sources in
	// (internal/configfile sets it from the TOML's keys): the columns
	// follow it (SourceNames). It is no config key.
	SourceOrder []string `toml:"-" json:"-"`
	// EqualGroups says that the groups of a batch should all be of one
	// size, as a trainer's are: a trainer's layout sets it, and
	// agreement.CheckTrainer warns of the batches where they are
	// not. It is no config key.
	EqualGroups bool `toml:"-"`
	// GroupRuns, when > 0, makes a comparison group of each run of
	// consecutive records of one batch and group value, cut every
	// GroupRuns records, as a trainer that groups by position does (TRL:
	// num_generations rows after another): TRL's layout sets it, and the
	// dashboard's saved settings keep it, which a layout does not
	// override. A batch's first run, once another run ends it, is cut
	// from its end (engine's Evaluator.cutFirstRuns). 0 groups by value.
	// Not with sources (CheckGroupRuns).
	GroupRuns int `toml:"group_runs,omitzero"`
	// PromptBy is an expression for the prompt a record answers, which
	// the prompts' analysis follows across steps ("" for the group).
	PromptBy string `toml:"prompt_by,omitempty"`
	// TaskMetric is the task metric: an objective's name or an
	// expression over the record ("" for the first objective).
	TaskMetric string `toml:"task_metric,omitempty"`
	// PassThreshold is the task metric at or above which a completion
	// passes (default 1).
	PassThreshold *float64 `toml:"pass_threshold,omitempty"`
	// PassThresholdLevels are the task metric's values above 0 that a
	// trainer's layout read PassThreshold from (open-instruct's reward
	// levels in the first file's first records; empty when none was above
	// 0), nil when no layout read it: the layout warns of a result with
	// another value above 0. It is no config key.
	PassThresholdLevels []float64 `toml:"-"`
	// FilterGroups names the objective by which DAPO's filter drops the
	// groups of zero spread before the rewards are computed ("" for no
	// filter). The CLI applies it; the engine does not read it.
	FilterGroups string `toml:"filter_groups,omitempty"`
	// From is the input layout: auto, verl, trl or plain. The rewards do
	// not read it: the CLI turns a layout into the settings above; the
	// trainer agreement reads it (engine.RewardComputer.Layout).
	From string `toml:"from,omitempty"`
	// PromptField and ResponseField name the metadata fields that hold
	// the prompt's and the completion's text in a trainer's layout
	// (verl's input and output, TRL's prompt and completion), which the
	// dashboard shows; "" for the record's own response. The CLI sets
	// them from the layout; they are no config key, and the engine does
	// not read them.
	PromptField   string `toml:"-"`
	ResponseField string `toml:"-"`
	// GroupKeyNote says what a group's key is where the layout groups by
	// a field that holds no prompt text (open-instruct's prompt_idx, a
	// slot of the step's batch), which the dashboard's group view shows
	// in the prompt's place: it says it after the key. "" for none; the
	// CLI sets it from the layout, unless --group-by is given. It is no
	// config key.
	GroupKeyNote string `toml:"-"`
	// StepCountBy is an expression for a record's step_count, which the
	// length-drift check and the mean step_count follow: a trainer's
	// layout sets it where the record's length is not a step_count
	// (open-instruct's jsonLen(response_tokens)); "" reads the record's
	// step_count. It is no config key.
	StepCountBy string `toml:"-"`
}

// InferObjectives returns cfg with, for the pareto scorer configured without
// objectives, one objective per metadata key whose value is a number in
// first (goal max, sorted key order), but for the keys that the record
// fields' expressions read (recordFieldKeys), as docs/CONTRACT.md, Scorers,
// says. Other configs are returned unchanged. It fails, naming first's
// record and what its metadata holds, when there is no such key.
func (cfg Config) InferObjectives(first *scoring.Trajectory) (Config, error) {
	if (cfg.Computer != "" && cfg.Computer != string(ComputerPareto)) || len(cfg.Objectives) > 0 || len(cfg.Sources) > 0 || first == nil {
		return cfg, nil
	}
	recordKeys := cfg.recordFieldKeys()
	keys := make([]string, 0, len(first.Metadata))
	for k, v := range first.Metadata {
		if _, ok := v.(float64); ok && !slices.Contains(recordKeys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return cfg, fmt.Errorf("%s: no objective to score: without --objective (or a config's objectives), each metadata value of the first record that is a number is one, and %s", first.Where(), describeMetadata(first.Metadata, recordKeys))
	}
	sort.Strings(keys)
	for _, k := range keys {
		cfg.Objectives = append(cfg.Objectives, ObjectiveConfig{Name: k, Expr: fmt.Sprintf("metadata[%q]", k)})
	}
	return cfg, nil
}

// InferredNote is the line that tells which objectives InferObjectives
// inferred for cfg (as configured, before it) and their goals, from
// inferred (its result); "" when it inferred none. Inferring every number
// of the first record, a length or a cost included, as an objective to
// maximise is probably not what was meant unless said.
func (cfg Config) InferredNote(inferred Config) string {
	if len(cfg.Objectives) > 0 || len(inferred.Objectives) == 0 {
		return ""
	}
	names := make([]string, len(inferred.Objectives))
	minimized := false
	for i, o := range inferred.Objectives {
		names[i] = o.Name
		if slices.Contains(inferred.Minimize, o.Name) {
			names[i] += " (min)"
			minimized = true
		}
	}
	goals := "all max"
	if minimized {
		goals = "the others max"
	}
	return fmt.Sprintf("objectives inferred from the first record: %s (%s: --objective or --minimize to choose)", strings.Join(names, ", "), goals)
}

// metadataNamed is how many of a record's metadata keys describeMetadata
// names.
const metadataNamed = 5

// describeMetadata says why metadata gives no objective: it has none, or
// its keys (the first metadataNamed, sorted, quoted) hold no number but
// those the record fields read (recordKeys), which it names.
func describeMetadata(metadata map[string]any, recordKeys []string) string {
	if len(metadata) == 0 {
		return "it has no metadata"
	}
	keys := slices.Sorted(maps.Keys(metadata))
	named := make([]string, 0, metadataNamed+1)
	for _, k := range keys[:min(len(keys), metadataNamed)] {
		named = append(named, strconv.Quote(k))
	}
	if len(keys) > metadataNamed {
		named = append(named, fmt.Sprintf("and %d more", len(keys)-metadataNamed))
	}
	why := "none is a number"
	if read := slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
		_, number := metadata[k].(float64)
		return !number || !slices.Contains(recordKeys, k)
	}); len(read) > 0 {
		why = fmt.Sprintf("none is a number but the fields read by %s, %s, %s, %s or %s, which are not inferred as objectives: %s",
			scoring.GroupBySetting, scoring.BatchBySetting, scoring.IDBySetting, scoring.PromptBySetting, loggedAdvantageSetting, strings.Join(read, ", "))
	}
	return fmt.Sprintf("its metadata (%s): %s", strings.Join(named, ", "), why)
}

// recordFieldKeys returns the names that the expressions of group_by,
// batch_by, id_by, prompt_by and logged_advantage read
// (sandbox.Program.FieldsRead), sorted, without repeats. They say where a
// record belongs, or what the trainer computed from it, not how good it
// is: --batch-by iteration must not make iteration an objective, nor
// --logged-advantage advantages make the trainer's own output one. An
// expression that does not compile reads none here; engine.New reports it.
func (cfg Config) recordFieldKeys() []string {
	var keys []string
	for _, c := range []struct{ setting, src string }{
		{scoring.GroupBySetting, cfg.GroupBy}, {scoring.BatchBySetting, cfg.BatchBy}, {scoring.IDBySetting, cfg.IDBy}, {scoring.PromptBySetting, cfg.PromptBy},
		{loggedAdvantageSetting, cfg.LoggedAdvantage},
	} {
		if c.src == "" {
			continue
		}
		if e, err := scoring.CompileExpression(c.setting, c.src); err == nil {
			keys = append(keys, e.FieldsRead()...)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// RecordFields returns what derives each record's group, batch, ID and
// step_count (GroupBy, BatchBy, IDBy, StepCountBy), nil when cfg sets
// none of them.
func (cfg Config) RecordFields() (*scoring.RecordFields, error) {
	f, err := scoring.NewRecordFields(cfg.GroupBy, cfg.BatchBy, cfg.IDBy)
	if err != nil {
		return nil, err
	}
	return f.WithStepCount(cfg.StepCountBy)
}

// Scorer builds the scorer cfg names, compiles its expressions and
// checks the objectives' names that --minimize and --weight give;
// without cfg's constraints and gates, which engine.New wraps it in once
// the priorities are checked against its objectives. A pareto config
// without objectives must first go through InferObjectives.
func (cfg Config) Scorer() (scoring.Scorer, error) {
	computer := ComputerPareto
	var scorer scoring.Scorer
	var err error
	if cfg.Computer != "" {
		if computer, err = ParseComputer(cfg.Computer); err != nil {
			return nil, err
		}
	}
	switch {
	case cfg.SourceBy != "" || len(cfg.Sources) > 0:
		if computer != ComputerPareto || cfg.SourceBy == "" {
			return nil, fmt.Errorf("sources need the pareto computer and %s, their expression", scoring.SourceBySetting)
		}
		scorer, err = cfg.newSourceScorer()
	case computer == ComputerSVRL:
		scorer, err = cfg.svrlScorer()
	default:
		scorer, err = cfg.paretoScorer()
	}
	if err != nil {
		return nil, err
	}
	if err := cfg.checkNames(scorer.Objectives()); err != nil {
		return nil, err
	}
	return scorer, nil
}

// Logged returns the compiled expression of the logged advantage
// (LoggedAdvantage), nil when cfg sets none.
func (cfg Config) Logged() (*scoring.Expression, error) {
	if cfg.LoggedAdvantage == "" {
		return nil, nil
	}
	return scoring.CompileExpression(loggedAdvantageSetting, cfg.LoggedAdvantage)
}

func (cfg Config) svrlScorer() (scoring.Scorer, error) {
	if len(cfg.Minimize) > 0 {
		return nil, fmt.Errorf("the svrl computer's goals are fixed: --minimize applies to pareto objectives")
	}
	if cfg.NanSum != nil && *cfg.NanSum {
		return nil, fmt.Errorf("nansum applies to pareto objectives, not to the svrl computer")
	}
	if len(cfg.Objectives) > 0 {
		return nil, fmt.Errorf("the svrl computer has fixed objectives (%s, %s, %s): use --task, not --objective",
			scoring.SVRLTask, scoring.SVRLVerificationCost, scoring.SVRLEfficiency)
	}
	task := cfg.Task
	if task == "" {
		task = defaultTask
	}
	vw, ew := DefaultVerificationWeight, DefaultEfficiencyWeight
	if cfg.VerificationWeight != nil {
		vw = *cfg.VerificationWeight
	}
	if cfg.EfficiencyWeight != nil {
		ew = *cfg.EfficiencyWeight
	}
	if err := notFinite("verification_weight", vw); err != nil {
		return nil, err
	}
	if err := notFinite("efficiency_weight", ew); err != nil {
		return nil, err
	}
	s, err := scoring.NewSVRLScorer(task, vw, ew)
	if err != nil {
		return nil, err
	}
	s.SetWeights(cfg.Weights)
	return s, nil
}

func (cfg Config) paretoScorer() (*scoring.ParetoScorer, error) {
	if cfg.Task != "" || cfg.VerificationWeight != nil || cfg.EfficiencyWeight != nil {
		return nil, fmt.Errorf("task, verification_weight and efficiency_weight belong to the svrl computer")
	}
	objs := make([]scoring.ObjectiveExpr, len(cfg.Objectives))
	for i, oc := range cfg.Objectives {
		o := scoring.ObjectiveExpr{Name: oc.Name, Expr: oc.Expr, Goal: scoring.Maximize, Weight: math.NaN()}
		if oc.Goal != "" {
			g, err := suggest.Parse("goal", oc.Goal, scoring.Goals)
			if err != nil {
				return nil, fmt.Errorf("objective %s: %w", oc.Name, err)
			}
			o.Goal = g
		}
		if slices.Contains(cfg.Minimize, oc.Name) {
			o.Goal = scoring.Minimize
		}
		if w, ok := cfg.Weights[oc.Name]; ok {
			o.Weight = w // checked by checkNames
		} else if oc.Weight != nil {
			// NaN is the scorer's default 1/m: a NaN given must not read
			// as no weight given.
			if err := notFinite("weight "+oc.Name, *oc.Weight); err != nil {
				return nil, err
			}
			o.Weight = *oc.Weight
		}
		objs[i] = o
	}
	s, err := scoring.NewParetoScorer(objs)
	if err != nil {
		return nil, err
	}
	if cfg.NanSum != nil && *cfg.NanSum {
		s.SetNanSum()
	}
	return s, nil
}

// checkNames rejects --minimize and --weight names that name no objective.
func (cfg Config) checkNames(objs []scoring.Objective) error {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Name
	}
	unknown := func(flag, name string) error {
		return fmt.Errorf("%s: unknown objective %q (objectives: %s)", flag, name, strings.Join(names, ", "))
	}
	for _, n := range cfg.Minimize {
		if !slices.Contains(names, n) {
			return unknown("minimize", n)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(cfg.Weights)) {
		if !slices.Contains(names, n) {
			return unknown("weight", n)
		}
		if err := notFinite("weight "+n, cfg.Weights[n]); err != nil {
			return err
		}
	}
	return nil
}

// CheckGroupRuns checks a GroupRuns a config file gives: a number of
// rows, at least 0, and none beside sources, whose groups are each
// source's by value (engine's sourceGroup), so that it is not ignored.
func (cfg Config) CheckGroupRuns() error {
	switch {
	case cfg.GroupRuns < 0:
		return fmt.Errorf("group_runs %d: a number of consecutive rows, at least 1 (0 groups by value)", cfg.GroupRuns)
	case cfg.GroupRuns > 0 && cfg.SourceBy != "":
		return fmt.Errorf("group_runs %d: not with source_by, whose groups are each source's by value", cfg.GroupRuns)
	}
	return nil
}

// notFinite returns the error of what (a weight: "weight NAME",
// "verification_weight") being x when x is not a finite number, "WHAT:
// NaN is not a finite number"; nil when it is.
func notFinite(what string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%s: %v is not a finite number", what, x)
	}
	return nil
}
