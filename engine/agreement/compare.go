package agreement

import (
	"github.com/rewardlens/rewardlens/engine"
)

// Comparison compares the rewards of two results on the trajectories of one
// batch that both count as valid.
type Comparison struct {
	// N counts the compared trajectories.
	N int
	// A and B are their rewards under each result, in batch order, and
	// Index[j] the trajectory whose rewards A[j] and B[j] are. They are
	// the Sides' and shared with every comparison of the same Side: not
	// to be modified.
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
	// (B, A), ascending in floatorder's order, ties in position order.
	ByA, ByB []int32
}

// TopFraction is the share of a batch that Comparison's TopOverlap compares.
const TopFraction = 0.1

// CompareRewards compares a's and b's rewards on batch bi. a and b must be
// computed from one evaluation with the same scope, so that their batches
// are the same.
func CompareRewards(a, b *engine.Result, bi int) Comparison {
	var buf Buffers
	sa, sb := Gather(a, b, bi, nil, &buf).Ranked(&buf)
	return CompareSides(sa, sb, &buf)
}

// CompareWithLogged compares a's rewards on batch bi with the advantages
// the trainer logged (Evaluation.Logged, as B), on the valid trajectories
// that have one (GatherLogged). Without logged advantages, nothing is
// compared.
func CompareWithLogged(a *engine.Result, bi int) Comparison {
	var buf Buffers
	sa, sb := GatherLogged(a, bi).Ranked(&buf)
	return CompareSides(sa, sb, &buf)
}
