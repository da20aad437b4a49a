package layouts

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/sandbox"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/loaders"
)

// verl, trainer.rollout_data_dir: DIR/{step}.jsonl, one line per rollout
// with input, output, gts, score, step and, from the legacy trainer
// (trainer.use_v1=false, verl/trainer/ppo/ray_trainer.py, _log_rollout_data
// and _write_generations), the reward function's reward_extra_info keys;
// from the V1 trainer (trainer.use_v1=true, verl's default;
// verl/trainer/ppo/v1/trainer_base.py, _log_rollout_data) uid instead.
// Read at verl-project/verl 1dda039b9c6311889a9c9a26040677e1254814f9.
//
// Defaults: method grpo (compute_grpo_outcome_advantage); group = the
// prompt part of uid and id = uid when the dump has uid, else group =
// input; prompt = input (uid changes every step); task metric acc when
// the dump has it; batch = step; objective score (max, weight 1), or score +
// overlong_reward where the dump's score leaves out DAPO's overlong
// penalty; epsilon 1e-6 and a group of one rewarded as verl does (mean 0,
// std 1); the dashboard shows input and output as the prompt and the
// completion. A dump with neither input nor uid is refused unless
// --group-by says how to group. verl's other outcome estimators
// (algorithm.adv_estimator) are methods: rloo, rpp-baseline
// (reinforce_plus_plus_baseline), grpo-passk and gpg; opo is not, its
// baseline weighing each response by its token count, which the dump
// lacks (the trainer agreement's warning says so).
var verlLayout = trainerLayout{
	name:         string(engine.TrainerVerl),
	description:  "a verl rollout dump",
	sentenceName: "verl rollout dumps",
	fields:       []string{verlResponse, verlScore, stepField},
	grouping:     verlPrompt,
	method:       engine.GRPO,
	prompt:       verlPrompt,
	response:     verlResponse,
	promptBy:     verlPrompt,
	promptWhy:    verlUID + " changes every step",
	check: func(cfg setup.Config, f loaders.FileFields) error {
		if cfg.GroupBy == "" && !slices.Contains(f.Names, verlPrompt) && !slices.Contains(f.Names, verlUID) {
			return fmt.Errorf("%s: a verl rollout dump without %q or %q: its rows cannot be grouped by prompt (give --group-by EXPR)", sourceOf(f), verlPrompt, verlUID)
		}
		return nil
	},
	defaults:     verlDefaults,
	warnings:     verlWarnings,
	filesCheck:   verlValidationApart,
	warningsRead: readsScopeAndMethod,
}

const (
	verlPrompt   = "input"
	verlScore    = "score"
	verlResponse = "output"
	verlEpsilon  = 1e-6 // compute_grpo_outcome_advantage's epsilon

	// verlUID is the V1 trainer's key of each output,
	// "{uid}_{session_id}_{index}" (verl/trainer/ppo/v1/agent_loop_tq.py,
	// _agent_loop_postprocess), which its _log_rollout_data dumps as uid.
	// uid is the prompt's uuid4 (trainer_base.py: str(uuid.uuid4()) per
	// prompt), which has no "_"; it is what the advantage groups by
	// (compute_advantage_for_multi_trajectories passes the uid field as
	// compute_grpo_outcome_advantage's index).
	verlUID = "uid"
	// verlUIDPrompt is the prompt part of uid, as verl takes it apart
	// (key.rsplit("_", 2)[0] in compute_advantage_for_multi_trajectories).
	verlUIDPrompt = `split(uid, "_")[0]`

	// verlOverlong is what verl's DAPO reward manager adds to the reward
	// function's score when overlong_buffer.enable, and writes to
	// reward_extra_info when overlong_buffer.log
	// (verl/workers/reward_manager/dapo.py, __call__;
	// verl/experimental/reward_loop/reward_manager/dapo.py, run_single):
	// min(-exceed_len / overlong_buffer.len * penalty_factor, 0), a 0-d
	// tensor or 0, which the dump writes as "tensor(-1.)" (json.dumps
	// with default=str) or a number.
	verlOverlong = "overlong_reward"
	// verlAcc is the reward_extra_info key of the reward function's score
	// when it returns a number rather than a dict (the reward manager's
	// else branch, reward_extra_info["acc"] = score).
	verlAcc = "acc"
	// verlPenalty is the penalty as a number, added to the score where
	// the dump's score leaves it out: the objective is then what verl
	// trains on (its token_level_scores).
	verlPenalty = " + torchNumber(" + verlOverlong + ")"
	// verlTensorScore reads a score that the reward function returned as
	// a 0-d tensor, which the dump writes as its text.
	verlTensorScore = "torchNumber(" + verlScore + ")"
)

// verlDumpFields are the fields _write_generations writes whatever the
// reward function returns (input, output, gts, score, step), those the
// trainers add (uid; request_id, _log_rollout_data's) and DAPO's two.
var verlDumpFields = []string{verlPrompt, "output", "gts", verlScore, stepField, verlUID, "request_id", verlOverlong, "overlong"}

// verlScoreHasOverlong reports whether the dump's score already holds the
// overlong penalty, from a first record with overlong_reward: the dump's
// score is the trained reward (token_level_scores summed) unless
// reward_extra_info has a score of its own, which _write_generations
// writes over it: a reward function that returns a dict returns its
// score (before the penalty) and keys of its own, one that returns a
// number adds acc alone (DAPORewardManager.__call__). So the score may
// hold the penalty only when, besides the fields every dump has, the
// record has only acc, a number; a dict of score and acc alone has these
// fields too, so then the values tell (verlScoreSumsPenalty).
func verlScoreHasOverlong(first loaders.FileFields, peek *firstRecords) bool {
	extra := slices.DeleteFunc(slices.Clone(first.Names), func(n string) bool { return slices.Contains(verlDumpFields, n) })
	return len(extra) == 1 && extra[0] == verlAcc && slices.Contains(first.Floats, verlAcc) && verlScoreSumsPenalty(peek)
}

const (
	// verlPenaltyTolerance is how far score may be from acc +
	// overlong_reward and still be their sum: the dump's score is a
	// float32, and torch prints the penalty's tensor with four decimals
	// (5e-5). A penalty that is not 0 is at least penalty_factor /
	// overlong_buffer.len, and when the score leaves it out the score is
	// that far from the sum.
	verlPenaltyTolerance = 1e-4
)

// verlScoreSumsPenalty reports whether, in the first file's records (up to
// peekRows, read in its format), score is acc + overlong_reward wherever the three are
// numbers: so it is where the reward function returns a number (acc is
// that number, score the trained reward). A record where score is not the
// sum says that score is the function's own, before the penalty. True
// when nothing can be read or no record tells (every penalty 0: both
// readings are the same there).
func verlScoreSumsPenalty(peek *firstRecords) bool {
	records := peek.records()
	for i := range records {
		m := records[i].Metadata
		score, ok1 := m[verlScore].(float64)
		acc, ok2 := m[verlAcc].(float64)
		penalty, err := sandbox.TorchNumber(m[verlOverlong])
		if ok1 && ok2 && err == nil && math.Abs(score-(acc+penalty)) > verlPenaltyTolerance*math.Max(1, math.Abs(score)) {
			return false
		}
	}
	return true
}

// verlObjective returns the expression of the objective verl trains on,
// from the first record's fields: the score, read as a number where the
// dump has it as text (a 0-d tensor's, verlScoreIsText), with the overlong
// penalty added where the score leaves it out.
func verlObjective(first loaders.FileFields, peek *firstRecords) string {
	expr := verlScore
	if verlScoreIsText(first, peek) {
		expr = verlTensorScore
	}
	if slices.Contains(first.Names, verlOverlong) && !verlScoreHasOverlong(first, peek) {
		expr += verlPenalty
	}
	return expr
}

// verlScoreIsText reports whether the dump writes the score as text (a
// 0-d tensor's): from the first record's score, or, where that is null or
// absent (which says nothing of the others), from the first score that is
// neither null nor absent among the first file's first peekRows
// records. A null score is missing either way.
func verlScoreIsText(first loaders.FileFields, peek *firstRecords) bool {
	switch {
	case slices.Contains(first.Floats, verlScore):
		return false
	case slices.Contains(first.Names, verlScore) && !slices.Contains(first.Nulls, verlScore):
		return true
	}
	records := peek.records()
	for i := range records {
		if v := records[i].Metadata[verlScore]; v != nil {
			_, text := v.(string)
			return text
		}
	}
	return false
}

func verlDefaults(cfg setup.Config, first loaders.FileFields) (setup.Config, string, *RowsCheck, error) {
	peek := newFirstRecords(first)
	one := 1.0
	if slices.Contains(first.Names, verlUID) {
		if cfg.GroupBy == "" {
			cfg.GroupBy = verlUIDPrompt
		}
		// The whole key names one output: compute's records join back
		// to the dump's lines by it.
		cfg.IDBy = cmp.Or(cfg.IDBy, verlUID)
	}
	cfg.GroupBy = cmp.Or(cfg.GroupBy, verlPrompt)
	cfg.BatchBy = cmp.Or(cfg.BatchBy, stepField)
	if usesPareto(cfg) && len(cfg.Objectives) == 0 {
		cfg.Objectives = []setup.ObjectiveConfig{{Name: verlScore, Expr: verlObjective(first, peek), Goal: string(scoring.Maximize), Weight: &one}}
	}
	if cfg.Epsilon == nil {
		eps := verlEpsilon
		cfg.Epsilon = &eps
	}
	cfg.GroupOfOne = cmp.Or(cfg.GroupOfOne, string(engine.GroupOfOneScore))
	// verl trains on a float32 tensor of rewards (the reward managers'
	// reward_tensor, zeros_like(responses, dtype=torch.float32)), the
	// reward function's float64 value rounded once: a dump whose score is
	// that value (or a float64 one a dict reward wrote over it) then ties
	// where verl's did. A score already float32 is unchanged.
	if usesPareto(cfg) {
		cfg.ScorePrecision = cmp.Or(cfg.ScorePrecision, string(engine.ScoreFloat32))
	}
	// The task metric is the reward function's own score, before the
	// shaping the reward manager adds (the overlong penalty), when the
	// dump has it.
	if cfg.TaskMetric == "" && slices.Contains(first.Names, verlAcc) {
		cfg.TaskMetric = verlAcc
	}
	notes := verlNotes(cfg)
	if verlIsValidation(first, peek) {
		notes = append(notes, verlValidationNote)
	}
	if len(cfg.Objectives) == 1 && strings.HasSuffix(cfg.Objectives[0].Expr, verlPenalty) {
		if text := verlRoundedPenalty(peek); text != "" {
			notes = append(notes, fmt.Sprintf("overlong_reward is torch's four-decimal text (%s): a penalty that is not a multiple of 1/16 (DAPO's overlong_buffer.len 4096 gives k/4096) reads rounded, the reward up to 5e-5 from verl's", text))
		}
	}
	return cfg, strings.Join(notes, ", "), nil, nil
}

// verlRoundedPenalty returns the first overlong_reward text, in the first
// file's first peekRows records, that torch probably rounded: a 0-d
// float tensor prints four decimals (torch/_tensor_str.py, precision 4),
// and a penalty -k * penalty_factor / overlong_buffer.len with more digits
// (DAPO's len 4096: k/4096) prints rounded. A text whose fourth decimal is
// not 0 and whose value is not a multiple of 1/16 (the four-decimal
// numbers that are exact binary fractions) was rounded unless the penalty
// had exactly four decimals; "" when none is.
func verlRoundedPenalty(peek *firstRecords) string {
	records := peek.records()
	for i := range records {
		text, ok := records[i].Metadata[verlOverlong].(string)
		if !ok {
			continue
		}
		x, err := sandbox.TorchNumber(text)
		dot := strings.IndexByte(text, '.')
		if err != nil || dot < 0 || dot+5 >= len(text) || text[dot+4] < '1' || text[dot+4] > '9' {
			continue
		}
		if x*16 != math.Trunc(x*16) {
			return text
		}
	}
	return ""
}

// verlNotes says, in the "read as" line, what the id is when set, and
// where the objective is not the dump's score as written, and why.
func verlNotes(cfg setup.Config) []string {
	var notes []string
	if cfg.IDBy != "" {
		notes = append(notes, "id = "+cfg.IDBy)
	}
	if len(cfg.Objectives) != 1 || cfg.Objectives[0].Name != verlScore {
		return notes
	}
	const tensorText, penaltyLeftOut = "the dump writes the score as a tensor's text", "the dump's score leaves out DAPO's overlong penalty, which verl trains on"
	expr := cfg.Objectives[0].Expr
	why, ours := map[string][]string{
		verlTensorScore:               {tensorText},
		verlScore + verlPenalty:       {penaltyLeftOut},
		verlTensorScore + verlPenalty: {tensorText, penaltyLeftOut},
	}[expr]
	if !ours {
		return notes
	}
	return append(notes, fmt.Sprintf("score = %s (%s)", expr, strings.Join(why, "; ")))
}

// verlWarnings are the verl layout's warnings on a result: its NaN groups
// (nanGroups, saying verlNaNAdvantages of the method, invalidRowGroups),
// under grpo-passk its groups of one (verlPassKGroupsOfOne), under a
// method verl weighs by tokens, that the dump lacks the token counts
// (verlTokenWeighted), under gdpo, that verl's is another formula
// (verlGDPO), and of a legacy dump, its steps of groups of a multiple of
// rollout.n (verlDoubledGroups).
func verlWarnings(cfg setup.Config, res *engine.Result, _ scoring.RowCap, _ map[int64]string, batches []int) []string {
	return slices.Concat(nanGroups(res, batches, verlScore, verlNaNAdvantagesOf(res.Options.Method)),
		invalidRowGroups(res, batches, verlScore, verlInvalidRows(res)), verlPassKGroupsOfOne(res, batches), verlTokenWeighted(res, batches), verlGDPO(res, batches),
		verlDoubledGroups(cfg, res, batches))
}

// verlNaNAdvantages says, for each method that is one of verl's outcome
// estimators (core_algos.py), what that estimator gives the rows a NaN
// or infinite score reaches: a torch mean or std over a NaN or an
// infinity is NaN (of +Inf and -Inf alike, their difference), and
// torch.topk ranks NaN above every number.
var verlNaNAdvantages = map[engine.Method]string{
	engine.GRPO: "verl's own " + verlGRPONaNAdvantages,
	engine.RLOO: "verl's own rloo advantages are NaN or infinite for every row of such a group (compute_rloo_outcome_advantage subtracts the group's mean)",
	engine.RPPBaseline: "verl's own rpp-baseline advantages are NaN for every row of the batch (compute_reinforce_plus_plus_baseline_outcome_advantage's group mean, " +
		"then masked_whiten's mean and variance over the batch)",
	engine.GRPOPassK: "verl's own grpo-passk advantages are NaN for one row of such a group, the one torch.topk takes as best (a NaN ranks above every number; " +
		"with an infinite score the group's std is NaN), and 0 for its others (compute_grpo_passk_outcome_advantage)",
	engine.GPG: "verl's own gpg advantages are NaN or infinite for every row of such a group (its mean) and scale every other row of the batch by another alpha than here unless no score of the batch is 0 " +
		"(compute_gpg_outcome_advantage's alpha = bsz / count_nonzero(scores) counts the NaN row)",
}

// verlGRPONaNAdvantages says what verl's grpo gives the rows of a group
// with a NaN or infinite score: its entry in verlNaNAdvantages, and what
// a method that is none of verl's estimators falls back to.
const verlGRPONaNAdvantages = "advantages are NaN for every row of such a group (compute_grpo_outcome_advantage's mean and std over the group)"

// verlNaNAdvantagesOf is verlNaNAdvantages of method, or, for a method
// that is none of verl's estimators, what verl's grpo (the layout's
// method) gives.
func verlNaNAdvantagesOf(method engine.Method) string {
	if says, ok := verlNaNAdvantages[method]; ok {
		return says
	}
	return fmt.Sprintf("verl has no %s estimator; under its grpo, the layout's method, the %s", method, verlGRPONaNAdvantages)
}

// verlPassKGroupsOfOne warns, under grpo-passk, of the groups of one row
// (valid or not) in the batches of index batches: verl refuses them
// (compute_grpo_passk_outcome_advantage raises ValueError, Pass@k
// needing two samples a group), while grpo-passk gives such a row 0.
// nil under another method, or with no such group.
func verlPassKGroupsOfOne(res *engine.Result, batches []int) []string {
	if res.Options.Method != engine.GRPOPassK {
		return nil
	}
	groups, named := namedGroups(res, batches, func(g *engine.Group) (string, bool) { return "", len(g.Members) == 1 })
	if groups == 0 {
		return nil
	}
	return []string{fmt.Sprintf("grpo-passk: %d %s of one trajectory: %s. verl refuses them (compute_grpo_passk_outcome_advantage raises ValueError: Pass@k requires at least 2 samples per group); here each gets 0",
		groups, english.Plural(groups, "group"), named)}
}

// verlNotScored is why verl could not have scored a score that is no
// number, or none: its reward manager (NaiveRewardManager.__call__) puts
// each score into the float reward tensor, which raises at anything else.
const verlNotScored = "where verl could not have scored them (its reward manager raises at a score that is no number): these rows are not what verl trained on"

// verlInvalidRows is what invalidRowGroups says of verl: the score is
// read as a number (torchNumber), so its evaluation error is that it is
// not a number; without a logged advantage (verl's dump has none, unless
// --logged-advantage names one) none is said to differ, and verl is said
// to have been unable to score such a row.
func verlInvalidRows(res *engine.Result) invalidRowsTrainer {
	t := invalidRowsTrainer{rename: map[string]string{scoring.ErrEval.Error(): "not a number"}}
	if res.Evaluation.Logged == nil {
		t.couldNot = verlNotScored
	}
	return t
}

// verlTokenWeightedMethods are the methods whose verl estimator weighs
// each response by its token count: compute_reinforce_plus_plus_baseline_outcome_advantage
// whitens the centred scores over the batch's response tokens
// (masked_whiten with the response mask), so a response of n tokens
// counts n times in the mean and the variance.
var verlTokenWeightedMethods = []engine.Method{engine.RPPBaseline}

// verlTokenWeighted warns, under a method of verlTokenWeightedMethods and
// with batches to speak of, that the dump does not give the token
// counts (_dump_generations writes input, output, gts, score, step and
// the reward function's extra keys, no length): each response counts
// once here, so the rewards differ from verl's wherever the responses
// of a batch differ in length.
func verlTokenWeighted(res *engine.Result, batches []int) []string {
	if len(batches) == 0 || !slices.Contains(verlTokenWeightedMethods, res.Options.Method) {
		return nil
	}
	return []string{fmt.Sprintf("verl's %s weighs each response by its token count (masked_whiten over the response tokens), not in the dump (_dump_generations writes no length): here each response counts once, so the rewards differ from verl's wherever a batch's responses differ in length", res.Options.Method)}
}

// verlGDPOWarning says how verl's gdpo differs from gdpo here. verl's
// compute_gdpo_outcome_advantage (core_algos.py) runs
// compute_grpo_outcome_advantage on each of algorithm.gdpo_reward_keys,
// whose group of one has mean 0 and std 1 (group_mean_std, groupwise.py:
// o_k / (1 + epsilon)), sums them weighted by gdpo_reward_weights, then
// whitens the sum with masked_whiten over the batch's response tokens
// (each response counted once per token, (x - mean) / sqrt(var1 + 1e-8)).
// gdpo here is TRL's normalize_then_sum: a group of one gets 0, each
// response counts once and the sum is divided by std1 + epsilon. The
// token counts, which the dump lacks, keep verl's from being computed
// here.
const verlGDPOWarning = "verl's gdpo (compute_gdpo_outcome_advantage) is not the gdpo computed here (TRL's normalize_then_sum): verl z-scores each objective in its group as its grpo does, " +
	"a group of one at mean 0 and std 1 (o_k / (1 + epsilon); here 0), then whitens the weighted sum over the batch's response tokens " +
	"(masked_whiten: each response weighted by its token count, not in the dump; (x - mean) / sqrt(var + 1e-8), here / (std + epsilon)), so the rewards differ from verl's"

// verlGDPO warns, under gdpo and with batches to speak of, that verl's
// gdpo is another formula (verlGDPOWarning).
func verlGDPO(res *engine.Result, batches []int) []string {
	if len(batches) == 0 || res.Options.Method != engine.GDPO {
		return nil
	}
	return []string{verlGDPOWarning}
}

// verlValidationReward is the key _validate adds to the validation
// dump's reward_extra_infos_dict, its scores again
// (reward_extra_infos_dict["reward"].extend(scores), RayPPOTrainer._validate
// in verl/trainer/ppo/ray_trainer.py, read at verl-project/verl
// b178a3cd56f58b2d502255daba591e92833930a7), which _dump_generations
// writes into trainer.validation_data_dir beside score: the training
// dump (_log_rollout_data) has no such key unless a reward function
// returns one.
const verlValidationReward = "reward"

// verlValidationNote says, in the "read as" line, that the dump looks
// like validation output.
const verlValidationNote = "warning: this looks like a verl validation dump (trainer.validation_data_dir: _validate writes each score again as reward), not training rollouts: verl computed no advantage on it, and its prompts have val_kwargs.n samples each (1 by default), so the rewards here are no trainer's"

// verlValidationApart refuses validation dumps (verlIsValidation, each
// file judged by its own first records) given beside training dumps:
// read together, a validation sample would join its step's training
// group by input and change that group's rewards, though verl computed no
// advantage on it (RayPPOTrainer._validate dumps it with
// _dump_generations into trainer.validation_data_dir, apart from
// _log_rollout_data's trainer.rollout_data_dir).
func verlValidationApart(files []loaders.FileFields) error {
	var validation, training []string
	for _, f := range files {
		if verlIsValidation(f, newFirstRecords(f)) {
			validation = append(validation, f.Path)
		} else {
			training = append(training, f.Path)
		}
	}
	if len(validation) == 0 || len(training) == 0 {
		return nil
	}
	return fmt.Errorf("%s %s a verl validation dump (trainer.validation_data_dir: _validate writes each score again as reward); %s %s training rollouts: "+
		"verl computed no advantage on validation samples, and read together each would join its step's training group by input, changing the rewards: "+
		"give the training dump alone, and the validation dump alone to look at it",
		verlFilesNamed(validation), english.Verb(len(validation), "looks like", "look like"), verlFilesNamed(training), english.Verb(len(training), "is", "are"))
}

// verlMaxFilesNamed is how many files of a kind verlValidationApart names.
const verlMaxFilesNamed = 3

// verlFilesNamed names paths in a message: the first verlMaxFilesNamed,
// and how many more.
func verlFilesNamed(paths []string) string {
	named := slices.Clone(paths[:min(len(paths), verlMaxFilesNamed)])
	for i, p := range named {
		if p == "-" {
			named[i] = "standard input"
		}
	}
	names := strings.Join(named, ", ")
	if more := len(paths) - verlMaxFilesNamed; more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	return names
}

// verlIsValidation reports whether first's file looks like a validation
// dump: its first record has reward, a number, and in the first records
// (up to peekRows) reward is score wherever both are numbers, as
// _validate writes the same scores under both keys.
func verlIsValidation(first loaders.FileFields, peek *firstRecords) bool {
	if !slices.Contains(first.Floats, verlValidationReward) || !slices.Contains(first.Floats, verlScore) {
		return false
	}
	records := peek.records()
	for i := range records {
		m := records[i].Metadata
		reward, ok1 := m[verlValidationReward].(float64)
		score, ok2 := m[verlScore].(float64)
		if ok1 && ok2 && reward != score {
			return false
		}
	}
	return len(records) > 0
}

// FollowApart is, following inputs read as cfg says (FollowOptions.
// Apart), what leaves out a file that appears and is not of the run
// followed, nil when the layout tells no such files apart: of verl's
// dumps, a validation file appearing in a training run (verl writes
// val/{step}.jsonl at test_freq while it trains), or a training file
// in a validation run. The run is what its first file is (the start's
// files are one kind: Apply refuses them mixed); each new file is
// judged by its own first records, as verlValidationApart judges, once
// it has a whole first record (a file caught as its first line is
// written waits).
func FollowApart(cfg setup.Config, opts loaders.Options) func(first, path string) (string, bool) {
	if cfg.From != verlLayout.name {
		return nil
	}
	// kind says whether path looks like a validation dump, or that it
	// tells nothing yet.
	kind := func(path string) (validation, wait bool) {
		files, err := loaders.Peek([]string{path}, loaders.Options{Format: opts.Format})
		switch {
		case err != nil:
			return false, !hasLineEnd(path) // else its reading says the error
		case len(files) == 0:
			return false, true
		}
		return verlIsValidation(files[0], newFirstRecords(files[0])), false
	}
	var runPath string
	var runValidation bool
	return func(first, path string) (string, bool) {
		if first == "" {
			return "", false
		}
		if first != runPath {
			runPath, runValidation = first, false
			if v, wait := kind(first); !wait {
				runValidation = v
			}
		}
		newValidation, wait := kind(path)
		switch {
		case wait:
			return "", true
		case newValidation && !runValidation:
			return "a verl validation dump (trainer.validation_data_dir: _validate writes each score again as reward), not the training rollouts followed: " +
				"verl computed no advantage on it, and read with them each sample would join its step's training group by input", false
		case !newValidation && runValidation:
			return "verl training rollouts, not the validation dump followed: follow the training dump alone to see what the trainer trained on", false
		}
		return "", false
	}
}

// hasLineEnd reports whether the file at path has a line end within its
// first loaders.MaxStdinPeek bytes: whether its first line is whole.
func hasLineEnd(path string) bool {
	file, err := os.Open(path)
	if err != nil {
		return true // its reading says why
	}
	defer file.Close()
	lines := bufio.NewReader(io.LimitReader(file, loaders.MaxStdinPeek))
	for {
		if _, err := lines.ReadSlice('\n'); err != bufio.ErrBufferFull {
			return err == nil
		}
	}
}
