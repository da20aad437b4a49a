package diagnose

import (
	"math"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// The statistics and trends of one source (docs/CONTRACT.md, Objectives
// with structure): the dashboard's Objectives and Steps tabs split by
// source. They are those of the part of a batch whose trajectories are of
// the source, over its own objectives, computed as a batch's are
// (BatchStats, Trends) and not cached.

// SourceBatch returns the part of batch b whose trajectories are of
// source src (an index in SourceNames): its members and comparison
// groups of that source, in b's order. Groups never mix sources, so each
// of b's groups is in one part.
func SourceBatch(res *engine.Result, b *engine.Batch, src int) engine.Batch {
	ev := res.Evaluation
	out := engine.Batch{Step: b.Step}
	for _, i := range b.Members {
		if int(ev.SourceIndex(i)) == src {
			out.Members = append(out.Members, i)
		}
	}
	for _, g := range b.Groups {
		if len(g.Members) > 0 && int(ev.SourceIndex(g.Members[0])) == src {
			out.Groups = append(out.Groups, g)
		}
	}
	return out
}

// SourceBatchStats returns the statistics of the trajectories of source
// src in batch b, as BatchStats gives a batch's, but with the source's
// objectives only (SourceObjectives, with its weights) and their
// correlation. It panics without sources.
func SourceBatchStats(res *engine.Result, b *engine.Batch, src int) BatchStats {
	st, _ := sourceBatchStats(res, b, src)
	return st
}

// sourceBatchStats is SourceBatchStats, with the part of b and its score
// statistics.
func sourceBatchStats(res *engine.Result, b *engine.Batch, src int) (BatchStats, *scoreBatch) {
	res.ComputeBatchOf(b)
	ev := res.Evaluation
	part := SourceBatch(res, b, src)
	valid := engine.ValidMembers(nil, part.Members, ev.Valid)
	st := BatchStats{Counts: countsOf(res, &part, valid)}
	cols := ev.SourceObjectives(src)
	columns := make([][]float64, len(cols))
	for c, k := range cols {
		var missing int
		columns[c], missing, _ = objectiveColumn(make([]float64, len(valid)), ev, valid, k)
		o := res.Objectives[k]
		o.Weight = ev.SourceWeight(src, k)
		st.Objectives = append(st.Objectives, ObjectiveStats{Objective: o, Summary: summarizePresent(columns[c]), Missing: missing})
	}
	if len(cols) <= MaxCorrelationObjectives {
		st.Correlation = make([][]float64, len(cols))
		for a := range cols {
			st.Correlation[a] = make([]float64, len(cols))
			for c := range cols {
				st.Correlation[a][c] = correlation(columns[a], columns[c], st.Objectives[a].Missing > 0 || st.Objectives[c].Missing > 0)
			}
		}
	}
	scores := computeScoreBatch(res, &part, valid)
	st.Score, st.Reward = scores.score, summarizeOf(res, res.Rewards, valid)
	st.Fronts, st.FrontierSize, st.Groups, st.ZeroStdGroups = scores.fronts, scores.frontierSize, scores.groups, zeroStdGroups(res, scores)
	st.FracZeroStdGroups = math.NaN()
	if st.Groups > 0 {
		st.FracZeroStdGroups = float64(st.ZeroStdGroups) / float64(st.Groups)
	}
	return st, scores
}

// SourceTrends returns the trend point of every batch, in ascending step
// order, for the trajectories of source src: as Trends, without the
// hypervolume (NaN: the sources' objectives differ, and so would their
// reference points). A batch without the source has the statistics of
// no trajectory (NaN means).
func SourceTrends(res *engine.Result, src int) []Trend {
	res.Finish()
	out := make([]Trend, len(res.Ranking.Batches))
	parallel.Chunks(len(out), 1, parallel.Workers(len(out), 1), func(_, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			b := &res.Ranking.Batches[bi]
			st, scores := sourceBatchStats(res, b, src)
			part := SourceBatch(res, b, src)
			out[bi] = Trend{BatchStats: st, Hypervolume: math.NaN(), MeanStepCount: meanStepCount(res, &part),
				ScoreGroupStd: scores.scoreGroupStd, FracAtMax: scores.fracAtMax}
		}
	})
	return out
}
