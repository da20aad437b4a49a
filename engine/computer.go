package engine

import (
	"fmt"
	"math"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// RewardComputer turns trajectories into rewards: a scorer and the options
// of the computation. Build one with New.
type RewardComputer struct {
	Scorer  scoring.Scorer
	Options Options
	// Fields, when not nil, derives each record's group, batch and ID; a
	// loader applies it as it reads (loaders.Options.Fields).
	Fields *scoring.RecordFields
	// Logged, when not nil, is the advantage the trainer logged, evaluated
	// per trajectory by the computer's Evaluator.
	Logged *scoring.Expression
	// MatchLogged and EqualGroups are the config's (agreement.CheckTrainer).
	MatchLogged, EqualGroups bool
	// GroupRuns is the config's (setup.Config.GroupRuns): with it, a group
	// is a run of consecutive trajectories of one batch and group value,
	// cut every GroupRuns rows (a batch's first run from its end once
	// another run ends it: Evaluator.cutFirstRuns); 0 groups by value.
	// Without sources only.
	GroupRuns int
	// Layout is the config's input layout (setup.Config.From: verl, trl, ...),
	// which the rewards do not read: the trainer agreement tries the
	// layout's trainer's methods alone (agreement.MatchLoggedFrom).
	Layout string
	// RowCap is what a cap on the rows read did to the last group read
	// (loaders.Result.RowCap), set by the caller once read: the weights
	// fitted to the logged advantage leave out the group it cut
	// (agreement.CheckTrainer).
	RowCap scoring.RowCap
	// LinesLeftOut names, per step, the line a reading left out after
	// the step's last row read (a file's unfinished last line), set by
	// the caller once read: the trainer agreement names it as the cause
	// of a group of another size in that step.
	LinesLeftOut map[int64]string
}

// Pick returns the metadata keys that are all c reads of a trajectory
// (a loader may pick them rather than build a metadata map), nil when it
// reads more: a scorer without a Pick, or the logged advantage's
// expression.
func (c *RewardComputer) Pick() *scoring.Pick {
	if c.Logged != nil {
		return nil
	}
	if picker, ok := c.Scorer.(interface{ Pick() *scoring.Pick }); ok {
		return picker.Pick()
	}
	return nil
}

// New is the factory: it builds the scorer cfg names (setup.Config.Scorer),
// compiles its expressions and checks every setting, before any data is
// read. A pareto config without objectives must first go through
// setup.Config.InferObjectives.
func New(cfg setup.Config) (*RewardComputer, error) {
	opts, err := OptionsOf(cfg)
	if err != nil {
		return nil, err
	}
	scorer, err := cfg.Scorer()
	if err != nil {
		return nil, err
	}
	if err := CheckPriority(scorer.Objectives(), opts); err != nil {
		return nil, err
	}
	if scorer, err = scoring.WithStructure(scorer, cfg.Constraints, cfg.Gates); err != nil {
		return nil, err
	}
	c := &RewardComputer{Scorer: scorer, Options: opts, MatchLogged: cfg.MatchLogged != nil && *cfg.MatchLogged, EqualGroups: cfg.EqualGroups, GroupRuns: cfg.GroupRuns, Layout: cfg.From}
	if c.Fields, err = cfg.RecordFields(); err != nil {
		return nil, err
	}
	if c.Logged, err = cfg.Logged(); err != nil {
		return nil, err
	}
	return c, nil
}

// parsed sets *dst to text parsed, unless text is "" (unset): dst keeps
// its default.
func parsed[T any](dst *T, text string, parse func(string) (T, error)) error {
	if text == "" {
		return nil
	}
	v, err := parse(text)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// OptionsOf returns the options cfg sets, each unset one at its default.
func OptionsOf(cfg setup.Config) (Options, error) {
	opts := DefaultOptions()
	if err := parsed(&opts.Method, cfg.Method, parseMethod); err != nil {
		return opts, err
	}
	if err := parsed(&opts.Scope, cfg.Scope, parseScope); err != nil {
		return opts, err
	}
	if err := parsed(&opts.Scale, cfg.Scale, parseScale); err != nil {
		return opts, err
	}
	if cfg.Normalize != nil {
		opts.Normalize = *cfg.Normalize
	}
	if cfg.Epsilon != nil {
		if e := *cfg.Epsilon; !(e > 0) || math.IsInf(e, 0) {
			return opts, fmt.Errorf("epsilon %v: must be a positive finite number", e)
		}
		opts.Epsilon = *cfg.Epsilon
	}
	if err := parsed(&opts.Std, cfg.Std, parseStd); err != nil {
		return opts, err
	}
	if err := parsed(&opts.GroupOfOne, cfg.GroupOfOne, parseGroupOfOne); err != nil {
		return opts, err
	}
	if err := parsed(&opts.ScorePrecision, cfg.ScorePrecision, parseScorePrecision); err != nil {
		return opts, err
	}
	if cfg.Penalty != nil {
		if p := *cfg.Penalty; !(p >= 0) || math.IsInf(p, 0) {
			return opts, fmt.Errorf("penalty %v: must be a finite number >= 0", p)
		}
		opts.Penalty = *cfg.Penalty
	}
	if err := parsed(&opts.NormalizeObjectives, cfg.NormalizeObjectives, parseObjectiveNorm); err != nil {
		return opts, err
	}
	opts.Priority, opts.PriorityTolerance = cfg.Priority, cfg.PriorityTolerance
	if opts.Method == Lexicographic && len(opts.Priority) == 0 {
		return opts, errNoPriority
	}
	return opts, nil
}
