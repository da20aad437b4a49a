package engine

import (
	"github.com/rewardlens/rewardlens/internal/suggest"
	"github.com/rewardlens/rewardlens/stats"
)

// Method names a reward method (docs/CONTRACT.md, Methods).
type Method string

// The reward methods; methodSpecs (methods.go) says what each is.
const (
	Absolute       Method = "absolute"
	Relative       Method = "relative"
	GRPO           Method = "grpo"
	RLOO           Method = "rloo"
	Pareto         Method = "pareto"
	ParetoCrowding Method = "pareto-crowding"
	GDPO           Method = "gdpo"
	RPPBaseline    Method = "rpp-baseline"
	RLOOWhitened   Method = "rloo-whitened"
	GRPOPassK      Method = "grpo-passk"
	GPG            Method = "gpg"
)

// Scope says what a comparison group is: trajectories sharing a group within
// a batch (ScopeGroup), or the whole batch (ScopeBatch).
type Scope string

// The comparison scopes.
const (
	ScopeGroup Scope = "group"
	ScopeBatch Scope = "batch"
)

// Scopes lists every scope.
var Scopes = []Scope{ScopeGroup, ScopeBatch}

// Scale says what standard deviation divides GRPO's advantage.
type Scale string

// The GRPO scales.
const (
	ScaleGroup Scale = "group"
	ScaleBatch Scale = "batch"
	ScaleNone  Scale = "none"
)

// Scales lists every GRPO scale.
var Scales = []Scale{ScaleGroup, ScaleBatch, ScaleNone}

// Std says which standard deviation grpo and gdpo divide by: the sample
// std sqrt(sum (x - mean)^2 / (n - 1)), as TRL and verl take it
// (torch's std), or the population std sqrt(sum (x - mean)^2 / n), as
// open-instruct's "standard" advantage takes it (numpy's std).
type Std string

// The standard deviations.
const (
	StdSample     Std = "sample"
	StdPopulation Std = "population"
)

// Stds lists every standard deviation.
var Stds = []Std{StdSample, StdPopulation}

// GroupOfOne says what grpo and rloo give the one valid trajectory of a
// comparison group of one.
type GroupOfOne string

// The conventions for a group of one.
const (
	// GroupOfOneZero gives it 0 (TRL, whose groups are never of one in
	// training).
	GroupOfOneZero GroupOfOne = "zero"
	// GroupOfOneScore takes the group's mean as 0 and its std as 1, as
	// verl's compute_grpo_outcome_advantage and
	// compute_rloo_outcome_advantage do: grpo gives s / (1 + epsilon)
	// (s unscaled), rloo gives s.
	GroupOfOneScore GroupOfOne = "score"
)

// GroupOfOnes lists every convention for a group of one.
var GroupOfOnes = []GroupOfOne{GroupOfOneZero, GroupOfOneScore}

// ScorePrecision says in what arithmetic the weighted score
// sum_k w_k o'_k is computed: float64, or float32 as a trainer that sums
// its rewards in float32 tensors (TRL), so that the scores tie where the
// trainer's do (scoring.Sum32).
type ScorePrecision string

// The score precisions.
const (
	ScoreFloat64 ScorePrecision = "float64"
	ScoreFloat32 ScorePrecision = "float32"
)

// ScorePrecisions lists every score precision.
var ScorePrecisions = []ScorePrecision{ScoreFloat64, ScoreFloat32}

// DefaultEpsilon is what grpo and gdpo add to the std they divide by, as
// TRL does (verl uses 1e-6, OpenRLHF 1e-9: Options.Epsilon).
const DefaultEpsilon = 1e-4

// parseMethod returns the method named s, or an error listing the valid names.
func parseMethod(s string) (Method, error) { return suggest.Parse("method", s, AllMethods()) }

// parseScope returns the scope named s, or an error listing the valid names.
func parseScope(s string) (Scope, error) { return suggest.Parse("scope", s, Scopes) }

// parseScale returns the scale named s, or an error listing the valid names.
func parseScale(s string) (Scale, error) { return suggest.Parse("scale", s, Scales) }

// parseStd returns the standard deviation named s, or an error listing the
// valid names.
func parseStd(s string) (Std, error) { return suggest.Parse("std", s, Stds) }

// parseGroupOfOne returns the convention named s, or an error listing the
// valid names.
func parseGroupOfOne(s string) (GroupOfOne, error) {
	return suggest.Parse("group of one", s, GroupOfOnes)
}

// parseScorePrecision returns the score precision named s, or an error
// listing the valid names.
func parseScorePrecision(s string) (ScorePrecision, error) {
	return suggest.Parse("score precision", s, ScorePrecisions)
}

// Options are the settings of a reward computation that do not change what
// the scorer evaluates: the method and how it compares and normalises.
type Options struct {
	Method    Method
	Scope     Scope
	Scale     Scale
	Normalize bool
	// Weights, when not nil, replace the scorer's objective weights (one per
	// objective, in order): the score is sum_k Weights[k] * o'_k.
	Weights []float64
	// Epsilon is added to the std that grpo and gdpo divide by; 0 stands
	// for DefaultEpsilon.
	Epsilon float64
	// Std is the std that grpo and gdpo divide by; "" stands for
	// StdSample.
	Std Std
	// GroupOfOne is what grpo and rloo give a group of one valid
	// trajectory; "" stands for GroupOfOneZero.
	GroupOfOne GroupOfOne
	// ScorePrecision is the arithmetic of the weighted sum; "" stands for
	// ScoreFloat64.
	ScorePrecision ScorePrecision
	// Penalty is lambda in score - lambda * violation, with constraints
	// (DefaultOptions: DefaultPenalty).
	Penalty float64
	// NormalizeObjectives normalises each objective within its comparison
	// group before weighting; "" stands for NormNone.
	NormalizeObjectives ObjectiveNorm
	// Priority names lexicographic's objectives, in order, and
	// PriorityTolerance the tolerance of some of them (lexicographic.go).
	Priority          []string
	PriorityTolerance map[string]float64
}

// EpsilonOrDefault returns o.Epsilon, or DefaultEpsilon when it is 0.
func (o Options) EpsilonOrDefault() float64 {
	if o.Epsilon == 0 {
		return DefaultEpsilon
	}
	return o.Epsilon
}

// StdOf returns the std of x that grpo and gdpo divide by: the sample std
// (NaN for fewer than two values) or, with StdPopulation, the population
// std (0 for one value, as numpy's).
func (o Options) StdOf(x []float64) float64 {
	if o.Std == StdPopulation {
		_, std := stats.PopMeanStd(x)
		return std
	}
	return stats.SampleStd(x)
}

// scoreIn32 reports whether o's weighted score is summed in float32.
func (o Options) scoreIn32() bool { return o.ScorePrecision == ScoreFloat32 }

// DefaultOptions returns the defaults (docs/CONTRACT.md, Settings): method
// pareto, scope group, scale group, normalize on, epsilon 1e-4, the sample
// std, a group of one rewarded 0, the score in float64, penalty 1, no
// objective normalisation.
func DefaultOptions() Options {
	return Options{Method: Pareto, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: DefaultEpsilon, Std: StdSample, GroupOfOne: GroupOfOneZero, ScorePrecision: ScoreFloat64, Penalty: DefaultPenalty, NormalizeObjectives: NormNone}
}
