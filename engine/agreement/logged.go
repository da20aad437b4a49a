package agreement

import (
	"fmt"
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
	// of |reward - logged| (NaN when Rows is 0), a row within a coarse
	// float32 bound (Float32Coarse) with its own difference too.
	MaxAbsDiff, MeanAbsDiff float64
	// Differing counts the rows where |reward - logged| > Tolerance, the
	// rows of TieResidueGroups agreeing.
	Differing int
	// MaxScaledDiff is the max of |reward - logged| / max(1, |logged|):
	// the difference relative to the logged value beyond 1, where float32
	// rounding grows with it (Reproduces).
	MaxScaledDiff float64
	// TieResidueGroups counts the groups of equal scores whose rows carry
	// one logged advantage, not 0, within the trainer's float32 residue
	// (TieResidue): their rows count as agreeing with a reward of 0.
	// Under a method that normalises over the batch last (OverBatch) it
	// counts the groups of a float32 tie whose residue the batch's rows
	// carry (BatchResidue), which then agree.
	TieResidueGroups int
	// Float32Coarse, when not 0, is the largest float32 bound of a row
	// that agrees only within a coarse one (whitened32: rloo-whitened and
	// gdpo far from 0, whose float32 noise is as large as what a slightly
	// wrong weight changes): the rows agree within float32's error at this
	// scale, which cannot tell settings whose advantages are closer than
	// it (Float32CoarseNote).
	Float32Coarse float64
}

// CompareLogged compares the rewards of batch b's valid trajectories
// with the logged advantages (an invalid one's reward is its group's mean,
// no trainer's advantage); a group of equal scores agrees with any logged
// value its float32 residue allows (TieResidue). ok is false when the
// evaluation has none (no logged advantage expression).
func CompareLogged(res *engine.Result, b *engine.Batch) (c Diff, ok bool) {
	if res.Evaluation.Logged == nil {
		return c, false
	}
	return compareLogged(res, b, nil), true
}

// compareLogged is CompareLogged of a result with logged advantages,
// marking b's rows of float32 ties in ties (tieResidues; tieRows(res),
// shared with the caller), or in a set of its own when ties is nil, and
// when a row is beyond Reproduces those within the float32 rounding's
// bound (float32Agreeing), counted again.
func compareLogged(res *engine.Result, b *engine.Batch, ties *rowSet) Diff {
	c := newDiffCount()
	if ties == nil {
		ties = &rowSet{}
	}
	c.TieResidueGroups = tieResidues(res, b, ties)
	c.Float32Coarse = float32Agreeing(res, b, ties)
	for _, i := range b.Members {
		logged := res.Evaluation.Logged[i]
		if math.IsNaN(logged) || math.IsInf(logged, 0) {
			continue
		}
		c.Logged++
		if res.Evaluation.Valid[i] {
			c.addCompared(res, ties, i)
		}
	}
	return c.diff()
}

// comparedRow reports whether row i of ev is compared with its logged
// advantage: valid, with a logged value that is a finite number.
func comparedRow(ev *engine.Evaluation, i int) bool {
	l := ev.Logged[i]
	return ev.Valid[i] && !math.IsNaN(l) && !math.IsInf(l, 0)
}

// diffCount is a Diff counted row by row (add), its mean once done
// (diff).
type diffCount struct {
	Diff
	sum float64 // of |reward - logged|
}

// newDiffCount returns the count of no row: the differences NaN.
func newDiffCount() diffCount {
	return diffCount{Diff: Diff{MaxAbsDiff: math.NaN(), MeanAbsDiff: math.NaN()}}
}

// add counts a row of reward and logged advantage, a finite number.
func (c *diffCount) add(reward, logged float64) {
	d := math.Abs(reward - logged)
	if c.Rows == 0 || d > c.MaxAbsDiff {
		c.MaxAbsDiff = d
	}
	c.MaxScaledDiff = max(c.MaxScaledDiff, d/max(1, math.Abs(logged)))
	c.sum += d
	c.Rows++
	if d > Tolerance {
		c.Differing++
	}
}

// addCompared counts row i of res, compared (comparedRow), by its
// comparedReward; a row within a coarse float32 bound (rowSet.isCoarse)
// agrees, but its |reward - logged| is its own in MaxAbsDiff and
// MeanAbsDiff: such a bound hides differences as large as a wrong
// setting's, which the figures said must not.
func (c *diffCount) addCompared(res *engine.Result, ties *rowSet, i int) {
	logged := res.Evaluation.Logged[i]
	if !ties.isCoarse(i) {
		c.add(comparedReward(res, ties, i), logged)
		return
	}
	c.add(logged, logged)
	d := math.Abs(res.Rewards[i] - logged)
	c.MaxAbsDiff = max(c.MaxAbsDiff, d)
	c.sum += d
}

// diff returns the Diff of the rows counted.
func (c *diffCount) diff() Diff {
	if c.Rows > 0 {
		c.MeanAbsDiff = c.sum / float64(c.Rows)
	}
	return c.Diff
}

// Float32CoarseNote says, of c with no row differing but some agreeing
// only within a coarse float32 bound (Diff.Float32Coarse), that the
// logged advantages agree within float32's error at this scale, which
// cannot tell the settings from others whose advantages are that close:
// a check that passes, not one that tells the settings apart; "" when
// none is coarse or a row differs (the warning says that).
func Float32CoarseNote(c Diff) string {
	if c.Float32Coarse == 0 || c.Differing > 0 {
		return ""
	}
	return fmt.Sprintf("the logged advantages agree with these settings only within float32's error at this scale (up to %s: the trainer's float32 sums of scores far from 0 lose digits), "+
		"which cannot tell them from settings (weights, method) whose advantages are within that of these: the settings are not verified closer than that",
		shortNumber(c.Float32Coarse))
}
