package engine

import (
	"sync"

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
}

// TopFraction is the share of a batch that Comparison's TopOverlap compares.
const TopFraction = 0.1

// CompareRewards compares a's and b's rewards on batch bi. a and b must be
// computed from one evaluation with the same scope, so that their batches
// are the same.
func CompareRewards(a, b *Result, bi int) Comparison {
	var c Comparison
	for _, i := range a.Ranking.Batches[bi].Members {
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
func CompareWithLogged(a *Result, bi int) Comparison {
	var c Comparison
	if a.Evaluation.Logged != nil {
		for _, i := range a.Ranking.Batches[bi].Members {
			if logged := a.Evaluation.Logged[i]; a.Evaluation.Valid[i] && finite(logged) == nil {
				c.A = append(c.A, a.Rewards[i])
				c.B = append(c.B, logged)
				c.Index = append(c.Index, i)
			}
		}
	}
	c.agreement()
	return c
}

// agreement computes c's statistics of c.A against c.B.
func (c *Comparison) agreement() {
	c.N = len(c.A)
	// Each statistic sorts the batch on its own: over a million
	// trajectories, Kendall's on a core of its own.
	var wg sync.WaitGroup
	wg.Go(func() { c.Kendall = stats.KendallTauB(c.A, c.B) })
	c.Spearman = stats.Spearman(c.A, c.B)
	c.PosNeg, c.NegPos = stats.SignDisagreements(c.A, c.B)
	c.TopK = stats.TopCount(c.N, TopFraction)
	c.TopShared = stats.TopShared(c.A, c.B, c.TopK)
	c.TopOverlap = stats.TopOverlap(c.A, c.B, TopFraction)
	wg.Wait()
}
