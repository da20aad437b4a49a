package diagnose

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/stats"
)

// GroupSummary describes one prompt group of a batch: the trajectories
// that share a group value, GRPO's unit of comparison. It depends on the
// scores and the scope, not on the method (see RewardRange).
type GroupSummary struct {
	// Key is the group value.
	Key string
	// Members are the group's trajectories, in input order.
	Members []int
	// N counts the members, Valid the valid ones.
	N, Valid int
	// Score summarises the valid members' scores: mean, population std,
	// min and max (NaN when none is valid). Only those fields of the
	// stats.Summary are set; the quantiles are NaN.
	Score stats.Summary
	// ZeroSpread reports that the valid scores all equal, or that fewer
	// than two members are valid: every method that compares within the
	// group (GRPO, RLOO, relative) gives it no signal.
	ZeroSpread bool
	// Frontier counts the valid members of Pareto rank 0 (with scope
	// batch, of rank 0 in the batch).
	Frontier int
}

// ScoreStd returns the std of the valid members' scores as grpo's
// normalisation takes it under std (engine.Options.StdOf): with
// StdSample std1, the population std times sqrt(n / (n - 1)), NaN for
// fewer than two; with StdPopulation std0.
func (g *GroupSummary) ScoreStd(std engine.Std) float64 {
	if std == engine.StdPopulation {
		return g.Score.Std
	}
	n := float64(g.Score.Count)
	if n < 2 {
		return math.NaN()
	}
	return g.Score.Std * math.Sqrt(n/(n-1))
}

// NoSignal reports whether a method comparing within the group (GRPO,
// RLOO, relative) gives it no signal under o: it has zero spread, unless
// it is a group of one valid trajectory that o rewards by its score
// (Options.ScoresGroupOfOne: grpo or rloo with --group-of-one score, as
// verl's compute_grpo_outcome_advantage, mean 0 and std 1, and
// compute_rloo_outcome_advantage do; gpg and rpp-baseline whatever
// --group-of-one, verl's mean 0). Otherwise a group of one gets 0, as
// TRL's _generate_and_score_completions gives it (std_rewards zeros when
// num_generations is 1, counted in frac_reward_zero_std).
// BatchStats.ZeroStdGroups counts the groups holding a valid trajectory
// of which this is true.
func (g *GroupSummary) NoSignal(o engine.Options) bool {
	return g.ZeroSpread && !(g.Valid == 1 && o.ScoresGroupOfOne())
}

// StdName is the notation of CONTRACT's formulas for std: std1 for the
// sample std, std0 for the population std.
func StdName(std engine.Std) string {
	if std == engine.StdPopulation {
		return "std0"
	}
	return "std1"
}

// RewardRange bounds the rewards of all a group's members, as compute
// writes them (an invalid member's is the neutral reward, 0 in a group
// without a valid one): the part of a group's description that a method
// changes.
type RewardRange struct{ Min, Max float64 }

// groupCache holds what was computed of the groups of a batch of members
// trajectories: a batch that grew in follow mode has it computed again.
type groupCache[T any] struct {
	members int
	of      []T
}

// GroupSummaries returns the summary of every group of batch b, in order
// of first appearance: the groups of scope group whatever the result's
// scope. They are computed once per batch, in O(len(b.Members)), for all
// the results of the same weights and scope (a method switch reuses them;
// a result of Recompute has its own); callers must not modify them.
func GroupSummaries(res *engine.Result, b *engine.Batch) []GroupSummary {
	cache := res.ScoreCache()
	if cache == nil {
		cache = res.Cache()
	}
	key := engine.CacheKey{Of: engine.OfGroupSummaries, Scope: res.Ranking.Scope, Step: b.Step}
	return engine.Cached(cache, key, holds[GroupSummary](b), func() groupCache[GroupSummary] {
		return groupCache[GroupSummary]{len(b.Members), groupSummaries(res, b)}
	}).of
}

// GroupRewardRanges returns the range of the rewards as shown
// (engine.Result.ShownReward) of each group of GroupSummaries(b), in the
// same order, computed once per result and
// batch; callers must not modify them.
func GroupRewardRanges(res *engine.Result, b *engine.Batch) []RewardRange {
	return engine.Cached(res.Cache(), engine.CacheKey{Of: engine.OfRewardRanges, Step: b.Step}, holds[RewardRange](b), func() groupCache[RewardRange] {
		return groupCache[RewardRange]{len(b.Members), groupRewardRanges(res, b)}
	}).of
}

// holds is the freshness of what was computed of the groups of b.
func holds[T any](b *engine.Batch) func(groupCache[T]) bool {
	return func(c groupCache[T]) bool { return c.members == len(b.Members) }
}

func groupRewardRanges(res *engine.Result, b *engine.Batch) []RewardRange {
	groups := GroupSummaries(res, b)
	res.ComputeBatchOf(b)
	out := make([]RewardRange, len(groups))
	parallel.Chunks(len(groups), groupChunk, parallel.Workers(len(b.Members), engine.RewardChunk), func(_, lo, hi int) {
		for gi := lo; gi < hi; gi++ {
			r := RewardRange{math.Inf(1), math.Inf(-1)}
			for _, i := range groups[gi].Members {
				r.Min, r.Max = min(r.Min, res.ShownReward(i)), max(r.Max, res.ShownReward(i))
			}
			out[gi] = r
		}
	})
	return out
}

// groupChunk is how many groups a core takes at a time: a large batch has
// groups by the hundred thousand.
const groupChunk = 1 << 12

func groupSummaries(res *engine.Result, b *engine.Batch) []GroupSummary {
	groups := b.Groups
	if res.Options.Scope != engine.ScopeGroup {
		groups = groupsOf(res.Evaluation, b.Members)
	}
	out := make([]GroupSummary, len(groups))
	parallel.Chunks(len(groups), groupChunk, parallel.Workers(len(b.Members), engine.RewardChunk), func(_, lo, hi int) {
		var scores []float64
		for gi := lo; gi < hi; gi++ {
			scores = summarizeGroup(res, &out[gi], groups[gi], scores)
		}
	})
	return out
}

// summarizeGroup writes the summary of group g into s, with scratch space
// for its valid scores, which it returns for the next call.
func summarizeGroup(res *engine.Result, s *GroupSummary, g engine.Group, scores []float64) []float64 {
	nan := math.NaN()
	*s = GroupSummary{
		Key: g.Key, Members: g.Members, N: len(g.Members),
		Score: stats.Summary{Mean: nan, Std: nan, Min: nan, P25: nan, Median: nan, P75: nan, Max: nan},
	}
	scores = scores[:0]
	for _, i := range g.Members {
		if !res.Evaluation.Valid[i] {
			continue
		}
		score := res.Scores[i]
		if len(scores) == 0 {
			s.Score.Min, s.Score.Max = score, score
		}
		scores = append(scores, score)
		s.Score.Min, s.Score.Max = min(s.Score.Min, score), max(s.Score.Max, score)
		if res.Ranking.Ranks[i] == 0 {
			s.Frontier++
		}
	}
	s.Valid, s.Score.Count = len(scores), len(scores)
	s.ZeroSpread = s.Valid < 2 || s.Score.Min == s.Score.Max
	if s.Valid > 0 {
		s.Score.Mean, s.Score.Std = popMeanStdSmall(scores)
	}
	return scores
}

// popMeanStdSmall returns PopMeanStd(x) for a non-empty x, computed in
// place for the few values of a group (a call into gonum per group of 8
// took most of the summaries' time): the corrected two-pass variance, as
// stat.PopMeanVariance computes it, and PopMeanStd itself when the sum
// overflows.
func popMeanStdSmall(x []float64) (mean, std float64) {
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	n := float64(len(x))
	mean = sum / n
	if math.IsInf(mean, 0) || math.IsNaN(mean) {
		return stats.PopMeanStd(x)
	}
	var ss, comp float64
	for _, v := range x {
		d := v - mean
		ss += d * d
		comp += d
	}
	v := (ss - comp*comp/n) / n
	if math.IsInf(v, 0) {
		return stats.PopMeanStd(x)
	}
	return mean, math.Sqrt(max(v, 0))
}

// groupsOf splits members into groups by group value, in order of first
// appearance, each listing its members in input order.
func groupsOf(ev *engine.Evaluation, members []int) []engine.Group {
	index := make(map[int32]int)
	var groups []engine.Group
	for _, i := range members {
		name := ev.GroupIndex(i)
		g, ok := index[name]
		if !ok {
			g = len(groups)
			index[name] = g
			groups = append(groups, engine.Group{Key: ev.GroupName(name)})
		}
		groups[g].Members = append(groups[g].Members, i)
	}
	for g := range groups {
		groups[g].Members = slices.Clip(groups[g].Members)
	}
	return groups
}
