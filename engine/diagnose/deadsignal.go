package diagnose

import (
	"github.com/rewardlens/rewardlens/engine"
	"math"
)

// DeadSignal is a batch's groups without a learning signal, told apart by
// a task metric (docs/CONTRACT.md, Dead signal): a completion passes when
// its task metric is >= the pass threshold. Only the valid trajectories
// count, as in FracZeroStdGroups.
type DeadSignal struct {
	// Groups counts the comparison groups that hold a valid trajectory.
	Groups int
	// ZeroSpread counts the groups without GRPO signal, as
	// BatchStats.ZeroStdGroups (their scores all equal; a group of one
	// only when the method does not reward it by its score), split by the
	// task metric into ZeroAllPass (every valid member passes),
	// ZeroAllFail (every valid member fails) and ZeroOther (the rest: the
	// metric varies, or is missing for some).
	ZeroSpread, ZeroAllPass, ZeroAllFail, ZeroOther int
	// Phantom counts the groups whose task metric all pass or all fail
	// while their scores vary: their advantages come from shaping terms
	// alone.
	Phantom int
	// PassRate is p, the fraction of the valid trajectories with a task
	// metric that pass; NaN when none has one.
	PassRate float64
	// DeadShare is the fraction of the groups whose task metric all pass
	// or all fail, whatever their scores: (ZeroAllPass + ZeroAllFail +
	// Phantom) / Groups.
	DeadShare float64
	// ExpectedDeadShare is what independent sampling at the batch's pass
	// rate gives: the mean over the groups of p^G_i + (1-p)^G_i, G_i the
	// group's valid trajectories, a term 0 for a group of one that the
	// method rewards by its score (never dead).
	ExpectedDeadShare float64
	// PhantomShare is Phantom / Groups.
	PhantomShare float64
}

// DeadSignalOf returns the dead signal of batch b, task holding each
// trajectory's task metric (NaN where it is missing), a completion passing
// when it is >= threshold. A group with a valid member whose metric is
// missing is neither all-pass nor all-fail. The shares are NaN when no
// group holds a valid trajectory.
func DeadSignalOf(res *engine.Result, b *engine.Batch, task []float64, threshold float64) DeadSignal {
	d := DeadSignal{}
	passed, known := 0, 0
	// groupsOfSize[G] counts the groups of G valid trajectories: a few
	// sizes, where a list of every group's would grow with the batch.
	var groupsOfSize []int
	for _, g := range b.Groups {
		lo, hi := math.Inf(1), math.Inf(-1)
		size, pass, fail := 0, 0, 0
		for _, i := range g.Members {
			if !res.Evaluation.Valid[i] {
				continue
			}
			size++
			lo, hi = min(lo, res.Scores[i]), max(hi, res.Scores[i])
			switch x := task[i]; {
			case math.IsNaN(x) || math.IsInf(x, 0):
			case x >= threshold:
				pass++
			default:
				fail++
			}
		}
		if size == 0 {
			continue
		}
		d.Groups++
		passed += pass
		known += pass + fail
		// A group of one rewarded by its score has signal: neither zero
		// spread nor phantom, whatever its task metric.
		if size == 1 && res.Options.ScoresGroupOfOne() {
			continue
		}
		if size >= len(groupsOfSize) {
			groupsOfSize = append(groupsOfSize, make([]int, size+1-len(groupsOfSize))...)
		}
		groupsOfSize[size]++
		allPass, allFail := pass == size, fail == size
		switch {
		case lo == hi && allPass:
			d.ZeroSpread++
			d.ZeroAllPass++
		case lo == hi && allFail:
			d.ZeroSpread++
			d.ZeroAllFail++
		case lo == hi:
			d.ZeroSpread++
			d.ZeroOther++
		case allPass || allFail:
			d.Phantom++
		}
	}
	d.PassRate, d.DeadShare, d.ExpectedDeadShare, d.PhantomShare = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if known > 0 {
		d.PassRate = float64(passed) / float64(known)
	}
	if d.Groups == 0 {
		return d
	}
	n := float64(d.Groups)
	d.DeadShare = float64(d.ZeroAllPass+d.ZeroAllFail+d.Phantom) / n
	d.PhantomShare = float64(d.Phantom) / n
	if known > 0 {
		p, sum := d.PassRate, 0.0
		for g, count := range groupsOfSize {
			sum += float64(count) * (math.Pow(p, float64(g)) + math.Pow(1-p, float64(g)))
		}
		d.ExpectedDeadShare = sum / n
	}
	return d
}

// AddDeadSignal sets the DeadSignal of every trend point (trends as
// Trends returns them), task and threshold as DeadSignalOf takes them.
func AddDeadSignal(res *engine.Result, trends []Trend, task []float64, threshold float64) {
	for bi := range trends {
		d := DeadSignalOf(res, &res.Ranking.Batches[bi], task, threshold)
		trends[bi].DeadSignal = &d
	}
}
