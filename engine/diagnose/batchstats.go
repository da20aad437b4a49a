package diagnose

import (
	"math"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/stats"
)

// ObjectiveStats is the summary of one objective's raw values over the
// valid trajectories that have one: Missing counts those whose value is
// missing (under nansum, which counts it 0 in the score: TRL's None), left
// out of the summary as TRL's nanmean leaves them, so Count + Missing is
// the number of valid trajectories whose source has the objective (every
// valid one without sources: another source's 0 is no value of it).
type ObjectiveStats struct {
	scoring.Objective
	stats.Summary
	Missing int
}

// Counts are a batch's counts of trajectories and the shares of the
// valid ones that meet the constraints: what a dashboard's header shows of
// a batch, counted without a pass over its rewards and objectives
// (CountsOf).
type Counts struct {
	Step int64
	// Trajectories counts the batch's trajectories: the valid, the
	// Invalid and the Dropped (the group filter's, engine.Evaluation.
	// Dropped, which are not invalid data).
	Trajectories, Invalid, Dropped int
	// Feasible is the share of the valid trajectories that meet every
	// constraint (1 without constraints, NaN without valid trajectories),
	// ConstraintFeasible the share that meets each (nil without
	// constraints).
	Feasible           float64
	ConstraintFeasible []float64
}

// Valid returns how many of the batch's trajectories are valid.
func (c *Counts) Valid() int { return c.Trajectories - c.Invalid - c.Dropped }

// BatchStats are the statistics of one batch (docs/CONTRACT.md,
// Statistics), over its valid trajectories.
type BatchStats struct {
	Counts
	// Groups counts the comparison groups that hold a valid trajectory.
	Groups     int
	Objectives []ObjectiveStats
	Score      stats.Summary
	Reward     stats.Summary
	// Correlation is the Pearson correlation matrix of the objectives, each
	// pair over the trajectories that have both values (neither Missing
	// nor of a source without it), NaN where an objective is constant.
	Correlation [][]float64
	// Fronts is the largest number of fronts of a comparison group; with
	// scope batch, the batch's number of fronts.
	Fronts int
	// FrontierSize counts the trajectories of rank 0 over all groups.
	FrontierSize int
	// ZeroStdGroups counts the comparison groups (holding a valid
	// trajectory) without signal (GroupSummary.NoSignal): those of two
	// valid trajectories or more whose scores all equal, and those of one
	// unless the method rewards it by its score (verl's convention);
	// FracZeroStdGroups is their fraction of Groups: TRL's
	// frac_reward_zero_std.
	ZeroStdGroups     int
	FracZeroStdGroups float64
}

// Stats returns the statistics of every batch, in ascending step order.
func Stats(res *engine.Result) []BatchStats {
	out := make([]BatchStats, len(res.Ranking.Batches))
	for i := range res.Ranking.Batches {
		out[i] = StatsOf(res, &res.Ranking.Batches[i])
	}
	return out
}

// StatsOf returns the statistics of batch b of res. They are computed once per
// result and batch (the dashboard's tabs and trends all ask for them); each
// call returns its own copy.
func StatsOf(res *engine.Result, b *engine.Batch) BatchStats {
	res.ComputeBatchOf(b)
	st := engine.Cached(res.Cache(), statsKey(b), statsFresh(b),
		func() *BatchStats {
			st := batchStats(res, b)
			return &st
		})
	out := *st
	out.Objectives = slices.Clone(st.Objectives)
	out.ConstraintFeasible = slices.Clone(st.ConstraintFeasible)
	if st.Correlation != nil {
		out.Correlation = make([][]float64, len(st.Correlation))
	}
	for a, row := range st.Correlation {
		out.Correlation[a] = slices.Clone(row)
	}
	return out
}

// StatsComputed reports whether StatsOf(res, b) finds its statistics
// computed.
func StatsComputed(res *engine.Result, b *engine.Batch) bool {
	st, ok := res.Cache().Get(statsKey(b))
	return ok && statsFresh(b)(st.(*BatchStats))
}

// statsKey is the key of batch b's statistics in its result's cache.
func statsKey(b *engine.Batch) engine.CacheKey {
	return engine.CacheKey{Of: engine.OfBatchStats, Step: b.Step}
}

// statsFresh says whether statistics kept under statsKey(b) are b's as it
// is now (a followed batch grows).
func statsFresh(b *engine.Batch) func(*BatchStats) bool {
	return func(st *BatchStats) bool { return st.Trajectories == len(b.Members) }
}

// CountsOf returns the counts of batch b of res, StatsOf's Counts,
// without the rest of its statistics, which take a pass over the rewards
// and the objectives. They depend on the evaluation alone, computed once
// per evaluation and batch; each call returns its own copy.
func CountsOf(res *engine.Result, b *engine.Batch) Counts {
	c := *cachedCounts(res, b)
	c.ConstraintFeasible = slices.Clone(c.ConstraintFeasible)
	return c
}

// cachedCounts returns the counts of batch b of res, kept in its
// evaluation's cache: not to be modified.
func cachedCounts(res *engine.Result, b *engine.Batch) *Counts {
	return engine.Cached(res.Evaluation.Cache(), engine.CacheKey{Of: engine.OfBatchCounts, Step: b.Step}, func(c *Counts) bool { return c.Trajectories == len(b.Members) },
		func() *Counts {
			c := countsOf(res, b, res.ValidOf(b))
			return &c
		})
}

// countsOf counts batch b, whose valid members are valid.
func countsOf(res *engine.Result, b *engine.Batch, valid []int) Counts {
	dropped := res.Evaluation.DroppedIn(b.Members)
	c := Counts{
		Step:         b.Step,
		Trajectories: len(b.Members),
		Invalid:      len(b.Members) - len(valid) - dropped,
		Dropped:      dropped,
	}
	feasibleShares(res, &c, valid)
	return c
}

// batchStats computes the statistics of batch b.
func batchStats(res *engine.Result, b *engine.Batch) BatchStats {
	valid := res.ValidOf(b)
	st := BatchStats{Counts: *cachedCounts(res, b)}
	// The objectives' statistics, the scores' and the rewards' on both
	// cores: a dashboard waits for them before its first frame.
	var (
		summaries []stats.Summary
		missing   []int
		corr      [][]float64
		wg        sync.WaitGroup
	)
	wg.Go(func() { summaries, missing, corr = objectiveStats(res, b, valid) })
	scores := scoreBatchOf(res, b, valid)
	st.Reward = summarizeOf(res, res.Rewards, valid)
	wg.Wait()
	for k, o := range res.Objectives {
		o.Weight = res.Evaluation.ObjectiveWeight(k, o.Weight)
		st.Objectives = append(st.Objectives, ObjectiveStats{Objective: o, Summary: summaries[k], Missing: missing[k]})
	}
	if corr != nil {
		st.Correlation = make([][]float64, res.Evaluation.M)
	}
	for a := range corr {
		st.Correlation[a] = slices.Clone(corr[a])
	}
	st.Score = scores.score
	st.Fronts, st.FrontierSize = scores.fronts, scores.frontierSize
	st.Groups, st.ZeroStdGroups = scores.groups, zeroStdGroups(res, scores)
	if st.Groups > 0 {
		st.FracZeroStdGroups = float64(st.ZeroStdGroups) / float64(st.Groups)
	} else {
		st.FracZeroStdGroups = math.NaN()
	}
	return st
}

// MaxCorrelationObjectives is the most objectives whose correlation
// matrix a batch's statistics hold: beyond it the matrix (m² numbers, and
// as many Pearson passes over the batch) is left out, Correlation is nil
// and the statistics stay linear in m.
const MaxCorrelationObjectives = 64

// objectiveColumns are the per-objective statistics of a batch, which depend
// on the evaluation alone: a method, weight or scope change reuses them.
type objectiveColumns struct {
	members   int
	summaries []stats.Summary
	missing   []int
	corr      [][]float64
}

// objectiveStats returns the summary of each objective over valid, the
// valid members of batch b, with how many of them miss its value
// (ObjectiveStats.Missing), and their correlation matrix, computed once per
// evaluation and batch. The caller must not modify them.
func objectiveStats(res *engine.Result, b *engine.Batch, valid []int) ([]stats.Summary, []int, [][]float64) {
	c := engine.Cached(res.Evaluation.Cache(), engine.CacheKey{Of: engine.OfObjectiveStats, Step: b.Step}, func(c *objectiveColumns) bool { return c.members == len(b.Members) },
		func() *objectiveColumns { return computeObjectiveColumns(res, b, valid) })
	return c.summaries, c.missing, c.corr
}

// computeObjectiveColumns computes objectiveStats.
func computeObjectiveColumns(res *engine.Result, b *engine.Batch, valid []int) *objectiveColumns {
	c := &objectiveColumns{members: len(b.Members), summaries: make([]stats.Summary, res.Evaluation.M), missing: make([]int, res.Evaluation.M)}
	columns := make([][]float64, res.Evaluation.M)
	correlate := res.Evaluation.M <= MaxCorrelationObjectives
	if correlate {
		// The columns on every core; Pearson is symmetric, bit for bit (its
		// sums are), so each pair is computed once.
		c.corr = make([][]float64, res.Evaluation.M)
		for a := range columns {
			c.corr[a] = make([]float64, res.Evaluation.M)
		}
	}
	// The columns are scratch arrays, given back once summarised and
	// correlated: a run's batches would otherwise leave m arrays each.
	bufs := make([]*[]float64, res.Evaluation.M)
	gaps := make([]bool, res.Evaluation.M)
	parallel.Chunks(res.Evaluation.M, 1, parallel.Workers(res.Evaluation.M*len(valid), engine.RewardChunk), func(_, k, _ int) {
		bufs[k] = parallel.GetFloats(len(valid))
		var foreign int
		columns[k], c.missing[k], foreign = objectiveColumn((*bufs[k])[:len(valid)], res.Evaluation, valid, k)
		gaps[k] = c.missing[k]+foreign > 0
		c.summaries[k] = summarizePresent(columns[k])
	})
	defer func() {
		for _, b := range bufs {
			parallel.PutFloats(b)
		}
	}()
	if correlate {
		parallel.Chunks(res.Evaluation.M, 1, parallel.Workers(res.Evaluation.M*len(valid), engine.RewardChunk), func(_, a, _ int) {
			for b := a; b < res.Evaluation.M; b++ {
				c.corr[a][b] = correlation(columns[a], columns[b], gaps[a] || gaps[b])
				c.corr[b][a] = c.corr[a][b]
			}
		})
	}
	return c
}

// objectiveColumn writes into dst (of len(valid)) objective k's raw values
// at valid, NaN where the trajectory has none: where its value is missing
// (Evaluation.Missing: nansum holds a 0 there) and where its source lacks
// k (Evaluation.HasObjective: the engine holds a 0 there too). It returns
// the column with the number of missing values and of values of a source
// without k. A valid trajectory's values are otherwise finite, so a NaN
// marks one it has not.
func objectiveColumn(dst []float64, ev *engine.Evaluation, valid []int, k int) (column []float64, missing, foreign int) {
	for j, i := range valid {
		dst[j] = ev.Values[i*ev.M+k]
		switch {
		case !ev.HasObjective(i, k):
			dst[j] = math.NaN()
			foreign++
		case ev.Missing(i, k):
			dst[j] = math.NaN()
			missing++
		}
	}
	return dst, missing, foreign
}

// correlation returns the Pearson correlation of two objective columns
// (objectiveColumn), over the rows that have both values when either has
// a gap (a NaN).
func correlation(x, y []float64, gaps bool) float64 {
	if gaps {
		return stats.PearsonPairwise(x, y)
	}
	return stats.Pearson(x, y)
}
