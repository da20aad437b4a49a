package layouts

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/stats"
)

// open-instruct, grpo_fast.py --save_traces --rollouts_save_path DIR:
// DIR/{run_name}_rollouts_{shard:06d}.jsonl, one RolloutRecord a line
// (step, sample_idx, prompt_idx = sample_idx // num_samples_per_prompt,
// prompt_tokens, response_tokens, reward, advantage, finish_reason,
// dataset, ground_truth, request_info, logprobs), and beside them
// {run_name}_metadata.jsonl, which the loaders leave out
// (open_instruct/rl_utils.py, _save_rollouts and save_rollout_metadata,
// allenai/open-instruct at e6c3044aa6201c8bfa4573c1b03142af599e730d).
//
// Defaults: group = prompt_idx, batch = step, objective reward (max,
// weight 1), the logged advantage compared with the rewards, and the
// advantage normalisation of DataPreparationActor._data_preparation_loop
// (open_instruct/data_loader.py), per group of a step:
//
//	standard: (r - mean) / (std + 1e-8), numpy's std (population)
//	centered: r - mean
//
// centered is advantage_normalization_type's default since 7917d4173
// (2026-03-20), standard before, since --save_traces came (d3db70937,
// 2026-01-23) with the same code: runs of both are about. The file does
// not say which one the run used; the logged advantage of the first
// file's groups does (openInstructNormalisation), and centered stands
// when it cannot tell.
var openInstructLayout = trainerLayout{
	name:         "open-instruct",
	description:  "open-instruct rollout traces",
	sentenceName: "open-instruct rollout traces",
	fields:       []string{"prompt_idx", "sample_idx", "reward", "advantage", "step"},
	// The traces hold tokens only (prompt_tokens, response_tokens): no
	// text for the dashboard to show.
	method:   engine.GRPO,
	defaults: openInstructDefaults,
}

const (
	openInstructPrompt    = "prompt_idx"
	openInstructReward    = "reward"
	openInstructAdvantage = "advantage"
	openInstructEpsilon   = 1e-8 // the standard advantage's epsilon
	// openInstructPeekRows bounds what openInstructNormalisation reads of
	// the first file (a shard holds 10000 records, each with its tokens):
	// the first groups tell, and with filter_zero_std_samples, open-
	// instruct's default, every group kept has rewards that differ.
	openInstructPeekRows = 1024
)

// An openInstructMode is one of open-instruct's advantage normalisations
// (advantage_normalization_type).
type openInstructMode string

const (
	openInstructStandard openInstructMode = "standard"
	openInstructCentered openInstructMode = "centered"
)

func openInstructDefaults(cfg engine.Config, first loaders.FileFields) (engine.Config, string, error) {
	one := 1.0
	cfg.GroupBy = cmp.Or(cfg.GroupBy, openInstructPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	if usesPareto(cfg) && len(cfg.Objectives) == 0 {
		cfg.Objectives = []engine.ObjectiveConfig{{Name: openInstructReward, Expr: openInstructReward, Goal: string(scoring.Maximize), Weight: &one}}
	}
	cfg.LoggedAdvantage = cmp.Or(cfg.LoggedAdvantage, openInstructAdvantage)
	switch openInstructNormalisation(first) {
	case openInstructStandard:
		cfg.Scale = cmp.Or(cfg.Scale, string(engine.ScaleGroup))
		cfg.Std = cmp.Or(cfg.Std, string(engine.StdPopulation))
		if cfg.Epsilon == nil {
			eps := openInstructEpsilon
			cfg.Epsilon = &eps
		}
	default:
		cfg.Scale = cmp.Or(cfg.Scale, string(engine.ScaleNone))
	}
	return cfg, "", nil
}

// openInstructNormalisation tells which advantage normalisation wrote the
// traces of the file first (read in its format) from their logged
// advantages: each group of a step
// (prompt_idx) whose rewards differ is reproduced by one of the two
// formulas only (to 1e-10, relative). standard when its groups all take
// the standard formula, centered otherwise: when they take the centered
// one, when its path is "" or it cannot be read (the load says why), when
// no group's rewards differ (both formulas give 0), or when neither
// formula fits (the comparison with the logged advantage then says so).
func openInstructNormalisation(first loaders.FileFields) openInstructMode {
	if first.Path == "" {
		return openInstructCentered
	}
	data, err := loaders.Load([]string{first.Path}, loaders.Options{Format: first.Format, SkipInvalid: true, MaxRows: openInstructPeekRows})
	if err != nil {
		return openInstructCentered
	}
	type key struct{ step, prompt float64 }
	type row struct{ reward, advantage float64 }
	groups := map[key][]row{}
	for i := range data.Trajectories {
		m := data.Trajectories[i].Metadata
		step, ok1 := m[stepField].(float64)
		prompt, ok2 := m[openInstructPrompt].(float64)
		reward, ok3 := m[openInstructReward].(float64)
		advantage, ok4 := m[openInstructAdvantage].(float64)
		if ok1 && ok2 && ok3 && ok4 {
			k := key{step, prompt}
			groups[k] = append(groups[k], row{reward, advantage})
		}
	}
	standard, centered := 0, 0
	rewards := []float64{}
	for _, g := range groups {
		rewards = rewards[:0]
		for _, r := range g {
			rewards = append(rewards, r.reward)
		}
		mean, std := stats.PopMeanStd(rewards) // numpy's mean and std
		if len(g) < 2 || !(std > 0) {
			continue
		}
		fitsStandard, fitsCentered := true, true
		for _, r := range g {
			fitsStandard = fitsStandard && fitsLogged(r.advantage, (r.reward-mean)/(std+openInstructEpsilon))
			fitsCentered = fitsCentered && fitsLogged(r.advantage, r.reward-mean)
		}
		if fitsStandard {
			standard++
		}
		if fitsCentered {
			centered++
		}
	}
	if standard > 0 && centered == 0 {
		return openInstructStandard
	}
	return openInstructCentered
}

// fitsLogged reports whether the logged advantage x is y to 1e-10,
// relative to |y| above 1.
func fitsLogged(x, y float64) bool {
	return math.Abs(x-y) <= 1e-10*math.Max(1, math.Abs(y))
}

// WithCompanions returns the sentence that says how the inputs are read
// with a note naming the files their directories hold that are not read
// (loaders.Companions: open-instruct's run metadata), unchanged when
// there is none.
func WithCompanions(sentence string, paths []string) string {
	left := loaders.Companions(paths)
	if len(left) == 0 {
		return sentence
	}
	note := fmt.Sprintf("left out %s (a run's metadata, not rollouts)", strings.Join(left, ", "))
	if sentence == "" {
		return note
	}
	return sentence + "; " + note
}
