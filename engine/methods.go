package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MethodSpec is a reward method, all that the program knows of it in one
// place: its name, its formula and note as the dashboard and
// docs/CONTRACT.md state them, whether its rewards follow the weighted
// score (health's dominance check), and the function that computes it.
// A new method is a Method constant and an entry in methodSpecs.
type MethodSpec struct {
	Method Method
	// Formula is the method's reward on one line, under options o (the
	// epsilon they give), as docs/CONTRACT.md's Methods table states it:
	// s is a trajectory's weighted score, mean and std its comparison
	// group's.
	Formula func(o Options) string
	// Note says what the rewards compare and how they are scaled under o:
	// "per group, z-scored".
	Note func(o Options) string
	// Unnormalised says why Options.Normalize means nothing to the
	// method, "" for a method that reads it: "its reward is s minus the
	// others' mean".
	Unnormalised string
	// FixedDivisor says what the method divides by when it divides by a
	// std whose kind and epsilon are its trainer's, not Options.Std and
	// Options.Epsilon: "TRL's sample std plus 1e-4"; "" for any other.
	FixedDivisor string
	// ReadsScale says whether the method reads Options.Scale (grpo), which
	// then carries Normalize: not normalised is scale none.
	ReadsScale bool
	// Divides says whether the method divides by a std (Options.Std) plus
	// Options.Epsilon (gdpo; grpo but under scale none; grpo-passk, normalised).
	Divides bool
	// ReadsGroupOfOne says whether the method reads Options.GroupOfOne.
	ReadsGroupOfOne bool
	// FixedGroupOfOne is what a method that does not read
	// Options.GroupOfOne gives the one valid trajectory of a group of one,
	// as its trainer does: GroupOfOneScore for a reward that follows its
	// score (verl's mean 0: gpg's alpha s, rpp-baseline's s whitened),
	// GroupOfOneZero for 0 (rloo-whitened, grpo-passk); "" for a method
	// that reads Options.GroupOfOne or has no such convention (it ranks or
	// z-scores the group). An explicit --group-of-one is warned of as
	// ignored by a method that does not read it.
	FixedGroupOfOne GroupOfOne
	// Trainers are the trainers whose advantages the method computes
	// (the estimator of each named beside it), none for a method no
	// trainer computes: the trainer agreement check
	// (agreement.TrainerOptions) keeps such a method and replaces any
	// other by grpo, and a trainer's layout tries its trainer's methods
	// alone (ComputedBy).
	Trainers []Trainer
	// AsIn names, for a person, the trainers' estimators the method
	// computes ("verl gpg"), "" when no trainer computes it.
	AsIn string
	// RewardsScore says whether the rewards follow the weighted score s.
	RewardsScore bool
	// RewardsWeighted says whether the weights enter the rewards: gdpo
	// weighs its objectives' own z-scores, not s; a method that ranks on
	// the objectives (pareto) leaves them to the score alone.
	RewardsWeighted bool
	// Settled says whether the method rewards every member of a
	// comparison group of zero spread 0 in exact arithmetic (its valid
	// scores all equal), which floating point may miss (Result.Settled),
	// but for a lone valid member its options reward by its score
	// (Options.ScoresGroupOfOne); false for a method that does not (one
	// that whitens over the batch, or ranks).
	Settled bool
	// HasSettings says whether options o give the method the settings of
	// its own it needs (lexicographic's priorities); nil for a method that
	// needs none. The dashboard cycles to such a method only when the
	// session's options give them (MethodsFor): it cannot edit them.
	HasSettings func(o Options) bool

	// group writes u, the rewards of the valid trajectories idx of one
	// comparison group whose scores are s, with scratch space in rw; it
	// reports whether u is final (the method scaled it) rather than to be
	// z-scored when Options.Normalize is set. batchStd1 is the batch's
	// std of the scores for grpo's scale batch, else NaN. Nil when batch
	// is set.
	group func(rw *rewarder, u, s []float64, res *Result, idx []int, batchStd1 float64) (final bool)
	// batch writes the rewards of the valid trajectories of batch b at
	// once, for a method that is not computed group by group (gdpo).
	batch func(rw *rewarder, res *Result, b *Batch)
}

// A Trainer is a trainer whose advantages some method computes
// (MethodSpec.Trainers), by the name of its input layout (setup.Config.From)
// where rewardlens has one.
type Trainer string

// The trainers.
const (
	TrainerTRL          Trainer = "trl"
	TrainerVerl         Trainer = "verl"
	TrainerOpenInstruct Trainer = "open-instruct"
	TrainerOpenRLHF     Trainer = "openrlhf"
)

// Trainers are the trainers, those that have a layout first.
var Trainers = []Trainer{TrainerTRL, TrainerVerl, TrainerOpenInstruct, TrainerOpenRLHF}

// ComputedBy reports whether the method computes trainer t's advantages
// (Trainers).
func (spec *MethodSpec) ComputedBy(t Trainer) bool { return slices.Contains(spec.Trainers, t) }

// methodSpecs are the methods, in the order the dashboard cycles through
// them (MethodsFor).
var methodSpecs = []MethodSpec{
	{
		Method:          Absolute,
		Formula:         func(Options) string { return "s; normalised z(s)" },
		Note:            zScoredNote,
		RewardsScore:    true,
		RewardsWeighted: true,
		group: func(_ *rewarder, u, s []float64, _ *Result, _ []int, _ float64) bool {
			copy(u, s)
			return false
		},
	},
	{
		Method:          Relative,
		Formula:         func(Options) string { return "u = (rank(s) - 1) / (n - 1), 0.5 when n = 1; normalised z(u)" },
		Note:            zScoredNote,
		RewardsScore:    true,
		RewardsWeighted: true,
		group: func(rw *rewarder, u, s []float64, _ *Result, _ []int, _ float64) bool {
			rw.ord = relative(u, s, rw.ord)
			return false
		},
	},
	{
		Method:  GRPO,
		Settled: true,
		Formula: func(o Options) string {
			std, which := stdText(o)
			return "A = (s - mean(s)) / (" + std + "(s) + " + epsilonText(o.EpsilonOrDefault()) + "), " + std + " the " + which + " std (scale batch: the batch's); scale none or normalize off: s - mean(s); " + groupOfOneText(o, "n = 1: mean 0, "+std+" 1")
		},
		Note: func(o Options) string {
			if !o.Normalize || o.Scale == ScaleNone {
				return perScope(o, "centred, unscaled")
			}
			if o.Scope == ScopeBatch { // the group is the batch: either std is the batch's
				return perScope(o, "centred, scaled by the batch std")
			}
			return perScope(o, "centred, scaled by the "+string(o.Scale)+" std")
		},
		ReadsScale:      true,
		Divides:         true,
		ReadsGroupOfOne: true,
		Trainers:        []Trainer{TrainerTRL, TrainerVerl, TrainerOpenRLHF, TrainerOpenInstruct},
		AsIn:            "TRL GRPOTrainer; verl grpo; OpenRLHF group_norm; open-instruct",
		RewardsScore:    true,
		RewardsWeighted: true,
		group: func(rw *rewarder, u, s []float64, res *Result, _ []int, batchStd1 float64) bool {
			grpo(u, s, rw.ascending(s), res.Options, batchStd1)
			return true
		},
	},
	{
		Method:  RLOO,
		Settled: true,
		Formula: func(o Options) string {
			return "n / (n - 1) (s - mean(s)): s minus the mean of the others; " + groupOfOneText(o, "s when n = 1")
		},
		Note:            func(o Options) string { return perScope(o, "leave-one-out baseline") },
		Unnormalised:    "its reward is s minus the others' mean",
		ReadsGroupOfOne: true,
		Trainers:        []Trainer{TrainerTRL, TrainerVerl, TrainerOpenRLHF},
		AsIn:            "TRL RLOOTrainer; verl rloo; OpenRLHF rloo",
		RewardsScore:    true,
		RewardsWeighted: true,
		group: func(rw *rewarder, u, s []float64, res *Result, _ []int, _ float64) bool {
			rloo(u, s, rw.ascending(s), res.Options.GroupOfOne)
			return true
		},
	},
	{
		Method: Pareto,
		Formula: func(Options) string {
			return "u = 1 - rank / (R - 1), R fronts in the group (1 when R = 1); normalised z(u)"
		},
		Note: zScoredNote,
		group: func(_ *rewarder, u, _ []float64, res *Result, idx []int, _ float64) bool {
			for j, i := range idx {
				u[j] = paretoUtility(res.Ranking.Ranks[i], res.Ranking.Fronts[i])
			}
			return false
		},
	},
	{
		Method: ParetoCrowding,
		Formula: func(Options) string {
			return "relative's u on the order (rank ascending, crowding descending); normalised z(u)"
		},
		Note: zScoredNote,
		group: func(rw *rewarder, u, _ []float64, res *Result, idx []int, _ float64) bool {
			rw.paretoCrowding(u, res, idx)
			return false
		},
	},
	{
		Method: GDPO,
		Formula: func(o Options) string {
			eps := epsilonText(o.EpsilonOrDefault())
			std, _ := stdText(o)
			return "g_k = (o'_k - mean) / (" + std + " + " + eps + ") per objective; R = sum_k w_k g_k; A = (R - mean) / (" + std + "(R) + " + eps + ") over the batch"
		},
		// Under scope batch the group is the batch: the objectives are
		// z-scored over it, and so is their weighted sum after.
		Note: func(o Options) string {
			switch {
			case o.Scope == ScopeBatch && o.Normalize:
				return perScope(o, "objectives z-scored, then their weighted sum z-scored")
			case o.Scope == ScopeBatch:
				return perScope(o, "objectives z-scored, then their weighted sum centred")
			case o.Normalize:
				return perScope(o, "objectives z-scored per group, then over the batch")
			}
			return perScope(o, "objectives z-scored per group, then centred over the batch")
		},
		Divides:         true,
		Trainers:        []Trainer{TrainerTRL},
		AsIn:            "TRL GRPOTrainer, normalize_then_sum",
		RewardsWeighted: true,
		batch:           (*rewarder).gdpo,
	},
	{
		Method: RPPBaseline,
		Formula: func(Options) string {
			return "c = s - mean(s), mean(s) = 0 for a group of one; A = (c - mean(c)) / sqrt(var1(c) + 1e-8) over the batch, var1 the sample variance; 0 for a batch of one"
		},
		Note:            func(o Options) string { return perScope(o, "centred, then whitened over the batch") },
		Unnormalised:    "it is whitened over the batch, as verl's reinforce_plus_plus_baseline is whatever its settings",
		FixedDivisor:    "the sample std of the batch with 1e-8 added to its variance, as verl's masked_whiten",
		FixedGroupOfOne: GroupOfOneScore,
		Trainers:        []Trainer{TrainerVerl},
		AsIn:            "verl reinforce_plus_plus_baseline",
		RewardsScore:    true,
		RewardsWeighted: true,
		batch:           (*rewarder).rppBaseline,
	},
	{
		Method: RLOOWhitened,
		Formula: func(Options) string {
			return "c = n / (n - 1) (s - mean(s)) (rloo; a group of one 0, left out of the batch's mean and std); A = (c - mean(c)) / (std1(c) + 1e-4) over the batch; 0 for fewer than two"
		},
		Note:            func(o Options) string { return perScope(o, "leave-one-out baseline, whitened over the batch") },
		Unnormalised:    "it is whitened over the batch, as TRL's RLOOTrainer with normalize_advantages=True is",
		FixedDivisor:    "TRL's sample std of the batch plus 1e-4",
		FixedGroupOfOne: GroupOfOneZero,
		Trainers:        []Trainer{TrainerTRL},
		AsIn:            "TRL RLOOTrainer, normalize_advantages=True",
		RewardsScore:    true,
		RewardsWeighted: true,
		batch:           (*rewarder).rlooWhitened,
	},
	{
		Method: GRPOPassK,
		// The margin of the best over the second is 0; a group of one gets 0.
		Settled: true,
		Formula: func(o Options) string {
			std, which := stdText(o)
			return "the best: (max(s) - 2nd max(s)) / (" + std + "(s) + " + epsilonText(o.EpsilonOrDefault()) + "), " + std + " the " + which + " std (normalize off: unscaled); the others, a group of one: 0"
		},
		Note: func(o Options) string {
			if !o.Normalize {
				return perScope(o, "the best's margin over the second, unscaled")
			}
			return perScope(o, "the best's margin over the second, scaled by the group std")
		},
		Divides:         true,
		Trainers:        []Trainer{TrainerVerl},
		AsIn:            "verl grpo_passk",
		FixedGroupOfOne: GroupOfOneZero,
		RewardsScore:    true,
		RewardsWeighted: true,
		group: func(rw *rewarder, u, s []float64, res *Result, _ []int, _ float64) bool {
			grpoPassK(u, s, rw.ascending(s), res.Options)
			return true
		},
	},
	{
		Method: GPG,
		// A group of one is centred on 0 (verl's convention): alpha s.
		Settled: true,
		Formula: func(Options) string {
			return "A = alpha (s - mean(s)), mean(s) = 0 for a group of one; alpha = N / max(M, 1) over the batch, N its valid members, M those with s != 0"
		},
		Note:            func(o Options) string { return perScope(o, "centred, scaled by the batch's share of nonzero scores") },
		Unnormalised:    "its reward is verl's gpg advantage, scaled by the batch's share of nonzero scores whatever the settings",
		FixedGroupOfOne: GroupOfOneScore,
		Trainers:        []Trainer{TrainerVerl},
		AsIn:            "verl gpg",
		RewardsScore:    true,
		RewardsWeighted: true,
		batch:           (*rewarder).gpg,
	},
	{
		Method: Lexicographic,
		Formula: func(Options) string {
			return "relative's u on the order of the --priority objectives (ties by the next; with a tolerance t, values tie within one bucket floor(x / t)); normalised z(u)"
		},
		Note:        zScoredNote,
		HasSettings: func(o Options) bool { return len(o.Priority) > 0 },
		group: func(rw *rewarder, u, _ []float64, res *Result, idx []int, _ float64) bool {
			if rw.priorities == nil {
				rw.priorities = priorityKeys(res.Evaluation.Objectives, res.Options)
			}
			rw.idx2 = lexicographicRewards(u, res, rw.priorities, idx, rw.idx2)
			return false
		},
	},
}

// Methods lists the methods that need no settings of their own, in the
// order of methodSpecs.
var Methods = methodsWhere(func(spec *MethodSpec) bool { return spec.HasSettings == nil })

// methodsWithSettings lists the methods that need settings of their own
// (MethodSpec.HasSettings).
var methodsWithSettings = methodsWhere(func(spec *MethodSpec) bool { return spec.HasSettings != nil })

// AllMethods returns Methods then methodsWithSettings: every method.
func AllMethods() []Method { return slices.Concat(Methods, methodsWithSettings) }

// MethodsFor lists the methods options o can compute, in the order of
// methodSpecs: Methods, and each method needing settings of its own whose
// settings o gives (lexicographic with priorities). The dashboard cycles
// through them.
func MethodsFor(o Options) []Method {
	return methodsWhere(func(spec *MethodSpec) bool { return spec.HasSettings == nil || spec.HasSettings(o) })
}

// methodsWhere lists the methods of methodSpecs that keep says to keep.
func methodsWhere(keep func(spec *MethodSpec) bool) []Method {
	var ms []Method
	for i := range methodSpecs {
		if keep(&methodSpecs[i]) {
			ms = append(ms, methodSpecs[i].Method)
		}
	}
	return ms
}

// Spec returns the spec of method m, nil for a method not in AllMethods
// (which parseMethod never returns).
func Spec(m Method) *MethodSpec {
	for i := range methodSpecs {
		if methodSpecs[i].Method == m {
			return &methodSpecs[i]
		}
	}
	return nil
}

// RewardsWeighted says whether the weights enter the rewards of method m
// (MethodSpec.RewardsWeighted); false for an unknown method.
func (m Method) RewardsWeighted() bool {
	spec := Spec(m)
	return spec != nil && spec.RewardsWeighted
}

// ReadsNormalize says whether Options.Normalize changes the rewards of
// method m (MethodSpec.Unnormalised is ""); false for an unknown method.
func (m Method) ReadsNormalize() bool {
	spec := Spec(m)
	return spec != nil && spec.Unnormalised == ""
}

// RewardsScore says whether the rewards of method m follow the weighted
// score (MethodSpec.RewardsScore); false for an unknown method.
func (m Method) RewardsScore() bool {
	spec := Spec(m)
	return spec != nil && spec.RewardsScore
}

// ScoresGroupOfOne reports whether the method of o rewards the one valid
// trajectory of a group of one by its score, which gives the group
// signal: a method that reads Options.GroupOfOne under GroupOfOneScore
// (grpo, rloo), or one whose FixedGroupOfOne is GroupOfOneScore (gpg,
// rpp-baseline); false for an unknown method.
func (o Options) ScoresGroupOfOne() bool {
	spec := Spec(o.Method)
	if spec == nil {
		return false
	}
	if spec.ReadsGroupOfOne {
		return o.GroupOfOne == GroupOfOneScore
	}
	return spec.FixedGroupOfOne == GroupOfOneScore
}

// zScoredNote is the note of a method normalised by z-scores.
func zScoredNote(o Options) string {
	if o.Normalize {
		return perScope(o, "z-scored")
	}
	return perScope(o, "not normalised")
}

// groupOfOneText is what grpo's or rloo's formula gives a group of one
// under o's GroupOfOne: "0 when n = 1", or, with GroupOfOneScore, score
// (what the method gives it then) with the convention named.
func groupOfOneText(o Options, score string) string {
	if o.GroupOfOne == GroupOfOneScore {
		return score + " (a group of one: score)"
	}
	return "0 when n = 1"
}

// stdText names the std o divides by as the formulas do, and says which
// it is: std1, the sample std, or std0, the population std (--std).
func stdText(o Options) (name, which string) {
	if o.Std == StdPopulation {
		return "std0", "population"
	}
	return "std1", "sample"
}

// perScope is a note for the comparison scope of o: "per group, how".
func perScope(o Options, how string) string { return fmt.Sprintf("per %s, %s", o.Scope, how) }

// epsilonText writes an epsilon as a formula does: 1e-4, 1e-6, 2.5e-5.
func epsilonText(eps float64) string {
	mant, exp, _ := strings.Cut(strconv.FormatFloat(eps, 'e', -1, 64), "e")
	sign := exp[:1]
	if sign == "+" {
		sign = ""
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}
