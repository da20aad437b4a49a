package cmd

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// A layout is how a trainer writes its rollouts, which --from names (or
// auto recognises by the fields): each sets the defaults that reproduce
// that trainer's numbers, which every flag and config key overrides.
const (
	layoutAuto  = "auto"
	layoutVerl  = "verl"
	layoutTRL   = "trl"
	layoutPlain = "plain"
)

// layoutNames lists the values of --from.
var layoutNames = []string{layoutAuto, layoutVerl, layoutTRL, layoutPlain}

// The fields that make a layout, as the trainers write them:
//   - verl, trainer.rollout_data_dir: DIR/{step}.jsonl, one line per
//     rollout with input, output, gts, score, step and the reward
//     function's reward_extra_info keys (verl/trainer/ppo/ray_trainer.py,
//     _dump_generations, called by _log_rollout_data);
//   - TRL, GRPOTrainer(log_completions=True):
//     OUTPUT_DIR/completions/completions_{step:05d}.parquet with step,
//     prompt, completion, one float column per reward function, the
//     logged extra columns and advantage (trl/trainer/grpo_trainer.py,
//     log()).
var (
	verlFields = []string{"output", "score", "step"} // and input, to group by
	trlFields  = []string{"prompt", "completion", "step"}
)

// The verl and TRL fields the layouts read.
const (
	verlPrompt     = "input"
	trlPrompt      = "prompt"
	stepField      = "step"
	verlScore      = "score"
	trlAdvantage   = "advantage"
	verlEpsilon    = 1e-6 // compute_grpo_outcome_advantage's epsilon
	verlLayoutName = "verl rollout dumps"
	trlLayoutName  = "TRL completions"
)

// recognise returns the layout of a file by its first record's fields:
// verl when it has output, score and step, TRL when it has prompt,
// completion and step, plain otherwise and whenever the record has a group
// of its own (neither trainer writes one).
func recognise(f loaders.FileFields) string {
	if f.Group != "" {
		return layoutPlain
	}
	switch {
	case hasAll(f.Names, trlFields):
		return layoutTRL
	case hasAll(f.Names, verlFields):
		return layoutVerl
	}
	return layoutPlain
}

func hasAll(names, want []string) bool {
	for _, w := range want {
		if _, found := slices.BinarySearch(names, w); !found {
			return false
		}
	}
	return true
}

// describeLayout names a layout in messages.
func describeLayout(layout string) string {
	switch layout {
	case layoutVerl:
		return "a verl rollout dump"
	case layoutTRL:
		return "TRL completions"
	}
	return "plain rewardlens records"
}

// applyLayout returns cfg with the defaults of the layout of the inputs
// (cfg.From: auto, the default, recognises it from each file's first
// record), and the sentence that says what was decided ("" for plain
// records). Files of different layouts, a file that is not of the layout
// --from names, and a verl dump without input (unless --group-by says how
// to group) are errors. Standard input is not looked at: with auto, it is
// plain records; so are empty files (a followed log before its first
// line), and the description then says so when following.
func applyLayout(ctx context.Context, cfg engine.Config, paths []string, opts loaders.Options, follow bool) (engine.Config, string, error) {
	from := cfg.From
	if from == "" {
		from = layoutAuto
	}
	if !slices.Contains(layoutNames, from) {
		return cfg, "", usagef("--from %q: want one of %s", from, strings.Join(layoutNames, ", "))
	}
	if from == layoutPlain || len(paths) == 0 {
		return cfg, "", nil
	}
	opts.Context = ctx
	files, err := loaders.Peek(paths, opts)
	if err != nil {
		return cfg, "", inputError{err}
	}
	if len(files) == 0 { // standard input, or empty files only
		if from == layoutAuto && follow {
			return cfg, emptyLayoutNote(paths), nil
		}
		if from == layoutAuto {
			return cfg, "", nil // an empty file is the load's error
		}
		return layoutDefaults(cfg, from, loaders.FileFields{})
	}
	layout := from
	for _, f := range files {
		got := recognise(f)
		switch {
		case from == layoutAuto && got != recognise(files[0]):
			return cfg, "", inputError{fmt.Errorf("mixed layouts: %s is %s, %s is %s: give the files of one run (or --from plain)",
				files[0].Path, describeLayout(recognise(files[0])), f.Path, describeLayout(got))}
		case from != layoutAuto && got != from:
			return cfg, "", inputError{fmt.Errorf("%s: not %s (--from %s): it has %s, %s has %s",
				f.Path, describeLayout(from), from, fieldList(f.Names), describeLayout(from), layoutFieldList(from))}
		}
		layout = got
		if got == layoutVerl && cfg.GroupBy == "" && !slices.Contains(f.Names, verlPrompt) {
			return cfg, "", inputError{fmt.Errorf("%s: a verl rollout dump without %q: its rows cannot be grouped by prompt (give --group-by EXPR)",
				f.Path, verlPrompt)}
		}
	}
	if layout == layoutPlain {
		return cfg, "", nil
	}
	return layoutDefaults(cfg, layout, files[0])
}

// fieldList lists names for messages, "no field" when there are none.
func fieldList(names []string) string {
	if len(names) == 0 {
		return "no field"
	}
	return "fields " + strings.Join(names, ", ")
}

// layoutFieldList lists the fields that make a layout, for messages.
func layoutFieldList(layout string) string {
	if layout == layoutVerl {
		return verlPrompt + ", " + strings.Join(verlFields, ", ")
	}
	return strings.Join(trlFields, ", ")
}

// layoutDefaults returns cfg with the layout's defaults where cfg sets
// nothing, first being the first input file's fields, and the sentence
// that says how the inputs are read.
//
// Every trainer's layout checks that a step's groups are of one size
// (Config.EqualGroups).
// verl: group = input, batch = step, objective score (max, weight 1),
// epsilon 1e-6 and a group of one rewarded as verl does (mean 0, std 1).
// TRL: group = prompt, batch = step, objectives the float columns but
// advantage (and step) (max, weight 1 each: reward_weights' default), a
// missing reward adding nothing (nansum), the logged advantage compared
// with the rewards when the file has it; epsilon stays TRL's 1e-4.
func layoutDefaults(cfg engine.Config, layout string, first loaders.FileFields) (engine.Config, string, error) {
	pareto := cfg.Computer == "" || cfg.Computer == string(engine.ComputerPareto)
	cfg.EqualGroups = true // a trainer's groups are num_generations each
	one := 1.0
	var name string
	switch layout {
	case layoutVerl:
		name = verlLayoutName
		cfg.GroupBy = cmp.Or(cfg.GroupBy, verlPrompt)
		cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
		if pareto && len(cfg.Objectives) == 0 {
			cfg.Objectives = []engine.ObjectiveConfig{{Name: verlScore, Expr: verlScore, Goal: string(engine.Maximize), Weight: &one}}
		}
		if cfg.Epsilon == nil {
			eps := verlEpsilon
			cfg.Epsilon = &eps
		}
		cfg.GroupOfOne = cmp.Or(cfg.GroupOfOne, string(engine.GroupOfOneScore))
	case layoutTRL:
		name = trlLayoutName
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
				return cfg, "", inputError{fmt.Errorf("%s: TRL completions without a reward column (a float column other than %s): give --objective", first.Path, trlAdvantage)}
			}
		}
		if pareto && cfg.NanSum == nil {
			yes := true
			cfg.NanSum = &yes
		}
		if cfg.LoggedAdvantage == "" && slices.Contains(first.Names, trlAdvantage) {
			cfg.LoggedAdvantage = trlAdvantage
		}
	}
	return cfg, layoutSentence(name, cfg), nil
}

// layoutSentence says how the inputs are read, for stderr and the
// dashboard's status line: "read as verl rollout dumps: group = input,
// batch = step, objective score".
func layoutSentence(name string, cfg engine.Config) string {
	parts := []string{"group = " + cfg.GroupBy, "batch = " + cfg.BatchBy}
	if n := len(cfg.Objectives); n > 0 {
		names := make([]string, n)
		for i, o := range cfg.Objectives {
			names[i] = o.Name
		}
		noun := "objective "
		if n > 1 {
			noun = "objectives "
		}
		parts = append(parts, noun+strings.Join(names, ", "))
	}
	if cfg.NanSum != nil && *cfg.NanSum {
		parts = append(parts, "a null reward adds nothing")
	}
	if cfg.Epsilon != nil {
		parts = append(parts, fmt.Sprintf("epsilon %g", *cfg.Epsilon))
	}
	if cfg.LoggedAdvantage != "" {
		parts = append(parts, "logged advantage = "+cfg.LoggedAdvantage)
	}
	return "read as " + name + ": " + strings.Join(parts, ", ")
}

// emptyLayoutNote is the description of followed inputs that auto could
// not recognise because nothing is in them yet (empty files, a directory
// without input files, an empty .gz).
func emptyLayoutNote(paths []string) string {
	return fmt.Sprintf("warning: layout not recognised: %s holds no record yet, so it is read as plain records (give --from verl or --from trl if a trainer writes it)", strings.Join(paths, ", "))
}
