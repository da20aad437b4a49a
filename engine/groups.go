package engine

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/stats"
)

// GroupSummary describes one prompt group of a batch: the trajectories
// that share a group value, GRPO's unit of comparison.
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
	// RewardMin and RewardMax bound the valid members' rewards (NaN when
	// none is valid).
	RewardMin, RewardMax float64
	// ZeroSpread reports that the valid scores all equal, or that fewer
	// than two members are valid: every method that compares within the
	// group (GRPO, RLOO, relative) gives it no signal.
	ZeroSpread bool
	// Frontier counts the valid members of Pareto rank 0 (with scope
	// batch, of rank 0 in the batch).
	Frontier int
}

// GroupSummaries returns the summary of every group of batch b, in order
// of first appearance: the groups of scope group whatever the result's
// scope. They are computed once per result and batch, in O(len(b.Members));
// callers must not modify them.
func (res *Result) GroupSummaries(b *Batch) []GroupSummary {
	res.statsMu.Lock()
	gs, ok := res.groups[b.Step]
	res.statsMu.Unlock()
	if ok && groupsHold(gs, len(b.Members)) {
		return gs
	}
	gs = res.groupSummaries(b)
	res.statsMu.Lock()
	if res.groups == nil {
		res.groups = map[int64][]GroupSummary{}
	}
	res.groups[b.Step] = gs
	res.statsMu.Unlock()
	return gs
}

// groupsHold reports whether the summaries gs count n trajectories: a
// batch that grew in follow mode has its summaries computed again.
func groupsHold(gs []GroupSummary, n int) bool {
	total := 0
	for _, g := range gs {
		total += g.N
	}
	return total == n
}

func (res *Result) groupSummaries(b *Batch) []GroupSummary {
	groups := b.Groups
	if res.Options.Scope != ScopeGroup {
		groups = res.Evaluation.groupsOf(b.Members)
	}
	res.statsMu.Lock()
	out := res.spareGroups[b.Step]
	delete(res.spareGroups, b.Step)
	res.statsMu.Unlock()
	if cap(out) >= len(groups) {
		out = out[:len(groups)] // summarizeGroup writes every field
	} else {
		out = make([]GroupSummary, len(groups))
	}
	// On every core, a range of groups at a time: a batch of a million has
	// a hundred thousand groups, summarised again after each switch.
	const chunk = 1 << 12
	parallelChunks(len(groups), chunk, workers(len(b.Members), rewardChunk), func(_, lo, hi int) {
		var scores []float64
		for gi := lo; gi < hi; gi++ {
			scores = res.summarizeGroup(&out[gi], groups[gi], scores)
		}
	})
	return out
}

// summarizeGroup writes the summary of group g into s, with scratch space
// for its valid scores, which it returns for the next call.
func (res *Result) summarizeGroup(s *GroupSummary, g Group, scores []float64) []float64 {
	nan := math.NaN()
	*s = GroupSummary{
		Key: g.Key, Members: g.Members, N: len(g.Members),
		Score:     stats.Summary{Mean: nan, Std: nan, Min: nan, P25: nan, Median: nan, P75: nan, Max: nan},
		RewardMin: nan, RewardMax: nan,
	}
	scores = scores[:0]
	for _, i := range g.Members {
		if !res.Valid[i] {
			continue
		}
		score, reward := res.Scores[i], res.Rewards[i]
		if len(scores) == 0 {
			s.Score.Min, s.Score.Max, s.RewardMin, s.RewardMax = score, score, reward, reward
		}
		scores = append(scores, score)
		s.Score.Min, s.Score.Max = min(s.Score.Min, score), max(s.Score.Max, score)
		s.RewardMin, s.RewardMax = min(s.RewardMin, reward), max(s.RewardMax, reward)
		if res.Ranks[i] == 0 {
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
func (ev *Evaluation) groupsOf(members []int) []Group {
	index := make(map[int32]int)
	var groups []Group
	for _, i := range members {
		name := ev.groupOf[i]
		g, ok := index[name]
		if !ok {
			g = len(groups)
			index[name] = g
			groups = append(groups, Group{Key: ev.groupNames[name]})
		}
		groups[g].Members = append(groups[g].Members, i)
	}
	for g := range groups {
		groups[g].Members = slices.Clip(groups[g].Members)
	}
	return groups
}
