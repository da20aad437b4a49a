package engine

import (
	"slices"

	"github.com/rewardlens/rewardlens/internal/parallel"
)

// A method that centres a comparison group's scores (grpo: s - mean(s),
// scaled; rloo: n / (n - 1) * (s - mean(s)); gpg) or rewards a margin
// (grpo-passk: max(s) - 2nd max(s)) gives every member of a group whose
// valid scores all equal a reward of 0 in exact arithmetic
// (MethodSpec.Settled), but in floating point s - mean(s) can leave a
// rounding error, which grpo's division by std + eps magnifies. Rewards keeps
// the computed value, as the trainer's arithmetic gives it; what shows a
// reward (the dashboard) takes it as the 0 it is: ShownReward.

// Settled reports whether trajectory i's reward is 0 in exact arithmetic
// whatever its computed value: i's comparison group has zero spread (its
// valid scores all equal, or fewer than two valid) and the method's
// MethodSpec.Settled says such a group is 0 (not a group of one that
// --group-of-one score, or gpg, rewards by its score). An invalid member, whose
// reward is the mean of the valid ones, is settled with them.
func (res *Result) Settled(i int) bool {
	s := res.settled()
	return s != nil && s[i]
}

// ShownReward returns trajectory i's reward as shown and compared: 0 when
// Settled, else Rewards[i].
func (res *Result) ShownReward(i int) float64 {
	if res.Settled(i) {
		return 0
	}
	return res.Rewards[i]
}

// Settle sets v[j], trajectory index[j]'s reward, to 0 when it is
// Settled: rewards gathered from Rewards become ShownReward's.
func (res *Result) Settle(v []float64, index []int) {
	if settled := res.settled(); settled != nil {
		for j, i := range index {
			if settled[i] {
				v[j] = 0
			}
		}
	}
}

// gatherChunk is how many rewards a goroutine of GatherShown gathers at a
// time.
const gatherChunk = 1 << 16

// GatherShown sets v[j] to ShownReward(index[j]), on every core; v is as
// long as index.
func (res *Result) GatherShown(v []float64, index []int) []float64 {
	parallel.Chunks(len(index), gatherChunk, parallel.Workers(len(index), gatherChunk), func(_, lo, hi int) {
		parallel.Gather(v[lo:hi], res.Rewards, index[lo:hi])
		res.Settle(v[lo:hi], index[lo:hi])
	})
	return v
}

// ShownRewardsOf returns ShownReward of batch b's trajectories,
// computing b's rewards (ComputeBatch) and no other batch's: trajectory i
// of b has its shown reward at shown[i-first], first b's first member
// (Members are in input order). shown is Rewards itself, first 0, when no
// member of b is settled; else a copy of Rewards[first:last+1] (last b's
// last member) with b's settled members set to 0, computed once per
// batch, in which an index that is not b's holds Rewards as it was. b is a
// batch of res, or of the same step (a result of other options'); a step
// res lacks returns Rewards, 0. Callers must not modify shown.
func (res *Result) ShownRewardsOf(b *Batch) (shown []float64, first int) {
	bi, ok := res.Ranking.BatchIndex(b.Step)
	if !ok {
		return res.Rewards, 0
	}
	res.ComputeBatch(bi)
	if !settles(res.Options) {
		return res.Rewards, 0
	}
	own := &res.Ranking.Batches[bi]
	v := Cached(res.Cache(), CacheKey{Of: ofShownBatchRewards, Step: own.Step, Members: len(own.Members)}, func(shownBatch) bool { return true }, func() shownBatch {
		var sb shownBatch
		for _, g := range own.Groups {
			if !res.zeroSpread(g.Members) {
				continue
			}
			if sb.shown == nil {
				sb.first = own.Members[0]
				sb.shown = slices.Clone(res.Rewards[sb.first : own.Members[len(own.Members)-1]+1])
			}
			for _, i := range g.Members {
				sb.shown[i-sb.first] = 0
			}
		}
		return sb
	})
	if v.shown == nil {
		return res.Rewards, 0
	}
	return v.shown, v.first
}

// shownBatch is ShownRewardsOf's value of a batch with settled members.
type shownBatch struct {
	shown []float64
	first int
}

// settled returns Settled of every trajectory, computed once per result
// from the scores and the validity (not the rewards, which a prepared
// result may not have yet); nil for a method that settles none
// (MethodSpec.Settled), or when no trajectory is settled.
func (res *Result) settled() []bool {
	if !settles(res.Options) {
		return nil
	}
	if p := res.settledOf.Load(); p != nil {
		return *p
	}
	settled := res.computeSettled()
	res.settledOf.Store(&settled) // two callers may compute it at once: the same
	return settled
}

// computeSettled is settled, computed.
func (res *Result) computeSettled() []bool {
	var settled []bool
	for bi := range res.Ranking.Batches {
		for _, g := range res.Ranking.Batches[bi].Groups {
			if !res.zeroSpread(g.Members) {
				continue
			}
			if settled == nil {
				settled = make([]bool, res.Evaluation.N()) // not Rewards: a prepared result may have none yet
			}
			for _, i := range g.Members {
				settled[i] = true
			}
		}
	}
	return settled
}

// settles returns the Settled of o's method.
func settles(o Options) bool {
	spec := Spec(o.Method)
	return spec != nil && spec.Settled
}

// zeroSpread reports whether the valid members' scores all equal (or
// fewer than two are valid) and the method settles such a group
// (MethodSpec.Settled: not a lone valid member rewarded by its score).
func (res *Result) zeroSpread(members []int) bool {
	valid, first := 0, 0.0
	for _, i := range members {
		if !res.Evaluation.Valid[i] {
			continue
		}
		if valid == 0 {
			first = res.Scores[i]
		} else if res.Scores[i] != first {
			return false
		}
		valid++
	}
	return settles(res.Options) && !(valid == 1 && res.Options.ScoresGroupOfOne())
}
