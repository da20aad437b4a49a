package diagnose

import (
	"context"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// TrendsSince returns Trends(res, ref), reusing prevTrends, which must be
// Trends(prev, ref), for the batches of res that are prev's: res computed
// with options Equal to prev's on an evaluation that extends prev's (Recompute's
// result, say), whose trajectories rows did not add to them. A batch's
// trend point depends on that batch alone, but for the default reference
// point (ref nil), which is taken from the first batch: when that changes,
// every point is computed again.
func TrendsSince(res, prev *engine.Result, prevTrends []Trend, ref []float64) []Trend {
	out, _ := TrendsSinceContext(context.Background(), res, prev, prevTrends, ref) // never ends
	return out
}

// TrendsSinceContext is TrendsSince stopped once ctx is done (an
// interrupt), looked at before each batch: it then returns ctx's error
// and no trends.
func TrendsSinceContext(ctx context.Context, res, prev *engine.Result, prevTrends []Trend, ref []float64) ([]Trend, error) {
	added, ok := res.AddedSince(prev)
	if !ok || len(prevTrends) != len(prev.Ranking.Batches) {
		return TrendsContext(ctx, res, ref)
	}
	if ref == nil {
		ref = DefaultHVRef(res)
		if !slices.EqualFunc(ref, DefaultHVRef(prev), func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
			return TrendsContext(ctx, res, ref)
		}
	}
	oriented := orientRef(res, ref)
	kept := make(map[int64]*Trend, len(prevTrends))
	for i := range prevTrends {
		kept[prevTrends[i].Step] = &prevTrends[i]
	}
	out := make([]Trend, len(res.Ranking.Batches))
	var changed []int // the batches whose points are computed, on the cores
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		if t, ok := kept[b.Step]; ok && added[b.Step] == nil {
			out[bi] = *t
		} else {
			changed = append(changed, bi)
		}
	}
	parallel.Chunks(len(changed), 1, parallel.Workers(len(changed), 1), func(_, lo, hi int) {
		for _, bi := range changed[lo:hi] {
			if ctx.Err() != nil {
				return
			}
			out[bi] = trend(ctx, res, &res.Ranking.Batches[bi], oriented)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
