package layouts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// TRL, GRPOTrainer(log_completions=True), read at huggingface/trl
// f2cd57710ae345ea6428ae95363267fcf38a3dc8:
// OUTPUT_DIR/completions/completions_{step:05d}.parquet, the DataFrame
// log() writes (trl/trainer/grpo_trainer.py lines 3311-3326): step,
// prompt, completion, one float column per reward function named after it
// (self._logs["rewards"], in reward_func_names' order), the columns reward
// functions log with log_extra (self._logs["extra"], any type, no prefix),
// then advantage.
//
// Defaults: method grpo (the advantage block of
// _generate_and_score_completions), group = prompt, batch = step,
// objectives the reward columns (trlRewardColumns; max, weight 1 each:
// reward_weights' default), a missing reward adding nothing (nansum), the
// score summed in float32 as TRL sums its rewards (float32 tensors:
// rewards_per_func times reward_weights, nansum(dim=1), in
// _generate_and_score_completions, GRPO's and RLOO's alike), so that
// rewards tie where TRL's do, the logged advantage compared with the
// rewards when the file has it (not when its every prompt has one row:
// log_unique_prompts=True); epsilon stays TRL's 1e-4. The dashboard shows prompt and completion as
// the prompt and the completion.
var trlLayout = trainerLayout{
	name:         string(engine.TrainerTRL),
	description:  "TRL completions",
	sentenceName: "TRL completions",
	fields:       []string{trlPrompt, trlCompletion, stepField},
	method:       engine.GRPO,
	prompt:       trlPrompt,
	response:     trlCompletion,
	promptBy:     trlPrompt,
	defaults:     trlDefaults,
	// A table written as JSON lines or CSV caught with its first rows
	// would give num_generations of those (its runs of one prompt) for
	// the whole run, or group by prompt text (no run of two rows).
	firstStep: "num_generations and the reward columns",
	// log() writes the deques of the last generation at every logging
	// step until the next generation (loaders' Relogged).
	relogField: stepField,
	warnings:   trlGroupWarnings,
	// The groups of scope group (diagnose.GroupSummaries) whatever the
	// scope.
	warningsRead: readsNoOptions,
}

const (
	trlPrompt     = "prompt"
	trlCompletion = "completion"
	trlAdvantage  = "advantage"
)

// trlDefaults returns cfg with TRL's defaults, what the "read as" line
// says of them, and the check of the other tables' rows against the
// weights read from the first (trlWeightsCheck), nil for none.
func trlDefaults(cfg setup.Config, first loaders.FileFields) (setup.Config, string, *RowsCheck, error) {
	one := 1.0
	note := ""
	var check *RowsCheck
	pareto := usesPareto(cfg)
	// onePerPrompt and runs are read with the reward columns; checked
	// says they were, tableRead that the table was read for them.
	onePerPrompt, checked, tableRead := false, false, false
	var runs trlRuns
	// A config's group_runs (the dashboard's saved settings) is its
	// grouping, the runs not read again.
	byPrompt := cfg.GroupBy == "" && cfg.GroupRuns == 0
	cfg.GroupBy = cmp.Or(cfg.GroupBy, trlPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	// trlGroupWarnings says which groups and why, in TRL's terms, in place
	// of the general check of the group sizes.
	cfg.EqualGroups = false
	if pareto && len(cfg.Objectives) == 0 {
		rewards, n, weights, err := trlRewardColumns(first)
		if err != nil {
			return cfg, "", nil, err
		}
		note, onePerPrompt, runs, checked, tableRead = n, weights.onePerPrompt, weights.runs, true, weights.read
		if weights.count.weighted {
			check = trlWeightsCheck(sourceOf(first), rewards, weights)
		}
		for _, col := range rewards {
			cfg.Objectives = append(cfg.Objectives, setup.ObjectiveConfig{Name: col, Expr: fmt.Sprintf("metadata[%q]", col), Goal: string(scoring.Maximize), Weight: &one})
		}
		if len(cfg.Objectives) == 0 && first.Path != "" {
			return cfg, "", nil, fmt.Errorf("%s: TRL completions without a reward column (a float column other than %s): give --objective", sourceOf(first), trlAdvantage)
		}
	}
	if pareto {
		cfg.Objectives = trlWeights(cfg.Objectives)
	}
	if pareto && cfg.NanSum == nil {
		yes := true
		cfg.NanSum = &yes
	}
	if pareto {
		cfg.ScorePrecision = cmp.Or(cfg.ScorePrecision, string(engine.ScoreFloat32))
	}
	// The groups are the runs of one prompt cut every num_generations
	// rows, as the first table tells it (trlCutRuns), when the reward
	// columns did not read it. A table of one row per prompt
	// (log_unique_prompts=True) holds none of the rows its advantages were
	// computed over: the read-as line says so in place of a comparison
	// that could only fail. The table is read once: for the groups when
	// the reward columns did not read it, for onePerPrompt when they were
	// not read and the logged advantage would be compared.
	if first.Path != "" && runs.size == 0 && (byPrompt && !tableRead || !checked && cfg.LoggedAdvantage == "" && slices.Contains(first.Names, trlAdvantage)) {
		table, err := readTRLTable(first, nil)
		if err != nil {
			return cfg, "", nil, err
		}
		table, runs, _ = trlCutRuns(table, 0)
		if !checked && cfg.LoggedAdvantage == "" && slices.Contains(first.Names, trlAdvantage) {
			if onePerPrompt = table.onePerPrompt(); onePerPrompt {
				note = trlOnePerPromptNote(sourceOf(first))
			}
		}
	}
	if byPrompt && runs.size > 1 {
		cfg.GroupRuns = runs.size
		if n := runs.note(sourceOf(first)); n != "" {
			note = strings.TrimPrefix(note+", "+n, ", ")
		}
	}
	if cfg.LoggedAdvantage == "" && slices.Contains(first.Names, trlAdvantage) && !onePerPrompt {
		cfg.LoggedAdvantage = trlAdvantage
	}
	return cfg, note, check, nil
}

// trlWeights returns objs with weight 1 where none is given: TRL weighs
// each reward function 1 unless reward_weights says otherwise
// (GRPOTrainer.__init__, torch.ones(len(reward_funcs))), whichever
// columns --objective or a config names, not the 1/m of plain records.
// A --weight still overrides it (setup.Config.Weights).
func trlWeights(objs []setup.ObjectiveConfig) []setup.ObjectiveConfig {
	out := slices.Clone(objs)
	for i := range out {
		if out[i].Weight == nil {
			one := 1.0
			out[i].Weight = &one
		}
	}
	return out
}
