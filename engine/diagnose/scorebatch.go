package diagnose

import (
	"context"
	"math"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/stats"
)

// scoreBatch holds a batch's statistics that depend on the scores and the
// scope, not on the method.
type scoreBatch struct {
	members int
	// score summarises the valid scores.
	score stats.Summary
	// fronts and frontierSize are BatchStats' Fronts and FrontierSize.
	fronts, frontierSize int
	// groups counts the comparison groups holding a valid trajectory, of
	// which alone hold one and zeroStd more, all of equal scores: whether
	// a group of one has signal depends on the method (zeroStdGroups).
	groups, alone, zeroStd int
	scoreGroupStd          float64
	fracAtMax              float64
}

// scoreBatchOf returns the score statistics of b, a batch of res, whose
// valid members are valid, computed once per set of weights, scope and
// batch. The caller must not modify them.
func scoreBatchOf(res *engine.Result, b *engine.Batch, valid []int) *scoreBatch {
	cache := res.ScoreCache()
	if cache == nil {
		return computeScoreBatch(res, b, valid)
	}
	key := engine.CacheKey{Of: engine.OfScoreBatch, Scope: res.Ranking.Scope, Step: b.Step}
	return engine.Cached(cache, key, func(c *scoreBatch) bool { return c.members == len(b.Members) },
		func() *scoreBatch { return computeScoreBatch(res, b, valid) })
}

// computeScoreBatch computes scoreBatchOf.
func computeScoreBatch(res *engine.Result, b *engine.Batch, valid []int) *scoreBatch {
	c := &scoreBatch{members: len(b.Members)}
	c.score = summarizeOf(res, res.Scores, valid)
	for _, i := range valid {
		c.fronts = max(c.fronts, res.Ranking.Fronts[i])
		if res.Ranking.Ranks[i] == 0 {
			c.frontierSize++
		}
	}
	for _, g := range b.Groups {
		lo, hi, valid := math.Inf(1), math.Inf(-1), 0
		for _, i := range g.Members {
			if res.Evaluation.Valid[i] {
				lo, hi, valid = min(lo, res.Scores[i]), max(hi, res.Scores[i]), valid+1
			}
		}
		switch {
		case valid == 1:
			c.groups++
			c.alone++
		case valid > 1:
			c.groups++
			if lo == hi {
				c.zeroStd++
			}
		}
	}
	c.scoreGroupStd = scoreGroupStd(res, b)
	c.fracAtMax = fracAtMax(res, b)
	return c
}

// zeroStdGroups returns BatchStats.ZeroStdGroups of a batch whose score
// statistics are c: its groups of two valid trajectories or more whose
// scores all equal, and its groups of one unless res's method rewards
// them by their score (Options.ScoresGroupOfOne), as GroupSummary.NoSignal has it.
func zeroStdGroups(res *engine.Result, c *scoreBatch) int {
	if res.Options.ScoresGroupOfOne() {
		return c.zeroStd
	}
	return c.zeroStd + c.alone
}

// summarizePresent returns Summarize of x's values that are not NaN (an
// objectiveColumn's present values), sorting a copy of them in a scratch
// buffer.
func summarizePresent(x []float64) stats.Summary {
	buf := parallel.GetFloats(len(x))
	*buf = (*buf)[:0]
	for _, v := range x {
		if !math.IsNaN(v) {
			*buf = append(*buf, v)
		}
	}
	s := stats.SummarizeInPlace(*buf)
	parallel.PutFloats(buf)
	return s
}

// summarizeOf returns Summarize of x's values at valid, gathered and
// sorted in a scratch buffer.
func summarizeOf(res *engine.Result, x []float64, valid []int) stats.Summary {
	buf := parallel.GetFloats(len(valid))
	*buf = parallel.Gather(*buf, x, valid)
	s := stats.SummarizeInPlace(*buf)
	parallel.PutFloats(buf)
	return s
}

// cachedHypervolume returns hypervolume(ctx, res, b, ref), computed once
// per evaluation, scope, batch and reference point: it depends on neither
// the method nor the weights.
func cachedHypervolume(ctx context.Context, res *engine.Result, b *engine.Batch, ref []float64) float64 {
	if res.Evaluation.M < 2 || res.Evaluation.M > 3 {
		return math.NaN()
	}
	return engine.Cached(res.Evaluation.Cache(), hypervolumeKey(res, b, ref), func(float64) bool { return true }, func() float64 { return hypervolume(ctx, res, b, ref) })
}

// hypervolumeKey is the key of b's hypervolume against the oriented
// reference point ref, in the evaluation's cache.
func hypervolumeKey(res *engine.Result, b *engine.Batch, ref []float64) engine.CacheKey {
	key := engine.CacheKey{Of: engine.OfHypervolume, Scope: res.Ranking.Scope, Step: b.Step, Members: len(b.Members)}
	for k, v := range ref {
		key.Ref[k] = math.Float64bits(v)
	}
	return key
}
