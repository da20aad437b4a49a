package diagnose

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/pareto"
	"github.com/rewardlens/rewardlens/stats"
)

// Trend is one batch's point of the trend series that the Steps tab draws
// and the health checks read: the batch's statistics and what follows them
// across training besides.
type Trend struct {
	BatchStats
	// Hypervolume is the hypervolume of the batch's frontier on the
	// oriented objectives (see Trends); NaN when there are not 2 or 3
	// objectives or the batch has no valid trajectory.
	Hypervolume float64
	// MeanStepCount is the mean step_count of the valid trajectories.
	MeanStepCount float64
	// ScoreGroupStd is the mean, over the comparison groups holding a valid
	// trajectory, of the population std of their scores: TRL's reward_std,
	// on scores, so that a method's normalisation does not hide it.
	ScoreGroupStd float64
	// FracAtMax is the fraction of valid scores at the batch's maximum
	// score (within 1e-9, relative): how many already get the best score.
	FracAtMax float64
	// ScoreShares[k] is objective k's share of the variance of the
	// batch's weighted scores, std0(c_k)^2 / sum_j std0(c_j)^2 over its
	// valid trajectories, c_ik = w_ik t_ik the objective's part of
	// trajectory i's score (engine.Result.WeightedTerm: its term after
	// objective normalisation and gates, its source's weight); nil when
	// the sum is 0.
	ScoreShares []float64
	// DeadSignal is the batch's groups without signal by the task metric,
	// nil until AddDeadSignal sets it: the engine has no task metric.
	DeadSignal *DeadSignal
}

// Trends returns the trend point of every batch, in ascending step order.
// ref is the hypervolume's reference point in raw objective values, one per
// objective, or nil for DefaultHVRef, which keeps the batches comparable.
// The hypervolume of a batch is that of the union of its comparison groups'
// rank-0 points, which is the hypervolume of all its valid points whatever
// the scope; points not strictly better than the (oriented) reference on
// every objective contribute nothing. It panics if ref is neither nil nor
// of one value per objective.
func Trends(res *engine.Result, ref []float64) []Trend {
	out, _ := TrendsContext(context.Background(), res, ref) // never ends
	return out
}

// TrendsContext is Trends stopped once ctx is done (an interrupt),
// looked at before each batch: it then returns ctx's error and no trends.
// With a pause.Gate in ctx, it waits at it before each batch and between
// the steps of one (pause.Checkpoint).
func TrendsContext(ctx context.Context, res *engine.Result, ref []float64) ([]Trend, error) {
	if ref == nil {
		ref = DefaultHVRef(res)
	}
	oriented := orientRef(res, ref)
	if err := res.FinishContext(ctx); err != nil {
		return nil, err
	}
	out := make([]Trend, len(res.Ranking.Batches))
	nw := parallel.Workers(len(res.Ranking.Batches), 1)
	parallel.Chunks(len(res.Ranking.Batches), 1, nw, func(_, lo, hi int) {
		for bi := lo; bi < hi && ctx.Err() == nil; bi++ {
			out[bi] = trend(ctx, res, &res.Ranking.Batches[bi], oriented)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// orientRef returns the hypervolume reference ref oriented; it panics if
// ref is not of one value per objective.
func orientRef(res *engine.Result, ref []float64) []float64 {
	if len(ref) != res.Evaluation.M {
		panic("engine: the hypervolume reference needs one value per objective")
	}
	oriented := make([]float64, res.Evaluation.M)
	for k, o := range res.Objectives {
		oriented[k] = o.Orient(ref[k])
	}
	return oriented
}

// trend returns the trend point of batch b, with the oriented hypervolume
// reference, waiting at ctx's gate before each of its steps (one batch
// may be the whole run).
func trend(ctx context.Context, res *engine.Result, b *engine.Batch, oriented []float64) Trend {
	pause.Checkpoint(ctx)
	stats := StatsOf(res, b)
	pause.Checkpoint(ctx)
	scores := scoreBatchOf(res, b, res.ValidOf(b))
	pause.Checkpoint(ctx)
	hv := cachedHypervolume(ctx, res, b, oriented)
	pause.Checkpoint(ctx)
	return Trend{
		BatchStats:    stats,
		Hypervolume:   hv,
		MeanStepCount: meanStepCount(res, b),
		ScoreGroupStd: scores.scoreGroupStd,
		FracAtMax:     scores.fracAtMax,
		ScoreShares:   scoreShares(res, res.ValidOf(b)),
	}
}

// scoreShares returns each objective's share of the variance of the
// weighted scores of the trajectories valid (Trend.ScoreShares), nil
// when their sum is 0.
func scoreShares(res *engine.Result, valid []int) []float64 {
	m := res.Evaluation.M
	if len(valid) == 0 || m == 0 {
		return nil
	}
	shares := make([]float64, m)
	total := 0.0
	for k := range m {
		// One pass (Welford's), no array: a switch computes this for
		// every batch, and must not allocate with the batch's size.
		mean, squares := 0.0, 0.0
		for j, i := range valid {
			c := res.WeightedTerm(i, k)
			d := c - mean
			mean += d / float64(j+1)
			squares += d * (c - mean)
		}
		shares[k] = squares
		total += squares
	}
	if !(total > 0) {
		return nil
	}
	for k := range shares {
		shares[k] /= total
	}
	return shares
}

// ValidateHVRef reports a hypervolume reference point that is not one
// finite value per objective; nil (the default) is valid.
func ValidateHVRef(objectives []scoring.Objective, ref []float64) error {
	if ref == nil {
		return nil
	}
	if len(ref) != len(objectives) {
		return fmt.Errorf("hypervolume reference: %d values for %d objectives (%s)", len(ref), len(objectives), objectiveNames(objectives))
	}
	for k, v := range ref {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("hypervolume reference: %s's value %v is not a finite number", objectives[k].Name, v)
		}
	}
	return nil
}

// DefaultHVRef returns the default hypervolume reference point, in raw
// objective values: the worst value of each objective (the smallest of a
// maximised one, the largest of a minimised one) over the valid
// trajectories of the first batch that has any, among those whose source
// has the objective (engine.Evaluation.HasObjective: another source's
// objective holds a 0 that is no value of it). It is NaN for an objective
// no valid trajectory has.
func DefaultHVRef(res *engine.Result) []float64 {
	ev := res.Evaluation
	ref := make([]float64, ev.M)
	for k, o := range res.Objectives {
		ref[k] = math.NaN()
		for bi := range res.Ranking.Batches {
			worst, found := math.Inf(1), false
			for _, i := range res.ValidOf(&res.Ranking.Batches[bi]) {
				if ev.HasObjective(i, k) {
					worst, found = min(worst, o.Orient(ev.Values[i*ev.M+k])), true
				}
			}
			if found {
				ref[k] = o.Orient(worst) // orienting twice gives the raw value back
				break
			}
		}
	}
	return ref
}

// NoHypervolume returns why res has no hypervolume in any batch, "" when
// it may have one: it is computed for 2 or 3 objectives, over points that
// have a value of each, which with sources none has when no source has
// every objective.
func NoHypervolume(res *engine.Result) string {
	ev := res.Evaluation
	if ev.M < 2 || ev.M > 3 {
		return fmt.Sprintf("it is computed for 2 or 3 objectives, not %d", ev.M)
	}
	if !ev.HasSources() {
		return ""
	}
	for src := range ev.SourceNames {
		if len(ev.SourceObjectives(src)) == ev.M {
			return ""
		}
	}
	return fmt.Sprintf("no source has all %d objectives, which its points need", ev.M)
}

// hypervolume returns the hypervolume of b's rank-0 points against the
// oriented reference point ref: the points of the valid trajectories
// whose source has every objective (all of them without sources); NaN
// when there are none. It waits at ctx's gate every hypervolumeStride
// members and before the volume (pause.Checkpoint): a batch may be the
// whole run.
func hypervolume(ctx context.Context, res *engine.Result, b *engine.Batch, ref []float64) float64 {
	ev := res.Evaluation
	if ev.M < 2 || ev.M > 3 || !allFinite(ref) {
		return math.NaN()
	}
	hasAll := func(i int) bool {
		for k := range ev.M {
			if !ev.HasObjective(i, k) {
				return false
			}
		}
		return true
	}
	var points []float64
	valid := 0
	for j, i := range b.Members {
		if j%hypervolumeStride == hypervolumeStride-1 {
			pause.Checkpoint(ctx)
		}
		if !ev.Valid[i] || !hasAll(i) {
			continue
		}
		valid++
		if res.Ranking.Ranks[i] == 0 {
			for k, o := range res.Objectives {
				points = append(points, o.Orient(ev.Values[i*ev.M+k]))
			}
		}
	}
	if valid == 0 {
		return math.NaN()
	}
	pause.Checkpoint(ctx)
	if ev.M == 2 {
		return pareto.Hypervolume2D(points, [2]float64{ref[0], ref[1]})
	}
	return pareto.Hypervolume3D(points, [3]float64{ref[0], ref[1], ref[2]})
}

// hypervolumeStride is how many members hypervolume goes through between
// two checkpoints.
const hypervolumeStride = 1 << 16

// allFinite reports whether every value of x is a finite number.
func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// meanStepCount returns the mean step_count of b's valid trajectories, NaN
// when there is none.
func meanStepCount(res *engine.Result, b *engine.Batch) float64 {
	sum, n := 0.0, 0
	for _, i := range b.Members {
		if res.Evaluation.Valid[i] {
			sum += float64(res.Evaluation.StepCount(i))
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// scoreGroupStd returns the mean of the population std of the valid scores
// of each of b's comparison groups that has any, NaN when none has.
func scoreGroupStd(res *engine.Result, b *engine.Batch) float64 {
	sum, n := 0.0, 0
	var idx []int
	var x []float64
	for _, g := range b.Groups {
		idx = engine.ValidMembers(idx, g.Members, res.Evaluation.Valid)
		if len(idx) == 0 {
			continue
		}
		x = parallel.Gather(x, res.Scores, idx)
		_, std := stats.PopMeanStd(x)
		sum += std
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// fracAtMax returns the fraction of b's valid scores within 1e-9 (relative
// to max(1, |max|)) of their maximum, NaN when there is none: two weighted
// sums equal in exact arithmetic can differ in their last bits.
func fracAtMax(res *engine.Result, b *engine.Batch) float64 {
	hi, n := math.Inf(-1), 0
	for _, i := range b.Members {
		if res.Evaluation.Valid[i] {
			hi = max(hi, res.Scores[i])
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	tol := 1e-9 * max(1, math.Abs(hi))
	at := 0
	for _, i := range b.Members {
		if res.Evaluation.Valid[i] && res.Scores[i] >= hi-tol {
			at++
		}
	}
	return float64(at) / float64(n)
}

// objectiveNames lists the objectives' names, comma-separated.
func objectiveNames(objectives []scoring.Objective) string {
	names := make([]string, len(objectives))
	for k, o := range objectives {
		names[k] = o.Name
	}
	return strings.Join(names, ", ")
}
