package agreement

import (
	"math"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/stats"
)

// Comparison compares the rewards of two results on the trajectories of one
// batch that both count as valid.
type Comparison struct {
	// N counts the compared trajectories.
	N int
	// A and B are their rewards under each result, in batch order, and
	// Index[j] the trajectory whose rewards A[j] and B[j] are.
	A, B              []float64
	Index             []int
	Spearman, Kendall float64
	// PosNeg counts positive advantages under A that are negative under B,
	// NegPos the reverse (see stats.SignDisagreements).
	PosNeg, NegPos int
	// TopK is the size of the top TopFraction of the batch, TopShared the
	// trajectories in both tops and TopOverlap = TopShared / TopK (see
	// stats.TopOverlap).
	TopK, TopShared int
	TopOverlap      float64
	// ByA and ByB are the positions in A and B sorted by (A, B) and by
	// (B, A), ascending, ties in position order.
	ByA, ByB []int
}

// TopFraction is the share of a batch that Comparison's TopOverlap compares.
const TopFraction = 0.1

// CompareRewards compares a's and b's rewards on batch bi. a and b must be
// computed from one evaluation with the same scope, so that their batches
// are the same.
func CompareRewards(a, b *engine.Result, bi int) Comparison {
	members := a.Ranking.Batches[bi].Members
	c := Comparison{A: make([]float64, 0, len(members)), B: make([]float64, 0, len(members)), Index: make([]int, 0, len(members))}
	for _, i := range members {
		if a.Evaluation.Valid[i] && b.Evaluation.Valid[i] {
			c.A = append(c.A, a.Rewards[i])
			c.B = append(c.B, b.Rewards[i])
			c.Index = append(c.Index, i)
		}
	}
	c.agreement()
	return c
}

// CompareWithLogged compares a's rewards on batch bi with the advantages
// the trainer logged (Evaluation.Logged, as B), on the valid trajectories
// that have one. Without logged advantages, nothing is compared.
func CompareWithLogged(a *engine.Result, bi int) Comparison {
	var c Comparison
	if a.Evaluation.Logged != nil {
		for _, i := range a.Ranking.Batches[bi].Members {
			if logged := a.Evaluation.Logged[i]; a.Evaluation.Valid[i] && !math.IsNaN(logged) && !math.IsInf(logged, 0) {
				c.A = append(c.A, a.Rewards[i])
				c.B = append(c.B, logged)
				c.Index = append(c.Index, i)
			}
		}
	}
	c.agreement()
	return c
}

// agreement computes c's statistics of c.A against c.B. The positions
// sorted by (A, B) and by (B, A), which Kendall's tau and Spearman's rho
// need, are sorted once and kept (ByA, ByB). When A has few distinct
// values (ranks, 0/1 scores), ByA comes from ByB by a stable radix sort
// on A alone, which keeps B's order within A's ties and skips most of its
// passes, where sorting by (A, B) from scratch would sort each of A's
// tied runs by B again; else the two are sorted from scratch, one on
// each core.
func (c *Comparison) agreement() {
	c.N = len(c.A)
	c.ByA, c.ByB = make([]int, c.N), make([]int, c.N)
	for j := range c.ByB {
		c.ByA[j], c.ByB[j] = j, j
	}
	byKeys := func(x, y []float64) func(k, i int) uint64 {
		return func(k, i int) uint64 {
			if k == 0 {
				return floatorder.Key(x[i])
			}
			return floatorder.Key(y[i])
		}
	}
	var wg sync.WaitGroup
	if fewDistinct(c.A) {
		var sorter floatorder.Sorter
		sorter.Sort(c.ByB, 2, byKeys(c.B, c.A))
		copy(c.ByA, c.ByB)
		sorter.Sort(c.ByA, 1, byKeys(c.A, nil))
	} else {
		wg.Go(func() { floatorder.Sort(c.ByA, 2, byKeys(c.A, c.B)) })
		floatorder.Sort(c.ByB, 2, byKeys(c.B, c.A))
		wg.Wait()
	}
	if slices.ContainsFunc(c.A, math.IsNaN) || slices.ContainsFunc(c.B, math.IsNaN) {
		c.Kendall, c.Spearman = stats.KendallTauB(c.A, c.B), stats.Spearman(c.A, c.B)
	} else {
		wg.Go(func() { c.Kendall = stats.KendallTauBSorted(c.A, c.B, c.ByA) })
		c.Spearman = stats.SpearmanSorted(c.A, c.B, c.ByA, c.ByB)
	}
	c.PosNeg, c.NegPos = stats.SignDisagreements(c.A, c.B)
	c.TopK = stats.TopCount(c.N, TopFraction)
	c.TopShared = stats.TopSharedSorted(c.A, c.B, c.ByA, c.ByB, c.TopK)
	c.TopOverlap = math.NaN() // stats.TopOverlap, from the count above
	if c.TopK > 0 {
		c.TopOverlap = float64(c.TopShared) / float64(c.TopK)
	}
	wg.Wait()
}

// fewDistinct reports whether x has few distinct values: fewer than half
// of as many as 1,024 of them, taken evenly spaced.
func fewDistinct(x []float64) bool {
	step := max(len(x)/1024, 1)
	var sample []uint64
	for j := 0; j < len(x); j += step {
		sample = append(sample, floatorder.Key(x[j]))
	}
	slices.Sort(sample)
	return len(slices.Compact(sample))*2 < len(sample)
}
