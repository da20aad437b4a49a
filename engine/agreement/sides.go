package agreement

import (
	"math"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/parallel"
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
	// ranks[c] is the average rank (stats.AverageRanks) of the values
	// of code c (avgRank).
	ranks []float64
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
	// ranks are two sides' (Ranked) or two orders' (CompareSides), one
	// for each goroutine.
	ranks [2]floatorder.RankBuffers
	// seq and seqScratch are Kendall's codes and stats.Inversions'
	// scratch beside them.
	seq, seqScratch []uint32
	// runKeys are sortBy's keys of a run of ties, one for each
	// goroutine.
	runKeys [2][]uint64
	inB     []bool
	floats  [][]float64
	int32s  [][]int32
	uint32s [][]uint32
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

// Gathered is the values of two results on the compared trajectories of
// a batch, before they are sorted and ranked (Ranked): what a comparison
// needs of the values alone (the points of a scatter, the signs of the
// advantages) can be shown before CompareSides computes the rest.
type Gathered struct {
	// Index[j] is the trajectory whose values are A[j] and B[j]; they
	// are shared with the sides made of them, not to be modified.
	Index []int
	A, B  []float64
	// of names what each side is made of; known holds the sides already
	// made of them, taken from those Gather was given.
	of    [2]sideOf
	known [2]*Side
	// same says that A and B are one result's: one side for both.
	same bool
}

// Gather gathers a's and b's rewards on batch bi, taking those of the
// sides in known that are still theirs: a and b must be computed from one
// evaluation with the same scope, so that their batches are the same.
func Gather(a, b *engine.Result, bi int, known []*Side, buf *Buffers) *Gathered {
	members := a.Ranking.Batches[bi].Members
	g := &Gathered{same: a == b}
	if a.Evaluation != b.Evaluation { // the trajectories valid under both
		g.Index = make([]int, 0, len(members))
		for _, i := range members {
			if a.Evaluation.Valid[i] && b.Evaluation.Valid[i] {
				g.Index = append(g.Index, i)
			}
		}
		g.A, g.B = gather(take(&buf.floats, len(g.Index)), a, g.Index), gather(take(&buf.floats, len(g.Index)), b, g.Index)
		return g
	}
	g.of = [2]sideOf{{a, bi, len(members)}, {b, bi, len(members)}}
	for k, of := range g.of {
		for _, s := range known {
			if s != nil && s.of == of {
				g.known[k] = s
			}
		}
	}
	switch {
	case g.known[0] != nil:
		g.Index = g.known[0].Index
	case g.known[1] != nil:
		g.Index = g.known[1].Index
	default:
		g.Index = engine.ValidMembers(make([]int, 0, len(members)), members, a.Evaluation.Valid)
	}
	values := func(s *Side, res *engine.Result) []float64 {
		if s != nil {
			return s.Values
		}
		return gather(take(&buf.floats, len(g.Index)), res, g.Index)
	}
	g.A = values(g.known[0], a)
	g.B = g.A
	if !g.same {
		g.B = values(g.known[1], b)
	}
	return g
}

// RankedSide returns res's side on batch bi, sorted and ranked, its
// arrays taken from buf: the side Gather takes as known for res compared
// with another result of its evaluation, made before that result is
// (beside its computation). It computes the batch's rewards if they are
// not.
func RankedSide(res *engine.Result, bi int, buf *Buffers) *Side {
	res.ComputeBatch(bi)
	members := res.Ranking.Batches[bi].Members
	index := engine.ValidMembers(make([]int, 0, len(members)), members, res.Evaluation.Valid)
	s := newSide(sideOf{res, bi, len(members)}, index, gather(take(&buf.floats, len(index)), res, index), buf)
	s.rank(&buf.ranks[0])
	return s
}

// GatherLogged gathers a's rewards on batch bi and the advantages the
// trainer logged (Evaluation.Logged, as B), on the valid trajectories that
// have a finite one. Without logged advantages, nothing is gathered.
func GatherLogged(a *engine.Result, bi int) *Gathered {
	g := new(Gathered)
	if a.Evaluation.Logged != nil {
		for _, i := range a.Ranking.Batches[bi].Members {
			if comparedRow(a.Evaluation, i) {
				g.Index = append(g.Index, i)
				g.A = append(g.A, a.ShownReward(i))
				g.B = append(g.B, a.Evaluation.Logged[i])
			}
		}
	}
	return g
}

// Ranked returns the sides of g's values, making those not known: each
// sorted and ranked, the two on two goroutines.
func (g *Gathered) Ranked(buf *Buffers) (sa, sb *Side) {
	sa, sb = g.known[0], g.known[1]
	if g.same { // one result: known as both or neither
		if sa == nil {
			sa = g.newSide(0, g.A, buf)
			sa.rank(&buf.ranks[0])
		}
		return sa, sa
	}
	switch {
	case sa == nil && sb == nil:
		// Both made: the arrays taken before the goroutines start, the
		// Buffers not being safe for concurrent use.
		sa, sb = g.newSide(0, g.A, buf), g.newSide(1, g.B, buf)
		var wg sync.WaitGroup
		wg.Go(func() { sb.rank(&buf.ranks[1]) })
		sa.rank(&buf.ranks[0])
		wg.Wait()
	case sa == nil:
		sa = g.newSide(0, g.A, buf)
		sa.rank(&buf.ranks[0])
	case sb == nil:
		sb = g.newSide(1, g.B, buf)
		sb.rank(&buf.ranks[0])
	}
	return sa, sb
}

// Comparison returns the comparison of g's values but for what their
// ranks give (CompareSides): the rank statistics NaN, no orders, the
// signs not counted.
func (g *Gathered) Comparison() Comparison { return unranked(g.Index, g.A, g.B) }

// unranked is the comparison of a and b, the values of the trajectories
// index, before CompareSides ranks them.
func unranked(index []int, a, b []float64) Comparison {
	n := len(a)
	return Comparison{N: n, A: a, B: b, Index: index, Spearman: math.NaN(), Kendall: math.NaN(),
		TopK: stats.TopCount(n, TopFraction), TopOverlap: math.NaN()}
}

// gatherChunk is how many values a goroutine of kendall gathers at a
// time.
const gatherChunk = 1 << 16

// gather gathers res's rewards of index into v, as long as index: the
// rewards as shown (engine.Result.GatherShown), a group's rounding
// leftovers 0, neither sign.
func gather(v []float64, res *engine.Result, index []int) []float64 { return res.GatherShown(v, index) }

// newSide returns side k of g (0 for A, 1 for B) of values, its arrays
// taken from buf, not yet ranked (rank).
func (g *Gathered) newSide(k int, values []float64, buf *Buffers) *Side {
	return newSide(g.of[k], g.Index, values, buf)
}

// newSide returns the side of values, those of the trajectories index,
// made of of, its arrays taken from buf, not yet ranked (rank).
func newSide(of sideOf, index []int, values []float64, buf *Buffers) *Side {
	n := len(values)
	return &Side{of: of, Index: index, Values: values, order: take(&buf.int32s, n), codes: take(&buf.uint32s, n), ranks: take(&buf.floats, n)}
}

// Of reports whether s is result res's side on batch bi as it is now
// (follow mode appends to a batch): the side Gather takes as known for
// res compared with another result of its evaluation.
func (s *Side) Of(res *engine.Result, bi int) bool {
	return bi < len(res.Ranking.Batches) && s.of == sideOf{res, bi, len(res.Ranking.Batches[bi].Members)}
}

// AllDistinct reports whether no two of s's values, ranked, are equal
// (as == has them, NaN aside: -0 equals 0; two NaN count as equal).
func (s *Side) AllDistinct() bool { return s.tied == 0 }

// rank sorts and ranks s's values.
func (s *Side) rank(buf *floatorder.RankBuffers) {
	n := len(s.Values)
	s.distinct, s.tied = floatorder.Ranks(s.Values, s.order, s.codes, s.ranks, buf)
	s.nan = n > 0 && math.IsNaN(s.Values[s.order[0]]) // floatorder.Key orders NaN first
}

// avgRank returns Values[j]'s average rank: its code's, which with no
// ties is the code's place, code + 1.
func (s *Side) avgRank(j int) float64 {
	if s.distinct == len(s.codes) {
		return float64(s.codes[j] + 1)
	}
	return s.ranks[s.codes[j]]
}

// rankMean is the mean of n average ranks: (n+1)/2.
func rankMean(n int) float64 { return float64(n+1) / 2 }

// CompareSides compares a's values (A) with b's (B), two sides of the
// same trajectories. Kendall's tau-b (stats.KendallTauB) is counted on the
// ranks: with the positions sorted by (A, B) (sortBy), its discordant
// pairs are the inversions of B's ranks along that order
// (stats.Inversions), its pairs tied in both the runs of equal (A, B)
// ranks there. Spearman's rho (stats.Spearman) is the
// Pearson correlation of the two sides' average ranks. With a NaN among
// the values, both are computed on the values as stats does.
func CompareSides(a, b *Side, buf *Buffers) Comparison { return compareSides(a, b, nil, buf) }

// CompareSidesSigned is CompareSides with the sign disagreements of a's
// and b's values counted already (posNeg, negPos: as
// stats.SignDisagreements counts them), as they are shown before the
// ranks.
func CompareSidesSigned(a, b *Side, posNeg, negPos int, buf *Buffers) Comparison {
	return compareSides(a, b, &[2]int{posNeg, negPos}, buf)
}

// compareSides is CompareSides, the sign disagreements counted unless
// signs holds them.
func compareSides(a, b *Side, signs *[2]int, buf *Buffers) Comparison {
	n := len(a.Values)
	c := unranked(a.Index, a.Values, b.Values)
	c.ByA, c.ByB = take(&buf.int32s, n), take(&buf.int32s, n)
	sortByA := func() { sortBy(c.ByA, a, b, &buf.ranks[0], &buf.runKeys[0]) }
	sortByB := func() { sortBy(c.ByB, b, a, &buf.ranks[1], &buf.runKeys[1]) }
	along, other := sortByA, sortByB
	if !kendallAlongA(a, b) {
		along, other = sortByB, sortByA
	}
	// Kendall's count needs one order alone: it starts once that one is
	// sorted, beside the other order, Spearman's rho and the top share,
	// rather than after the slower of the two sorts.
	var wg sync.WaitGroup
	nan := a.nan || b.nan
	wg.Go(func() {
		along()
		if !nan {
			c.Kendall = kendall(a, b, c.ByA, c.ByB, buf)
		}
	})
	other()
	if !nan {
		c.Spearman = spearman(a, b)
	}
	if signs != nil {
		c.PosNeg, c.NegPos = signs[0], signs[1]
	} else {
		c.PosNeg, c.NegPos = stats.SignDisagreements(c.A, c.B)
	}
	c.TopShared = topShared(a, b, c.TopK, buf)
	if c.TopK > 0 { // stats.TopOverlap, from the count above
		c.TopOverlap = float64(c.TopShared) / float64(c.TopK)
	}
	wg.Wait()
	if nan {
		c.Kendall, c.Spearman = stats.KendallTauB(c.A, c.B), stats.Spearman(c.A, c.B)
	}
	return c
}

// fewTies is the most pairs of equal values, as a fraction 1/fewTies of
// the values, for which sortBy sorts a side's runs of equal values one by
// one rather than sorting every position by radix: a run of t values
// holds t(t-1)/2 pairs, so runs are then short, and most values are in
// none.
const fewTies = 16

// sortBy sets dst to the positions sorted by first's values, then
// second's, then position. With few ties in first (fewTies), that is
// first's order (by value, then position) with each run of equal values
// sorted by second's codes; otherwise a stable radix sort of second's
// order by first's codes. A run's length t comes from first's average
// rank of it, start + (t+1)/2 for the places after start.
func sortBy(dst []int32, first, second *Side, rb *floatorder.RankBuffers, keys *[]uint64) {
	n := len(dst)
	if first.tied > int64(n/fewTies) {
		floatorder.SortByCode(dst, second.order, first.codes, first.distinct, rb)
		return
	}
	copy(dst, first.order)
	if first.distinct == n {
		return
	}
	start := 0
	for c := range first.distinct {
		t := int(2*(first.ranks[c]-float64(start))) - 1
		if t > 1 {
			run, k := dst[start:start+t], (*keys)[:0]
			for _, p := range run {
				k = append(k, uint64(second.codes[p])<<32|uint64(uint32(p)))
			}
			slices.Sort(k)
			for j, e := range k {
				run[j] = int32(uint32(e))
			}
			*keys = k
		}
		start += t
	}
}

// spearman returns Spearman's rho of a's and b's values, with no NaN:
// stats.Pearson of their average ranks, computed as gonum's
// stat.Correlation does, the sums in position order,
//
//	rho = sum (ra - mean)(rb - mean) / sqrt(sum (ra - mean)^2 sum (rb - mean)^2),
//
// NaN when there are fewer than two values or either is constant. (Its
// correction by sum (r - mean) is 0 here: ranks are halves, their sums
// exact.) The three sums share one pass: the reads of the ranks, not
// the sums, are its cost.
func spearman(a, b *Side) float64 {
	n := len(a.codes)
	if n < 2 || a.distinct == 1 || b.distinct == 1 {
		return math.NaN()
	}
	var saa, sbb, sab float64
	mean := rankMean(n)
	for j := range n {
		da, db := a.avgRank(j)-mean, b.avgRank(j)-mean
		saa += da * da
		sbb += db * db
		sab += da * db
	}
	return sab / math.Sqrt(saa*sbb)
}

// kendall returns Kendall's tau-b of a's and b's values, with no NaN,
// from the positions sorted by (A, B) or by (B, A), the one
// kendallAlongA names (it reads no other, which may be being sorted
// meanwhile). The discordant
// pairs are counted on the codes of the side with fewer distinct values,
// along the other's order: stats.Inversions takes time in the log of the
// codes' count. Those codes along that order are gathered, and the pairs
// tied in both counted in the same pass (runs of equal codes in both), in
// chunks on every core; with a side of distinct values no pair is tied in
// both, and the codes are only gathered.
func kendall(a, b *Side, byA, byB []int32, buf *Buffers) float64 {
	n := len(byA)
	buf.seq, buf.seqScratch = slices.Grow(buf.seq[:0], n)[:n], slices.Grow(buf.seqScratch[:0], n)[:n]
	seq := buf.seq
	nw := parallel.Workers(n, gatherChunk)
	first, other, along := a, b, byA
	if !kendallAlongA(a, b) {
		first, other, along = b, a, byB
	}
	if a.tied == 0 || b.tied == 0 { // no pair tied in both: the codes alone
		parallel.Chunks(n, gatherChunk, nw, func(_, lo, hi int) {
			for j, i := range along[lo:hi] {
				seq[lo+j] = other.codes[i]
			}
		})
		return stats.KendallTauBCounts(n, a.tied, b.tied, 0, stats.Inversions(seq, buf.seqScratch))
	}
	chunks := make([]tiedChunk, (n+gatherChunk-1)/gatherChunk)
	parallel.Chunks(n, gatherChunk, nw, func(_, lo, hi int) {
		chunks[lo/gatherChunk] = gatherTied(seq, first.codes, other.codes, along, lo, hi)
	})
	// A chunk's first run that continues the run before it (run
	// positions, over the chunks before) ties each of its lead positions
	// with those too.
	var tiedBoth, run int64
	for _, c := range chunks {
		tiedBoth += c.pairs
		switch {
		case !c.joins:
			run = c.trail
		case c.whole:
			tiedBoth += run * c.lead
			run += c.lead
		default:
			tiedBoth += run * c.lead
			run = c.trail
		}
	}
	return stats.KendallTauBCounts(n, a.tied, b.tied, tiedBoth, stats.Inversions(seq, buf.seqScratch))
}

// kendallAlongA says whether kendall counts along the order by (A, B),
// on B's codes (B has at most A's distinct values), rather than along
// the order by (B, A): the only order it reads.
func kendallAlongA(a, b *Side) bool { return a.distinct >= b.distinct }

// A tiedChunk is what gatherTied counts of a chunk of the positions by
// (A, B) (or by (B, A)), in runs of equal (A, B) codes: the pairs tied
// in both within it, and the positions of the runs it starts and ends
// with (lead, trail); joins says the first continues the run before the
// chunk, whole that it fills the chunk.
type tiedChunk struct {
	pairs, lead, trail int64
	joins, whole       bool
}

// gatherTied sets seq[j] to B's code of position byA[j], for j in [lo,
// hi), and counts the pairs tied in both there (a tiedChunk); A and B
// may be either side, byA the order by A's codes then B's.
func gatherTied(seq, aCodes, bCodes []uint32, byA []int32, lo, hi int) tiedChunk {
	c := tiedChunk{lead: int64(hi - lo)} // until the first run ends
	var run int64                        // how many positions before j are in its run
	for j := lo; j < hi; j++ {
		i := byA[j]
		seq[j] = bCodes[i]
		switch {
		case j == lo:
		case seq[j] == seq[j-1] && aCodes[i] == aCodes[byA[j-1]]:
			run++
		default:
			c.lead = min(c.lead, int64(j-lo))
			run = 0
		}
		c.pairs += run
	}
	c.trail, c.whole = run+1, c.lead == int64(hi-lo)
	if lo > 0 {
		i, p := byA[lo], byA[lo-1]
		c.joins = bCodes[i] == bCodes[p] && aCodes[i] == aCodes[p]
	}
	return c
}

// topShared is stats.TopShared read from the sides' orders: the
// positions among the k largest of both, ties broken by position.
func topShared(a, b *Side, k int, buf *Buffers) int {
	n := len(a.Values)
	buf.inB = slices.Grow(buf.inB[:0], n)[:n]
	clear(buf.inB)
	for _, p := range top(b, k) {
		for _, j := range p {
			buf.inB[j] = true
		}
	}
	shared := 0
	for _, p := range top(a, k) {
		for _, j := range p {
			if buf.inB[j] {
				shared++
			}
		}
	}
	return shared
}

// top returns the k positions of s above its k-th largest value and the
// first of those equal to it, in two parts of its order: the run equal
// to the k-th value holds its positions in position order, so the first
// of them open it, and those above follow it.
func top(s *Side, k int) [2][]int32 {
	n := len(s.order)
	if k == 0 {
		return [2][]int32{}
	}
	kth := s.codes[s.order[n-k]]
	run, above := n-k, n-k+1
	for run > 0 && s.codes[s.order[run-1]] == kth {
		run--
	}
	for above < n && s.codes[s.order[above]] == kth {
		above++
	}
	equal := k - (n - above) // how many of those equal to the k-th are in
	return [2][]int32{s.order[run : run+equal], s.order[above:]}
}
