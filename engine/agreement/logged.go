package agreement

import (
	"math"

	"github.com/rewardlens/rewardlens/engine"
)

// Tolerance is how far a reward may be from the advantage the
// trainer logged before the row counts as differing
// (Diff.Differing): float32 training code (TRL's) rounds at
// about 1e-7 relative.
const Tolerance = 1e-4

// Diff compares a batch's rewards with the advantages its
// trainer logged (Evaluation.Logged): does the trainer compute what the
// settings say?
type Diff struct {
	// Rows counts the batch's valid trajectories whose record has a
	// logged advantage (a finite number); the others are left out.
	Rows int
	// Logged counts the batch's trajectories with a finite logged
	// advantage, valid or not: Rows 0 with Logged > 0 is a batch whose
	// logged rows are all invalid, not one that logged nothing.
	Logged int
	// MaxAbsDiff and MeanAbsDiff are the max and the mean over those rows
	// of |reward - logged| (NaN when Rows is 0).
	MaxAbsDiff, MeanAbsDiff float64
	// Differing counts the rows where |reward - logged| > Tolerance.
	Differing int
	// MaxScaledDiff is the max of |reward - logged| / max(1, |logged|):
	// the difference relative to the logged value beyond 1, where float32
	// rounding grows with it (Reproduces).
	MaxScaledDiff float64
}

// CompareLogged compares the rewards of batch b's valid trajectories
// with the logged advantages (an invalid one's reward is its group's mean,
// no trainer's advantage). ok is false when the evaluation has none (no
// logged advantage expression).
func CompareLogged(res *engine.Result, b *engine.Batch) (c Diff, ok bool) {
	if res.Evaluation.Logged == nil {
		return c, false
	}
	return compareLogged(res, b), true
}

// compareLogged is CompareLogged of a result with logged advantages.
func compareLogged(res *engine.Result, b *engine.Batch) (c Diff) {
	c.MaxAbsDiff, c.MeanAbsDiff = math.NaN(), math.NaN()
	sum := 0.0
	for _, i := range b.Members {
		logged := res.Evaluation.Logged[i]
		if math.IsNaN(logged) || math.IsInf(logged, 0) {
			continue
		}
		c.Logged++
		if !res.Evaluation.Valid[i] {
			continue
		}
		d := math.Abs(res.Rewards[i] - logged)
		if c.Rows == 0 || d > c.MaxAbsDiff {
			c.MaxAbsDiff = d
		}
		c.MaxScaledDiff = max(c.MaxScaledDiff, d/max(1, math.Abs(logged)))
		sum += d
		c.Rows++
		if d > Tolerance {
			c.Differing++
		}
	}
	if c.Rows > 0 {
		c.MeanAbsDiff = sum / float64(c.Rows)
	}
	return c
}
