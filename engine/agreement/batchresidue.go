package agreement

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/stats"
)

// BatchTie is one group of a batch whose trainer normalises over the
// batch last (TRL's normalize_then_sum, RLOOTrainer's
// normalize_advantages), for BatchResidue.
type BatchTie struct {
	// Bound bounds the float32 residue the trainer adds alike to every
	// row of the group before the batch's normalisation; 0 when nothing
	// of the group ties. Under normalize_then_sum it is the sum over the
	// group's rewards whose n_k values tie in float32 at x_k of
	// TieResidueBound(n_k + 2, w_k x_k, epsilon): each is normalised as
	// grpo's group (TieResidueBound), then times its weight w_k, itself
	// rounded to float32, which adds two roundings. Under RLOOTrainer it
	// is TieResidueBound(n, x, 1) when the group's n sums tie at x: the
	// leave-one-out baseline fl(fl(S - x) / (n - 1)), S the sum in any
	// order (|S - n x| <= gamma(n-1) n |x|), is x within |S - n x| / (n -
	// 1) + gamma(2) |x| to first order, about (n + 2) u |x|, and x minus
	// it is exact (Sterbenz).
	Bound float64
	// Diff holds logged - computed of the group's compared rows.
	Diff []float64
}

// BatchResidue reports whether the differences of a batch's groups
// between the logged and the computed advantages are the trainer's
// float32 residue of its tied groups, spread over the batch by its
// normalisation: A = (v + c - mean(v + c)) / divisor, v the exact values
// (rewardlens's, centred), c_g the residue of group g, |c_g| <= Bound.
// That is, the differences are one value d_g within each group (within
// Reproduces), their mean over the rows is 0 (within Reproduces: both
// sides are centred over the batch), some shift m (the residues' mean)
// gives every group |d_g divisor + m| <= Bound (within Reproduces
// divisor), and some group has a residue (Bound > 0). A wrong weight,
// scale or method changes the advantages of a group with spread
// unevenly, and a shift of every row moves their mean, which no residue
// does.
func BatchResidue(groups []BatchTie, divisor float64) bool {
	lo, hi := math.Inf(-1), math.Inf(1)
	tied := false
	sum, rows := 0.0, 0
	for _, g := range groups {
		if len(g.Diff) == 0 {
			continue
		}
		dlo, dhi := slices.Min(g.Diff), slices.Max(g.Diff)
		if dhi-dlo > Reproduces || math.IsNaN(dhi-dlo) {
			return false
		}
		for _, d := range g.Diff {
			sum += d
		}
		rows += len(g.Diff)
		c := (dlo + dhi) / 2 * divisor
		slack := Reproduces * divisor
		lo, hi = max(lo, -g.Bound-c-slack), min(hi, g.Bound-c+slack)
		tied = tied || g.Bound > 0
	}
	return tied && lo <= hi && math.Abs(sum/float64(rows)) <= Reproduces
}

// BatchDivisor returns what a trainer's normalisation over the batch
// divided by, std(v + c) + eps (BatchResidue), from the std of the
// computed advantages over those rows, computedStd = S / (S + eps) for
// S = std(v), and of the logged ones, loggedStd: the residue adds to the
// variance (c is constant within each group, v sums to 0 there), so the
// divisor is eps / (1 - loggedStd). When S >= eps (computedStd >= 1/2)
// that is eps / (1 - computedStd) up to the residue's share of the
// variance, and the log's float32 rounding would spoil 1 - loggedStd,
// nearly 0: computedStd is taken. false when neither tells it
// (loggedStd not below 1).
func BatchDivisor(computedStd, loggedStd, eps float64) (float64, bool) {
	if computedStd >= 0.5 && computedStd < 1 {
		return eps / (1 - computedStd), true
	}
	if loggedStd >= 0 && loggedStd < 1 {
		return eps / (1 - loggedStd), true
	}
	return 0, false
}

// OverBatch reports whether o's method normalises over the batch last
// with float32's residue of a tie in it (BatchResidue): gdpo (TRL's
// normalize_then_sum; its groups' residue stays under --no-normalize,
// divided by nothing) and rloo-whitened, with the score in float32.
func OverBatch(o engine.Options) bool {
	if o.ScorePrecision != engine.ScoreFloat32 {
		return false
	}
	return o.Method == engine.GDPO || o.Method == engine.RLOOWhitened && o.Normalize
}

// batchTieResidues is tieResidues under a method that normalises over
// the batch last (OverBatch): when the differences of batch b's rows
// are the float32 residue of its tied groups (BatchResidue; every group
// whole, every row the trainer normalised over with a logged value)
// and some differ beyond Reproduces, it marks in rows every row of the
// groups checked (all compared; not a group of one RLOOTrainer leaves
// out) and returns the number of groups with a residue whose rows
// differ beyond Reproduces. A batch without groups (a subset of a step's
// rows) or with sources is left alone.
func batchTieResidues(res *engine.Result, b *engine.Batch, rows *rowSet) int {
	if len(b.Groups) == 0 || res.Evaluation.HasSources() {
		return 0 // with sources, each source's rows are normalised apart
	}
	beyond := slices.ContainsFunc(b.Members, func(i int) bool {
		return comparedRow(res.Evaluation, i) && BeyondReproduces(res.Rewards[i], res.Evaluation.Logged[i])
	})
	if !beyond {
		return 0
	}
	o := res.Options
	eps := o.EpsilonOrDefault()
	usual := usualGroupSize(b.Groups)
	ties := make([]BatchTie, len(b.Groups))
	var computed, logged []float64
	var g TieGroup
	for gi, m := range b.Groups {
		tieGroup(&g, res, m, usual)
		if !g.Whole() {
			return 0
		}
		if o.Method == engine.RLOOWhitened && len(g.Scores) < 2 {
			continue // left out of RLOOTrainer's whitening
		}
		ties[gi].Bound = groupResidueBound(res, m.Members, len(g.Scores), eps)
		for _, i := range m.Members {
			if !comparedRow(res.Evaluation, i) {
				return 0
			}
			ties[gi].Diff = append(ties[gi].Diff, res.Evaluation.Logged[i]-res.Rewards[i])
			logged = append(logged, res.Evaluation.Logged[i])
			computed = append(computed, res.Rewards[i])
		}
	}
	divisor := 1.0
	if o.Normalize {
		stdOf := stats.SampleStd
		if o.Method == engine.GDPO {
			stdOf = o.StdOf
		}
		var ok bool
		if divisor, ok = BatchDivisor(stdOf(computed), stdOf(logged), eps); !ok {
			return 0
		}
	}
	if !BatchResidue(ties, divisor) {
		return 0
	}
	rows.coverGroups(len(res.Scores), b.Groups)
	residueGroups := 0
	for gi, m := range b.Groups {
		for _, i := range m.Members {
			if len(ties[gi].Diff) > 0 { // not a group RLOOTrainer leaves out
				rows.marked[i-rows.first] = true
			}
		}
		if ties[gi].Bound > 0 && slices.ContainsFunc(ties[gi].Diff, func(d float64) bool { return math.Abs(d) > Reproduces }) {
			residueGroups++
		}
	}
	return residueGroups
}

// groupResidueBound is BatchTie.Bound of the group of members (n of
// them, each valid) under res's method: gdpo's sum over its objectives
// whose terms tie in float32 among the members that have them (two or
// more) of TieResidueBound(count + 2, weighted term, eps); rloo-whitened's
// TieResidueBound(n, score, 1) when its scores tie.
func groupResidueBound(res *engine.Result, members []int, n int, eps float64) float64 {
	if res.Options.Method == engine.RLOOWhitened {
		x := res.Scores[members[0]]
		if slices.ContainsFunc(members, func(i int) bool { return res.Scores[i] != x }) {
			return 0
		}
		return TieResidueBound(n, x, 1)
	}
	bound := 0.0
	for k := range res.Objectives {
		count, first := 0, -1
		tie := true
		for _, i := range members {
			if res.Evaluation.Absent != nil && res.Evaluation.Absent[i*res.Evaluation.M+k] {
				continue
			}
			if first < 0 {
				first = i
			} else if float32(res.Term(i, k)) != float32(res.Term(first, k)) {
				tie = false
				break
			}
			count++
		}
		if tie && count >= 2 {
			bound += TieResidueBound(count+2, res.WeightedTerm(first, k), eps)
		}
	}
	return bound
}
