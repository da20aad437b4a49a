package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/stats"
)

// Result is a reward computation: the evaluation and ranking it used, the
// options, and per trajectory (input order) its score and reward. The
// evaluation's data (each trajectory's values, validity, cause) is
// res.Evaluation's and the ranking's (batches, groups, ranks, crowding)
// res.Ranking's, named where they are read.
type Result struct {
	// Evaluation is what was computed from: the objectives' values.
	Evaluation *Evaluation
	// Ranking is the batches, groups and Pareto ranks for Options.Scope.
	Ranking *Ranking
	Options Options
	// Objectives carries the weights the scores were computed with.
	Objectives []scoring.Objective
	// Scores holds s = sum_k w_k o'_k per trajectory (NaN when invalid).
	Scores []float64
	// Rewards holds the method's reward per trajectory; an invalid
	// trajectory gets the mean reward of its group's valid ones.
	Rewards []float64

	// cache keeps what depends on the method: BatchStats and
	// GroupRewardRanges; and, for a result without a scoreSet, what the
	// scoreSet's cache would.
	cache Cache
	// settledOf holds Settled of every trajectory once computed: read
	// without the cache's lock, as ShownReward is called per cell.
	settledOf atomic.Pointer[[]bool]

	// scoreSet holds the scores and their statistics, shared by the
	// results of the same weights; pending, the batches whose rewards are
	// computed (prepare.go). Both are nil for a result of Recompute.
	scoreSet *scoreSet
	pending  *pending
}

// Compute evaluates ts with the computer's scorer and returns the rewards of
// method under the computer's other options: the main entry of the engine.
func (c *RewardComputer) Compute(ts []scoring.Trajectory, method Method) *Result {
	opts := c.Options
	opts.Method = method
	e := c.NewEvaluator()
	e.Reserve(len(ts))
	e.Add(ts)
	return e.Evaluation().Compute(opts)
}

// Compute applies opts to the evaluation. It reuses the evaluation's cached
// ranking for opts.Scope, and its scores when the weights are those of the
// last computation, so switching method, weights or normalisation costs
// O(n) plus the method's sorting. The batches are computed on every core.
func (ev *Evaluation) Compute(opts Options) *Result {
	res := ev.Prepare(opts, nil)
	res.Finish()
	return res
}

// ComputeContext is Compute stopped once ctx is done (an interrupt):
// ctx is looked at before each comparison group is ranked and each
// batch's rewards are computed, and once it is done ComputeContext
// returns ctx's error and no result, keeping no ranking cut short.
func (ev *Evaluation) ComputeContext(ctx context.Context, opts Options) (*Result, error) {
	res, err := ev.prepare(ctx, opts, nil)
	if err != nil {
		return nil, err
	}
	if err := res.FinishContext(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// rewarder holds the scratch buffers of one computation.
type rewarder struct {
	idx, idx2, ord, present []int
	x, u                    []float64
	// sorted is a group's values in ascending order, what its means and
	// stds are summed over (ascending).
	sorted []float64
	// priorities are lexicographic's, resolved on first use.
	priorities []priorityKey
}

// ValidMembers returns the members i of members with valid[i], in order
// (reusing buf).
func ValidMembers(buf []int, members []int, valid []bool) []int {
	buf = buf[:0]
	for _, i := range members {
		if valid[i] {
			buf = append(buf, i)
		}
	}
	return buf
}

// ascending returns x in ascending order, in rw's scratch (stats.Ascending):
// a group's mean and std summed over it do not depend on its members'
// order.
func (rw *rewarder) ascending(x []float64) []float64 {
	rw.sorted = stats.Ascending(rw.sorted, x)
	return rw.sorted
}

func (rw *rewarder) batch(res *Result, b *Batch) {
	opts := res.Options
	spec := Spec(opts.Method)
	if spec == nil {
		panic(fmt.Sprintf("engine: unknown method %q", opts.Method))
	}
	if spec.batch != nil {
		spec.batch(rw, res, b)
		rw.eachGroup(b, func(w *rewarder, g *Group) { w.fillInvalid(res, g.Members) })
		return
	}
	batchStd1 := math.NaN()
	var sourceStd1 []float64 // with sources, the batch std of each source's scores
	if opts.Method == GRPO && opts.scaleInForce() == ScaleBatch {
		if res.Evaluation.sourceOf != nil {
			sourceStd1 = make([]float64, len(res.Evaluation.SourceNames))
			for src, idx := range res.bySource(res.ValidOf(b)) {
				sourceStd1[src] = opts.StdOf(parallel.Gather(nil, res.Scores, idx))
			}
		} else {
			buf := parallel.GetFloats(len(b.Members))
			*buf = parallel.Gather(*buf, res.Scores, res.ValidOf(b))
			batchStd1 = opts.StdOf(*buf)
			parallel.PutFloats(buf)
		}
	}
	rw.eachGroup(b, func(w *rewarder, g *Group) {
		w.idx = ValidMembers(w.idx, g.Members, res.Evaluation.Valid)
		std1 := batchStd1
		if sourceStd1 != nil && len(w.idx) > 0 {
			std1 = sourceStd1[res.Evaluation.sourceOf[w.idx[0]]] // a group is of one source
		}
		w.group(spec, res, w.idx, std1)
		w.fillInvalid(res, g.Members)
	})
}

// eachGroup calls fn on every comparison group of b, each with a rewarder
// for scratch space: the groups of a large batch are shared out over the
// cores (they write disjoint entries), a small one's are done by rw.
func (rw *rewarder) eachGroup(b *Batch, fn func(w *rewarder, g *Group)) {
	nw := parallel.Workers(len(b.Members), RewardChunk)
	if nw == 1 || len(b.Groups) < 2 {
		for gi := range b.Groups {
			fn(rw, &b.Groups[gi])
		}
		return
	}
	rws := make([]rewarder, nw)
	rws[0] = *rw
	chunk := max(len(b.Groups)/(nw*16), 1)
	parallel.Chunks(len(b.Groups), chunk, nw, func(w, lo, hi int) {
		for gi := lo; gi < hi; gi++ {
			fn(&rws[w], &b.Groups[gi])
		}
	})
	*rw = rws[0]
}

// group writes the rewards of the valid trajectories idx of one comparison
// group under a method computed group by group (spec.group): its u,
// z-scored with Options.Normalize unless the method scaled it.
func (rw *rewarder) group(spec *MethodSpec, res *Result, idx []int, batchStd1 float64) {
	n := len(idx)
	if n == 0 {
		return
	}
	s := parallel.Gather(rw.x, res.Scores, idx)
	rw.x = s
	u := parallel.Grow(rw.u, n)
	rw.u = u
	if final := spec.group(rw, u, s, res, idx, batchStd1); !final && res.Options.Normalize {
		rw.sorted = stats.ZScores(u, u, rw.sorted)
	}
	for j, i := range idx {
		res.Rewards[i] = u[j]
	}
}

// relative writes u = (rank(s) - 1) / (n - 1), 0.5 when n = 1; order is
// scratch space, returned for the next call.
func relative(u, s []float64, order []int) []int {
	n := len(s)
	if n == 1 {
		u[0] = 0.5
		return order
	}
	order = stats.AverageRanks(u, s, order)
	for j := range u {
		u[j] = (u[j] - 1) / float64(n-1)
	}
	return order
}

// grpo writes TRL's group-relative advantage: A = s - mean(s), divided by
// std1 + epsilon where std1 is the std (Options.Std: sample, or
// population) of the group (scale group, and scale batch under scope
// batch, whose group is the batch: Options.scaleInForce) or of the batch
// (scale batch, given), unscaled with scale none or normalize off. An undefined std1 (a
// single value, sample std) makes every reward 0, but with
// GroupOfOneScore a group of one has mean 0 and, for scale group, std 1,
// as in verl: s / (1 + epsilon), s unscaled, s / (std1 + epsilon) for
// scale batch. The mean and std are summed over sorted, s in ascending
// order (rewarder.ascending).
func grpo(u, s, sorted []float64, opts Options, batchStd1 float64) {
	scale := opts.scaleInForce()
	scaled := scale != ScaleNone
	alone := len(s) == 1 && opts.GroupOfOne == GroupOfOneScore
	mean := stats.Mean(sorted)
	if alone {
		mean = 0 // verl's convention, and std 1 for scale group
	}
	d := 1.0 // unscaled
	if scaled {
		std1 := batchStd1
		if scale == ScaleGroup {
			std1 = opts.StdOf(sorted)
			if alone {
				std1 = 1
			}
		}
		if math.IsNaN(std1) {
			clear(u)
			return
		}
		d = std1 + opts.EpsilonOrDefault()
	}
	for j := range u {
		u[j] = stats.Centered(s[j], mean, d) // (s - mean) / d, never overflowing (stats/overflow.go)
	}
}

// rloo writes the leave-one-out baseline advantage n/(n-1) * (s - mean(s)):
// for n = 1, 0, or s with GroupOfOneScore (verl's mean 0). The mean is
// summed over sorted, s in ascending order (rewarder.ascending).
func rloo(u, s, sorted []float64, groupOfOne GroupOfOne) {
	n := len(s)
	if n == 1 {
		u[0] = 0
		if groupOfOne == GroupOfOneScore {
			u[0] = s[0]
		}
		return
	}
	mean := stats.Mean(sorted)
	for j := range u {
		u[j] = stats.Saturate(float64(n) / float64(n-1) * stats.Centered(s[j], mean, 1))
	}
}

// paretoUtility is 1 - rank / (R - 1), 1 when the group has one front.
func paretoUtility(rank, fronts int) float64 {
	if fronts <= 1 {
		return 1
	}
	return 1 - float64(rank)/float64(fronts-1)
}

// paretoCrowding orders the group by (rank ascending, crowding descending),
// equal pairs tied, and applies relative's formula to that order read from
// worst to best, so that the best trajectory gets 1. A group of up to
// countedMax members has its places counted (countedUtilities) rather than
// sorted: the same utilities.
func (rw *rewarder) paretoCrowding(u []float64, res *Result, idx []int) {
	ranks, crowding := res.Ranking.Ranks, res.Ranking.Crowding
	if len(idx) <= countedMax {
		var keys [countedMax]crowded
		for j, i := range idx {
			keys[j] = crowded{ranks[i], floatorder.Key(crowding[i])}
		}
		countedUtilities(u, keys[:len(idx)])
		return
	}
	// worse(p, q) < 0 when idx[p] comes after idx[q] in the (rank, -crowding) order.
	worse := func(p, q int) int {
		a, b := idx[p], idx[q]
		if ra, rb := ranks[a], ranks[b]; ra != rb {
			return rb - ra
		}
		return cmp.Compare(crowding[a], crowding[b])
	}
	rw.idx2 = orderedUtilities(u, worse, rw.idx2)
}

// countedMax is the largest group whose utilities countedUtilities counts:
// its n(n-1)/2 comparisons, without a branch, cost less than a sort's
// calls of a comparison function up to about there.
const countedMax = 16

// crowded is a member's place in paretoCrowding's order: its front, then
// its crowding distance as an integer in cmp.Compare's order
// (floatorder.Key).
type crowded struct {
	rank     int
	crowding uint64
}

// countedUtilities writes orderedUtilities' u for the members of keys
// (u as long), counting for each the members worse (a higher rank, or
// the same and a smaller crowding distance) and tied with it: its
// average 1-based rank in the order worst first is worse + (tied + 1)/2,
// the mean of the places its ties share, and u = (rank - 1) / (n - 1);
// 0.5 for one member. At most countedMax members.
func countedUtilities(u []float64, keys []crowded) {
	n := len(keys)
	if n == 1 {
		u[0] = 0.5
		return
	}
	var worse, tied [countedMax]int
	for p := range keys {
		kp := keys[p]
		for q := p + 1; q < n; q++ {
			kq := keys[q]
			rankAbove, rankBelow := b2i(kq.rank > kp.rank), b2i(kq.rank < kp.rank)
			sameRank := 1 - rankAbove - rankBelow
			less, more := b2i(kq.crowding < kp.crowding), b2i(kq.crowding > kp.crowding)
			worse[p] += rankAbove | sameRank&less // q is worse than p
			worse[q] += rankBelow | sameRank&more
			same := sameRank & (1 - less - more)
			tied[p] += same
			tied[q] += same
		}
	}
	for p := range n {
		avg := float64(2*worse[p]+tied[p]+2) / 2 // tied counts the others: its own place too
		u[p] = (avg - 1) / float64(n-1)
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orderedUtilities writes into u relative's formula on the order worse
// gives the positions 0..len(u)-1, worst first: u = (r - 1) / (n - 1)
// with r the average 1-based rank of the position, positions that worse
// finds equal sharing it; 0.5 for one. order is scratch space, returned
// for the next call.
func orderedUtilities(u []float64, worse func(p, q int) int, order []int) []int {
	n := len(u)
	if n == 1 {
		u[0] = 0.5
		return order
	}
	order = order[:0]
	for p := range n {
		order = append(order, p)
	}
	slices.SortFunc(order, worse)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && worse(order[lo], order[hi]) == 0 {
			hi++
		}
		avg := float64(lo+hi+1) / 2 // the mean of the 1-based ranks lo+1..hi
		for _, p := range order[lo:hi] {
			u[p] = (avg - 1) / float64(n-1)
		}
		lo = hi
	}
	return order
}

// gdpo writes GDPO's rewards for a batch: each objective normalised within
// its comparison group, g_k = (o'_k - mean) / (std1 + eps) (0 in a group of
// one), summed with the weights, R = sum_k w_k g_k - lambda v (v the
// violation, with constraints; o'_k the term t_k of a gated or normalised
// objective, objnorm.go), then R normalised over
// the batch's valid trajectories, A = (R - mean) / (std1 + eps) (0 for a
// batch of one), or only centred, A = R - mean, with normalize off; eps is
// Options.Epsilon, std1 the std Options.Std names (sample or population).
// An objective nansum counted 0 (Evaluation.Absent: TRL's None) is left
// out of its mean and std1 and adds g_k = 0, as TRL's normalize_then_sum
// does (nanmean, nanstd, then nansum); an objective present in fewer than
// two members adds 0 (TRL's nanstd is NaN then).
func (rw *rewarder) gdpo(res *Result, b *Batch) {
	eps := res.Options.EpsilonOrDefault()
	rw.eachGroup(b, func(w *rewarder, g *Group) {
		idx := ValidMembers(w.idx, g.Members, res.Evaluation.Valid)
		w.idx = idx
		for _, i := range idx {
			res.Rewards[i] = 0
		}
		if len(idx) < 2 {
			return
		}
		for k := range res.Objectives {
			present := idx
			if res.Evaluation.Absent != nil {
				present = w.presentOf(res, idx, k)
				if len(present) < 2 {
					continue
				}
			}
			x := parallel.Grow(w.x, len(present))
			w.x = x
			for j, i := range present {
				x[j] = res.Term(i, k)
			}
			sorted := w.ascending(x)
			mean, std1 := stats.Mean(sorted), res.Options.StdOf(sorted)
			for j, i := range present {
				res.Rewards[i] = stats.Saturate(res.Rewards[i] + weightedCentered(res.weightOf(i, k), x[j], mean, std1+eps))
			}
		}
	})
	// The batch's valid members and a scratch array, not the rewarder's,
	// which would keep a batch-sized array for every group after.
	var penalty func(i int, r float64) float64
	if res.Evaluation.Violation != nil {
		penalty = func(i int, r float64) float64 {
			return stats.Saturate(r - res.Options.Penalty*res.Evaluation.Violation[i])
		}
	}
	res.eachSource(res.ValidOf(b), func(idx []int) {
		whitenBatch(res, idx, penalty, func(r []float64) (float64, bool) {
			switch {
			case !res.Options.Normalize:
				return 1, true
			case len(r) < 2:
				return 0, false
			}
			return res.Options.StdOf(r) + eps, true
		})
	})
}

// rppBaseline writes verl's reinforce_plus_plus_baseline advantage for
// batch b (compute_reinforce_plus_plus_baseline_outcome_advantage,
// verl/trainer/ppo/core_algos.py): each valid trajectory's score centred
// on its comparison group's mean, c = s - mean(s) (mean 0 in a group of
// one, as verl), then whitened over the batch's valid trajectories (each
// source's, with sources) as verl_F.masked_whiten does,
// A = (c - mean(c)) / sqrt(var1(c) + 1e-8), var1 the sample variance;
// 0 for a batch of one. masked_whiten weighs a response by its tokens;
// here each counts once, as a response of one token does there.
func (rw *rewarder) rppBaseline(res *Result, b *Batch) {
	rw.centreOnGroups(res, b)
	res.eachSource(res.ValidOf(b), func(idx []int) {
		whitenBatch(res, idx, nil, func(c []float64) (float64, bool) {
			std1 := stats.SampleStd(c)
			return math.Hypot(std1, rppWhitenEpsilon), !math.IsNaN(std1)
		})
	})
}

// grpoPassK writes verl's grpo_passk advantage
// (compute_grpo_passk_outcome_advantage, verl/trainer/ppo/core_algos.py)
// for one comparison group of scores s (sorted: s ascending): 0 for every
// member but the first of the highest score, which gets the margin of the
// highest over the second highest, divided by std + epsilon (the std
// Options.Std names) when normalised (verl's norm_adv_by_std_in_grpo);
// tied highest scores give 0. A group of one gets 0: verl refuses it
// (ValueError, Pass@k needs two samples).
func grpoPassK(u, s, sorted []float64, opts Options) {
	clear(u)
	n := len(s)
	if n < 2 {
		return
	}
	margin := stats.Centered(sorted[n-1], sorted[n-2], 1)
	if opts.Normalize {
		margin = stats.Centered(sorted[n-1], sorted[n-2], opts.StdOf(sorted)+opts.EpsilonOrDefault())
	}
	u[slices.Index(s, sorted[n-1])] = margin
}

// gpg writes verl's gpg advantage for batch b
// (compute_gpg_outcome_advantage, verl/trainer/ppo/core_algos.py, with
// its default f_norm 1): A = alpha (s - mean(s)) over each comparison
// group (mean 0 in a group of one, as verl), alpha = N / max(M, 1) over
// the batch's valid trajectories (each source's, with sources), N of them
// and M of a score not 0 (verl's count_nonzero over the batch).
func (rw *rewarder) gpg(res *Result, b *Batch) {
	rw.centreOnGroups(res, b)
	res.eachSource(res.ValidOf(b), func(idx []int) {
		nonzero := 0
		for _, i := range idx {
			if res.Scores[i] != 0 {
				nonzero++
			}
		}
		alpha := float64(len(idx)) / float64(max(nonzero, 1))
		for _, i := range idx {
			res.Rewards[i] = stats.Saturate(alpha * res.Rewards[i])
		}
	})
}

// centredOnGroups are the options under which grpo centres a group
// without scaling it, a group of one on mean 0: verl's outcome
// estimators' centring, which centreOnGroups computes.
var centredOnGroups = Options{Method: GRPO, Scale: ScaleNone, GroupOfOne: GroupOfOneScore}

// centreOnGroups writes the rewards c = s - mean(s) of the valid
// trajectories of each comparison group of batch b, the mean 0 in a group
// of one, as verl's outcome estimators take it: grpo's unscaled path
// (centredOnGroups).
func (rw *rewarder) centreOnGroups(res *Result, b *Batch) {
	rw.eachGroup(b, func(w *rewarder, g *Group) {
		w.idx = ValidMembers(w.idx, g.Members, res.Evaluation.Valid)
		if len(w.idx) == 0 {
			return
		}
		s := parallel.Gather(w.x, res.Scores, w.idx)
		w.x = s
		u := parallel.Grow(w.u, len(s))
		w.u = u
		grpo(u, s, w.ascending(s), centredOnGroups, math.NaN())
		for j, i := range w.idx {
			res.Rewards[i] = u[j]
		}
	})
}

// rppWhitenEpsilon is the square root of the 1e-8 verl_F.masked_whiten
// adds to the variance: sqrt(var + 1e-8) is hypot(std, 1e-4).
const rppWhitenEpsilon = 1e-4

// rlooWhitened writes the advantage of TRL's RLOOTrainer with
// normalize_advantages=True (_generate_and_score_completions,
// trl/trainer/rloo_trainer.py) for batch b: rloo's c = n / (n - 1)
// (s - mean(s)) in each comparison group of two or more valid
// trajectories, then over those of the batch (each source's, with
// sources) A = (c - mean(c)) / (std1(c) + 1e-4), std1 the sample std
// (TRL's nanstd); 0 for all when fewer than two. A group of one valid
// trajectory gets 0 and is left out of the mean and std: TRL's
// leave-one-out baseline is 0/0 there, NaN, which nanmean and nanstd
// skip and nan_to_num makes 0.
func (rw *rewarder) rlooWhitened(res *Result, b *Batch) {
	rw.eachGroup(b, func(w *rewarder, g *Group) {
		w.idx = ValidMembers(w.idx, g.Members, res.Evaluation.Valid)
		n := len(w.idx)
		if n == 1 {
			res.Rewards[w.idx[0]] = 0
		}
		if n < 2 {
			return
		}
		s := parallel.Gather(w.x, res.Scores, w.idx)
		w.x = s
		u := parallel.Grow(w.u, n)
		w.u = u
		rloo(u, s, w.ascending(s), GroupOfOneZero)
		for j, i := range w.idx {
			res.Rewards[i] = u[j]
		}
	})
	kept := make([]int, 0, len(res.ValidOf(b)))
	for gi := range b.Groups {
		rw.idx = ValidMembers(rw.idx, b.Groups[gi].Members, res.Evaluation.Valid)
		if len(rw.idx) > 1 {
			kept = append(kept, rw.idx...)
		}
	}
	res.eachSource(kept, func(idx []int) {
		whitenBatch(res, idx, nil, func(c []float64) (float64, bool) {
			std1 := stats.SampleStd(c)
			return std1 + rlooWhitenEpsilon, !math.IsNaN(std1)
		})
	})
}

// rlooWhitenEpsilon is what TRL's RLOOTrainer adds to the std it whitens
// the advantages by, a literal there.
const rlooWhitenEpsilon = 1e-4

// eachSource calls fn on idx, trajectories of res, or, with sources, on
// those of each source in turn: a batch-wide mean or std is one source's.
func (res *Result) eachSource(idx []int, fn func(idx []int)) {
	if res.Evaluation.sourceOf == nil {
		fn(idx)
		return
	}
	for _, of := range res.bySource(idx) {
		fn(of)
	}
}

// whitenBatch replaces the rewards of idx, members of one batch, by
// (r - mean(r)) / d: r is each one's reward, or adjust(i, reward) when
// adjust is not nil (gdpo's penalty), and d what divisor gives for them
// all; every reward is 0 when divisor has none (ok false: fewer than two
// values). Gathered and written back on every core, a range of members
// each.
func whitenBatch(res *Result, idx []int, adjust func(i int, r float64) float64, divisor func(r []float64) (d float64, ok bool)) {
	buf := parallel.GetFloats(len(idx))
	defer parallel.PutFloats(buf)
	r := (*buf)[:len(idx)]
	nw := parallel.Workers(len(idx), RewardChunk)
	parallel.Chunks(len(idx), RewardChunk, nw, func(_, lo, hi int) {
		for j, i := range idx[lo:hi] {
			r[lo+j] = res.Rewards[i]
			if adjust != nil {
				r[lo+j] = adjust(i, r[lo+j])
			}
		}
	})
	mean := stats.Mean(r)
	d, ok := divisor(r)
	parallel.Chunks(len(idx), RewardChunk, nw, func(_, lo, hi int) {
		for j, i := range idx[lo:hi] {
			if ok {
				res.Rewards[i] = stats.Centered(r[lo+j], mean, d)
			} else {
				res.Rewards[i] = 0
			}
		}
	})
}

// presentOf returns the members of idx whose objective k is not absent
// (Evaluation.Absent), in w's scratch array.
func (w *rewarder) presentOf(res *Result, idx []int, k int) []int {
	present := w.present[:0]
	for _, i := range idx {
		if !res.Evaluation.Absent[i*res.Evaluation.M+k] {
			present = append(present, i)
		}
	}
	w.present = present
	return present
}

// fillInvalid gives the invalid members of a group the mean reward of its
// valid ones (0 when there are none), so that they push training neither
// way; the mean summed in ascending order, as the group's others are. A
// member DAPO's group filter dropped (Evaluation.Without) gets 0, as
// compute --filter-groups writes it (prompts.Filtered.Rewards), also
// under scope batch, where its group, the batch, has valid members.
func (rw *rewarder) fillInvalid(res *Result, members []int) {
	valid := res.Evaluation.Valid
	if !slices.ContainsFunc(members, func(i int) bool { return !valid[i] }) {
		return
	}
	rw.x = rw.x[:0]
	for _, i := range members {
		if valid[i] {
			rw.x = append(rw.x, res.Rewards[i])
		}
	}
	fill := 0.0
	if len(rw.x) > 0 {
		fill = stats.Mean(rw.ascending(rw.x)) // overflow-safe (saturate.go)
	}
	for _, i := range members {
		switch {
		case res.Evaluation.DroppedAt(i):
			res.Rewards[i] = 0
		case !valid[i]:
			res.Rewards[i] = fill
		}
	}
}
