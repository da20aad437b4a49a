package engine

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/stats"
)

// Result is a reward computation: the evaluation and ranking it used, the
// options, and per trajectory (input order) its score and reward.
type Result struct {
	*Evaluation
	*Ranking
	Options Options
	// Objectives carries the weights the scores were computed with.
	Objectives []Objective
	// Scores holds s = sum_k w_k o'_k per trajectory (NaN when invalid).
	Scores []float64
	// Rewards holds the method's reward per trajectory; an invalid
	// trajectory gets the mean reward of its group's valid ones.
	Rewards []float64

	// stats caches BatchStats per batch step.
	statsMu sync.Mutex
	stats   map[int64]*BatchStats
	// groups caches GroupSummaries per batch step, under statsMu.
	groups map[int64][]GroupSummary
}

// Compute evaluates ts with the computer's scorer and returns the rewards of
// method under the computer's other options: the main entry of the engine.
func (c *RewardComputer) Compute(ts []Trajectory, method Method) *Result {
	opts := c.Options
	opts.Method = method
	e := c.NewEvaluator()
	e.Reserve(len(ts))
	e.Add(ts)
	return e.Evaluation().Compute(opts)
}

// Compute applies opts to the evaluation. It reuses the evaluation's cached
// ranking for opts.Scope, so switching method, weights or normalisation costs
// O(n) plus the method's sorting.
func (ev *Evaluation) Compute(opts Options) *Result {
	res := &Result{
		Evaluation: ev,
		Ranking:    ev.Ranking(opts.Scope),
		Options:    opts,
		Objectives: slices.Clone(ev.Objectives),
		Scores:     make([]float64, ev.N()),
		Rewards:    make([]float64, ev.N()),
	}
	if opts.Weights != nil {
		for k := range res.Objectives {
			res.Objectives[k].Weight = opts.Weights[k]
		}
	}
	weights := newScoreWeights(res.Objectives)
	for i := range res.Scores {
		res.Scores[i] = math.NaN()
		if ev.Valid[i] {
			res.Scores[i] = weights.score(ev.Row(i))
		}
	}
	res.markNonFiniteScores()
	var rw rewarder
	for bi := range res.Batches {
		rw.batch(res, &res.Batches[bi])
	}
	return res
}

// markNonFiniteScores reports as invalid the trajectories whose objectives
// are finite but whose weighted sum overflows. It is rare enough that the
// evaluation (shared across options) is copied only when it happens.
func (res *Result) markNonFiniteScores() {
	var bad []int
	for i, s := range res.Scores {
		if res.Valid[i] && finite(s) != nil {
			bad = append(bad, i)
		}
	}
	if len(bad) == 0 {
		return
	}
	ev := &Evaluation{
		Objectives: res.Evaluation.Objectives,
		Values:     res.Evaluation.Values,
		M:          res.Evaluation.M,
		Valid:      slices.Clone(res.Evaluation.Valid),
		Causes:     slices.Clone(res.Evaluation.Causes),
		Logged:     res.Evaluation.Logged,
		batches:    res.Evaluation.batches,
		stepCounts: res.Evaluation.stepCounts,
		groupOf:    res.Evaluation.groupOf,
		groupNames: res.Evaluation.groupNames,
	}
	for _, i := range bad {
		ev.Valid[i] = false
		ev.Causes[i] = (&InvalidError{Objective: "score", Err: finite(res.Scores[i])}).Error()
		res.Scores[i] = math.NaN()
	}
	res.Evaluation = ev
	res.Ranking = ev.Ranking(res.Options.Scope)
}

// rewarder holds the scratch buffers of one computation.
type rewarder struct {
	idx, idx2, ord []int
	x, u           []float64
}

// valid returns the valid members of members (reusing buf).
func validMembers(buf []int, members []int, valid []bool) []int {
	buf = buf[:0]
	for _, i := range members {
		if valid[i] {
			buf = append(buf, i)
		}
	}
	return buf
}

func (rw *rewarder) batch(res *Result, b *Batch) {
	opts := res.Options
	batchStd1 := math.NaN()
	if opts.Method == GRPO && opts.Scale == ScaleBatch {
		rw.idx = validMembers(rw.idx, b.Members, res.Valid)
		rw.x = gather(rw.x, res.Scores, rw.idx)
		batchStd1 = stats.SampleStd(rw.x)
	}
	if opts.Method == GDPO {
		rw.gdpo(res, b)
	} else {
		for _, g := range b.Groups {
			rw.idx = validMembers(rw.idx, g.Members, res.Valid)
			rw.group(res, rw.idx, batchStd1)
		}
	}
	for _, g := range b.Groups {
		fillInvalid(res, g.Members)
	}
}

// group writes the rewards of the valid trajectories idx of one comparison
// group, for every method but gdpo.
func (rw *rewarder) group(res *Result, idx []int, batchStd1 float64) {
	n := len(idx)
	if n == 0 {
		return
	}
	opts := res.Options
	s := gather(rw.x, res.Scores, idx)
	rw.x = s
	u := grow(rw.u, n)
	rw.u = u
	normalize := opts.Normalize
	switch opts.Method {
	case Absolute:
		copy(u, s)
	case Relative:
		rw.ord = relative(u, s, rw.ord)
	case GRPO:
		grpo(u, s, opts, batchStd1)
		normalize = false
	case RLOO:
		rloo(u, s, opts.GroupOfOne)
		normalize = false
	case Pareto:
		for j, i := range idx {
			u[j] = paretoUtility(res.Ranks[i], res.Fronts[i])
		}
	case ParetoCrowding:
		rw.paretoCrowding(u, res, idx)
	}
	if normalize {
		stats.ZScores(u, u)
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
// std1 + epsilon where std1 is the sample std of the group (scale group) or
// of the batch (scale batch, given), unscaled with scale none or normalize
// off. An undefined std1 (a single value) makes every reward 0, but with
// GroupOfOneScore a group of one has mean 0 and, for scale group, std 1,
// as in verl: s / (1 + epsilon), s unscaled, s / (std1 + epsilon) for
// scale batch.
func grpo(u, s []float64, opts Options, batchStd1 float64) {
	scaled := opts.Normalize && opts.Scale != ScaleNone
	alone := len(s) == 1 && opts.GroupOfOne == GroupOfOneScore
	mean := stats.Mean(s)
	if alone {
		mean = 0 // verl's convention, and std 1 for scale group
	}
	d := 1.0 // unscaled
	if scaled {
		std1 := batchStd1
		if opts.Scale == ScaleGroup {
			std1 = stats.SampleStd(s)
			if alone {
				std1 = 1
			}
		}
		if math.IsNaN(std1) {
			clear(u)
			return
		}
		d = std1 + opts.epsilon()
	}
	for j := range u {
		u[j] = stats.Centered(s[j], mean, d) // (s - mean) / d, never overflowing (stats/overflow.go)
	}
}

// rloo writes the leave-one-out baseline advantage n/(n-1) * (s - mean(s)):
// for n = 1, 0, or s with GroupOfOneScore (verl's mean 0).
func rloo(u, s []float64, groupOfOne GroupOfOne) {
	n := len(s)
	if n == 1 {
		u[0] = 0
		if groupOfOne == GroupOfOneScore {
			u[0] = s[0]
		}
		return
	}
	mean := stats.Mean(s)
	for j := range u {
		u[j] = saturate(float64(n) / float64(n-1) * stats.Centered(s[j], mean, 1))
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
// worst to best, so that the best trajectory gets 1.
func (rw *rewarder) paretoCrowding(u []float64, res *Result, idx []int) {
	n := len(idx)
	if n == 1 {
		u[0] = 0.5
		return
	}
	// worse(p, q) < 0 when idx[p] comes after idx[q] in the (rank, -crowding) order.
	worse := func(p, q int) int {
		a, b := idx[p], idx[q]
		if ra, rb := res.Ranks[a], res.Ranks[b]; ra != rb {
			return rb - ra
		}
		return cmp.Compare(res.Crowding[a], res.Crowding[b])
	}
	order := rw.idx2[:0]
	for p := range n {
		order = append(order, p)
	}
	rw.idx2 = order
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
}

// gdpo writes GDPO's rewards for a batch: each objective normalised within
// its comparison group, g_k = (o'_k - mean) / (std1 + eps) (0 in a group of
// one), summed with the weights, R = sum_k w_k g_k, then R normalised over
// the batch's valid trajectories, A = (R - mean) / (std1 + eps) (0 for a
// batch of one), or only centred, A = R - mean, with normalize off; eps is
// Options.Epsilon.
func (rw *rewarder) gdpo(res *Result, b *Batch) {
	m, eps := res.M, res.Options.epsilon()
	for _, g := range b.Groups {
		idx := validMembers(rw.idx, g.Members, res.Valid)
		rw.idx = idx
		for _, i := range idx {
			res.Rewards[i] = 0
		}
		if len(idx) < 2 {
			continue
		}
		for k, o := range res.Objectives {
			x := grow(rw.x, len(idx))
			rw.x = x
			for j, i := range idx {
				x[j] = o.Orient(res.Values[i*m+k])
			}
			mean, std1 := stats.Mean(x), stats.SampleStd(x)
			for j, i := range idx {
				res.Rewards[i] = saturate(res.Rewards[i] + weightedCentered(o.Weight, x[j], mean, std1+eps))
			}
		}
	}
	idx := validMembers(rw.idx, b.Members, res.Valid)
	rw.idx = idx
	r := gather(rw.x, res.Rewards, idx)
	rw.x = r
	mean, std1 := stats.Mean(r), stats.SampleStd(r)
	for j, i := range idx {
		switch {
		case !res.Options.Normalize:
			res.Rewards[i] = stats.Centered(r[j], mean, 1)
		case len(idx) < 2:
			res.Rewards[i] = 0
		default:
			res.Rewards[i] = stats.Centered(r[j], mean, std1+eps)
		}
	}
}

// fillInvalid gives the invalid members of a group the mean reward of its
// valid ones (0 when there are none), so that they push training neither way.
func fillInvalid(res *Result, members []int) {
	sum, n := 0.0, 0
	for _, i := range members {
		if res.Valid[i] {
			sum += res.Rewards[i]
			n++
		}
	}
	fill := 0.0
	if n > 0 {
		fill = sum / float64(n)
	}
	if math.IsInf(fill, 0) { // the sum overflowed (saturate.go)
		fill = membersMean(res.Rewards, validMembers(nil, members, res.Valid))
	}
	for _, i := range members {
		if !res.Valid[i] {
			res.Rewards[i] = fill
		}
	}
}

// gather returns dst filled with src[i] for each i of idx.
func gather(dst, src []float64, idx []int) []float64 {
	dst = grow(dst, len(idx))
	for j, i := range idx {
		dst[j] = src[i]
	}
	return dst
}

// grow returns buf resized to n, reallocating only when too small.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
