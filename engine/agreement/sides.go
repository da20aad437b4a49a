package agreement

import (
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/stats"
)

// A comparison works on dense ranks: each result's rewards are sorted and
// ranked once (its Side, which a switch of the other method does not
// change), and what needs both, the orders by (A, B) and (B, A) and
// Kendall's discordant pairs, is computed from the two sides' ranks,
// small integers sorted in a pass or two.

// A Side is one result's rewards on the compared trajectories of a batch,
// sorted and ranked: what a comparison needs of that result alone, shared
// by every comparison of it on that batch. It is not modified once made.
type Side struct {
	of sideOf
	// Index[j] is the trajectory whose reward is Values[j].
	Index  []int
	Values []float64
	// order is the positions by ascending value (floatorder's order),
	// ties by position; codes[j] is Values[j]'s dense rank, how many of
	// the distinct values are below it.
	order    []int32
	codes    []uint32
	distinct int
	// ranks[j] is Values[j]'s average rank (stats.AverageRanks); mean,
	// spread and drift are what gonum's stat.Correlation computes of them
	// alone: their mean, sum (r - mean)^2 - drift^2 / n, and sum (r - mean).
	ranks               []float64
	mean, spread, drift float64
	// tied counts the pairs of equal values: sum t(t-1)/2 over the runs
	// of t equal values.
	tied int64
	nan  bool
}

// sideOf names what a Side was made of: result res's rewards on batch
// bi of n members (follow mode appends to a batch), the members valid
// under its evaluation. The zero sideOf names a Side that is not reused.
type sideOf struct {
	res   *engine.Result
	bi, n int
}

// Buffers are a comparison's working memory, reused by the next one,
// and the arrays of sides and comparisons given back (Recycle). Its zero
// value is ready; it is not safe for concurrent use.
type Buffers struct {
	ranks floatorder.RankBuffers
	// seq and merge are Kendall's codes and their merge sort's buffer.
	seq, merge []uint32
	inB        []bool
	floats     [][]float64
	int32s     [][]int32
	uint32s    [][]uint32
}

// spareMax is the most arrays of a type Buffers keeps for reuse: a side's
// two of float64, or a comparison's two orders and a side's.
const spareMax = 3

// Recycle gives buf the arrays of sides and of orders (a Comparison's ByA
// and ByB) that nothing reads any more, for the next sides and
// comparisons made with buf to reuse.
func (buf *Buffers) Recycle(sides []*Side, orders ...[]int32) {
	for k, s := range sides {
		if s == nil || slices.Contains(sides[:k], s) {
			continue
		}
		buf.floats = keep(buf.floats, s.Values, s.ranks)
		buf.int32s = keep(buf.int32s, s.order)
		buf.uint32s = keep(buf.uint32s, s.codes)
	}
	buf.int32s = keep(buf.int32s, orders...)
}

// keep appends arrays to spare, up to spareMax.
func keep[T any](spare [][]T, arrays ...[]T) [][]T {
	for _, a := range arrays {
		if len(spare) < spareMax && cap(a) > 0 {
			spare = append(spare, a)
		}
	}
	return spare
}

// take returns an array of n from spare, or a new one.
func take[T any](spare *[][]T, n int) []T {
	for k, a := range *spare {
		if cap(a) >= n {
			*spare = slices.Delete(*spare, k, k+1)
			return a[:n]
		}
	}
	return make([]T, n)
}

// Sides returns the sides of a's and b's rewards on batch bi, taking those
// of known that are still theirs: a and b must be computed from one
// evaluation with the same scope, so that their batches are the same.
// With gathered, it calls gathered with the two sides' values (Side.Values)
// once they are, before the sides are sorted and ranked: work on the
// values alone can go beside that.
func Sides(a, b *engine.Result, bi int, known []*Side, buf *Buffers, gathered func(va, vb []float64)) (sa, sb *Side) {
	if a.Evaluation != b.Evaluation { // the trajectories valid under both
		var index []int
		for _, i := range a.Ranking.Batches[bi].Members {
			if a.Evaluation.Valid[i] && b.Evaluation.Valid[i] {
				index = append(index, i)
			}
		}
		va, vb := gather(take(&buf.floats, len(index)), a.Rewards, index), gather(take(&buf.floats, len(index)), b.Rewards, index)
		if gathered != nil {
			gathered(va, vb)
		}
		return newSide(sideOf{}, index, va, buf), newSide(sideOf{}, index, vb, buf)
	}
	find := func(res *engine.Result) *Side {
		of := sideOf{res, bi, len(res.Ranking.Batches[bi].Members)}
		for _, s := range known {
			if s != nil && s.of == of {
				return s
			}
		}
		return nil
	}
	sa, sb = find(a), find(b)
	var index []int
	switch {
	case sa != nil:
		index = sa.Index
	case sb != nil:
		index = sb.Index
	default:
		index = engine.ValidMembers(nil, a.Ranking.Batches[bi].Members, a.Evaluation.Valid)
	}
	values := func(s *Side, res *engine.Result) []float64 {
		if s != nil {
			return s.Values
		}
		return gather(take(&buf.floats, len(index)), res.Rewards, index)
	}
	va := values(sa, a)
	vb := va
	if b != a {
		vb = values(sb, b)
	}
	if gathered != nil {
		gathered(va, vb)
	}
	n := len(a.Ranking.Batches[bi].Members)
	if sa == nil {
		sa = newSide(sideOf{a, bi, n}, index, va, buf)
	}
	if sb == nil && b == a {
		sb = sa
	} else if sb == nil {
		sb = newSide(sideOf{b, bi, n}, index, vb, buf)
	}
	return sa, sb
}

// gather sets v, as long as index, to x at index and returns it.
func gather(v, x []float64, index []int) []float64 {
	for j, i := range index {
		v[j] = x[i]
	}
	return v
}

// newSide sorts and ranks values, those of the trajectories index.
func newSide(of sideOf, index []int, values []float64, buf *Buffers) *Side {
	n := len(values)
	s := &Side{of: of, Index: index, Values: values, order: take(&buf.int32s, n), codes: take(&buf.uint32s, n), ranks: take(&buf.floats, n)}
	s.distinct, s.tied = floatorder.Ranks(values, s.order, s.codes, s.ranks, &buf.ranks)
	s.nan = slices.ContainsFunc(values, math.IsNaN)
	if n > 0 {
		s.mean = floats.Sum(s.ranks) / float64(n)
		for _, r := range s.ranks {
			d := r - s.mean
			s.spread += d * d
			s.drift += d
		}
		s.spread -= s.drift * s.drift / float64(n)
	}
	return s
}

// CompareSides compares a's values (A) with b's (B), two sides of the
// same trajectories. Kendall's tau-b (stats.KendallTauB) is counted on the
// ranks: with the positions sorted by (A, B), a stable sort of B's order
// by A's ranks, its discordant pairs are the inversions of B's ranks
// along that order (stats.Inversions), its pairs tied in both the runs of
// equal (A, B) ranks there. Spearman's rho (stats.Spearman) is the
// Pearson correlation of the two sides' average ranks. With a NaN among
// the values, both are computed on the values as stats does.
func CompareSides(a, b *Side, buf *Buffers) Comparison {
	n := len(a.Values)
	c := Comparison{N: n, A: a.Values, B: b.Values, Index: a.Index, ByA: take(&buf.int32s, n), ByB: take(&buf.int32s, n)}
	// By (A, B): B's order, stably by A's ranks; by (B, A) the reverse.
	floatorder.SortByCode(c.ByA, b.order, a.codes, a.distinct, &buf.ranks)
	floatorder.SortByCode(c.ByB, a.order, b.codes, b.distinct, &buf.ranks)
	var wg sync.WaitGroup
	if a.nan || b.nan {
		c.Kendall, c.Spearman = stats.KendallTauB(c.A, c.B), stats.Spearman(c.A, c.B)
	} else {
		wg.Go(func() { c.Spearman = spearman(a, b) })
		c.Kendall = kendall(a, b, c.ByA, c.ByB, buf)
	}
	c.PosNeg, c.NegPos = stats.SignDisagreements(c.A, c.B)
	c.TopK = stats.TopCount(n, TopFraction)
	c.TopShared = topShared(a, b, c.TopK, buf)
	c.TopOverlap = math.NaN() // stats.TopOverlap, from the count above
	if c.TopK > 0 {
		c.TopOverlap = float64(c.TopShared) / float64(c.TopK)
	}
	wg.Wait()
	return c
}

// spearman returns Spearman's rho of a's and b's values, with no NaN:
// stats.Pearson of their average ranks, computed as gonum's
// stat.Correlation does, with what depends on one side alone computed
// with the side,
//
//	rho = (sum (ra - mean a)(rb - mean b) - drift a drift b / n) / sqrt(spread a spread b),
//
// NaN when there are fewer than two values or either is constant.
func spearman(a, b *Side) float64 {
	n := len(a.ranks)
	if n < 2 || a.distinct == 1 || b.distinct == 1 {
		return math.NaN()
	}
	var sxy float64
	for j, r := range a.ranks {
		sxy += (r - a.mean) * (b.ranks[j] - b.mean)
	}
	return (sxy - a.drift*b.drift/float64(n)) / math.Sqrt(a.spread*b.spread)
}

// kendall returns Kendall's tau-b of a's and b's values, with no NaN,
// from the positions sorted by (A, B) and by (B, A). The discordant
// pairs are counted along the order of the side with fewer distinct
// values: its long runs of ties hold the other's ranks already in order,
// which the merge sort joins without merging.
func kendall(a, b *Side, byA, byB []int32, buf *Buffers) float64 {
	n := len(byA)
	buf.seq, buf.merge = slices.Grow(buf.seq[:0], n)[:n], slices.Grow(buf.merge[:0], n)[:n]
	seq := buf.seq
	var tiedBoth int64
	// By (A, B), the pairs tied in both are the runs of equal (A, B).
	run := int64(1)
	for j, i := range byA {
		seq[j] = b.codes[i]
		if j > 0 && seq[j] == seq[j-1] && a.codes[i] == a.codes[byA[j-1]] {
			run++
			continue
		}
		tiedBoth += run * (run - 1) / 2
		run = 1
	}
	tiedBoth += run * (run - 1) / 2
	if b.distinct < a.distinct {
		for j, i := range byB {
			seq[j] = a.codes[i]
		}
	}
	return stats.KendallTauBCounts(n, a.tied, b.tied, tiedBoth, stats.Inversions(seq, buf.merge))
}

// topShared is stats.TopShared read from the sides' orders and ranks:
// the positions among the k largest of both, ties broken by position.
func topShared(a, b *Side, k int, buf *Buffers) int {
	n := len(a.Values)
	buf.inB = slices.Grow(buf.inB[:0], n)[:n]
	clear(buf.inB)
	eachTop(b, k, func(j int) { buf.inB[j] = true })
	shared := 0
	eachTop(a, k, func(j int) {
		if buf.inB[j] {
			shared++
		}
	})
	return shared
}

// eachTop calls f, in position order, on the positions of s above its
// k-th largest value, and the first of those equal to it.
func eachTop(s *Side, k int, f func(j int)) {
	n := len(s.Values)
	if k == 0 {
		return
	}
	kth := s.codes[s.order[n-k]]
	above := n - k + 1
	for above < n && s.codes[s.order[above]] == kth {
		above++
	}
	equal := k - (n - above) // how many of those equal to the k-th are in
	for j, code := range s.codes {
		switch {
		case code > kth:
			f(j)
		case code == kth && equal > 0:
			f(j)
			equal--
		}
	}
}
