package cmd

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// TRL, GRPOTrainer(log_completions=True):
// OUTPUT_DIR/completions/completions_{step:05d}.parquet with step, prompt,
// completion, one float column per reward function, the logged extra
// columns and advantage (trl/trainer/grpo_trainer.py, log()).
//
// Defaults: method grpo (the advantage block of
// _generate_and_score_completions), group = prompt, batch = step,
// objectives the float columns but advantage (and step) (max, weight 1
// each: reward_weights' default), a missing reward adding nothing
// (nansum), the logged advantage compared with the rewards when the file
// has it; epsilon stays TRL's 1e-4. The dashboard shows prompt and
// completion as the prompt and the completion.
var trlLayout = trainerLayout{
	name:         "trl",
	description:  "TRL completions",
	sentenceName: "TRL completions",
	fields:       []string{trlPrompt, trlCompletion, stepField},
	method:       engine.GRPO,
	prompt:       trlPrompt,
	response:     trlCompletion,
	defaults:     trlDefaults,
}

const (
	trlPrompt     = "prompt"
	trlCompletion = "completion"
	trlAdvantage  = "advantage"
)

func trlDefaults(cfg engine.Config, first loaders.FileFields) (engine.Config, error) {
	one := 1.0
	pareto := usesPareto(cfg)
	cfg.GroupBy = cmp.Or(cfg.GroupBy, trlPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	if pareto && len(cfg.Objectives) == 0 {
		for _, col := range first.Floats {
			if col == trlAdvantage || col == stepField {
				continue
			}
			cfg.Objectives = append(cfg.Objectives, engine.ObjectiveConfig{Name: col, Expr: fmt.Sprintf("metadata[%q]", col), Goal: string(engine.Maximize), Weight: &one})
		}
		if len(cfg.Objectives) == 0 && first.Path != "" {
			return cfg, inputError{fmt.Errorf("%s: TRL completions without a reward column (a float column other than %s): give --objective", first.Path, trlAdvantage)}
		}
	}
	if pareto && cfg.NanSum == nil {
		yes := true
		cfg.NanSum = &yes
	}
	if cfg.LoggedAdvantage == "" && slices.Contains(first.Names, trlAdvantage) {
		cfg.LoggedAdvantage = trlAdvantage
	}
	return cfg, nil
}
