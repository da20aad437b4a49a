package cmd

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// verl, trainer.rollout_data_dir: DIR/{step}.jsonl, one line per rollout
// with input, output, gts, score, step and the reward function's
// reward_extra_info keys (verl/trainer/ppo/ray_trainer.py,
// _dump_generations, called by _log_rollout_data).
//
// Defaults: method grpo (compute_grpo_outcome_advantage), group = input,
// batch = step, objective score (max, weight 1), epsilon 1e-6 and a group
// of one rewarded as verl does (mean 0, std 1); the dashboard shows input
// and output as the prompt and the completion.
// A dump without input is refused unless --group-by says how to group.
var verlLayout = trainerLayout{
	name:         "verl",
	description:  "a verl rollout dump",
	sentenceName: "verl rollout dumps",
	fields:       []string{verlResponse, verlScore, stepField},
	grouping:     verlPrompt,
	method:       engine.GRPO,
	prompt:       verlPrompt,
	response:     verlResponse,
	check: func(cfg engine.Config, f loaders.FileFields) error {
		if cfg.GroupBy == "" && !slices.Contains(f.Names, verlPrompt) {
			return fmt.Errorf("%s: a verl rollout dump without %q: its rows cannot be grouped by prompt (give --group-by EXPR)", f.Path, verlPrompt)
		}
		return nil
	},
	defaults: verlDefaults,
}

const (
	verlPrompt   = "input"
	verlScore    = "score"
	verlResponse = "output"
	verlEpsilon  = 1e-6 // compute_grpo_outcome_advantage's epsilon
)

func verlDefaults(cfg engine.Config, _ loaders.FileFields) (engine.Config, error) {
	one := 1.0
	cfg.GroupBy = cmp.Or(cfg.GroupBy, verlPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	if usesPareto(cfg) && len(cfg.Objectives) == 0 {
		cfg.Objectives = []engine.ObjectiveConfig{{Name: verlScore, Expr: verlScore, Goal: string(engine.Maximize), Weight: &one}}
	}
	if cfg.Epsilon == nil {
		eps := verlEpsilon
		cfg.Epsilon = &eps
	}
	cfg.GroupOfOne = cmp.Or(cfg.GroupOfOne, string(engine.GroupOfOneScore))
	return cfg, nil
}
