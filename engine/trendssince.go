package engine

import (
	"context"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/internal/parallel"
)

// TrendsSince returns res.Trends(ref), reusing prevTrends, which must be
// prev.Trends(ref), for the batches of res that are prev's: res computed
// with options Equal to prev's on an evaluation that extends prev's (Recompute's
// result, say), whose trajectories rows did not add to them. A batch's
// trend point depends on that batch alone, but for the default reference
// point (ref nil), which is taken from the first batch: when that changes,
// every point is computed again.
func (res *Result) TrendsSince(prev *Result, prevTrends []Trend, ref []float64) []Trend {
	out, _ := res.TrendsSinceContext(context.Background(), prev, prevTrends, ref) // never ends
	return out
}

// TrendsSinceContext is TrendsSince stopped once ctx is done (an
// interrupt), looked at before each batch: it then returns ctx's error
// and no trends.
func (res *Result) TrendsSinceContext(ctx context.Context, prev *Result, prevTrends []Trend, ref []float64) ([]Trend, error) {
	added, ok := res.AddedSince(prev)
	if !ok || len(prevTrends) != len(prev.Ranking.Batches) {
		return res.TrendsContext(ctx, ref)
	}
	if ref == nil {
		ref = res.DefaultHVRef()
		if !slices.EqualFunc(ref, prev.DefaultHVRef(), func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
			return res.TrendsContext(ctx, ref)
		}
	}
	oriented := res.orientRef(ref)
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
			out[bi] = res.trend(&res.Ranking.Batches[bi], oriented)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
