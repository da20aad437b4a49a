package engine

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/suggest"
	"github.com/rewardlens/rewardlens/stats"
)

// ObjectiveNorm says how each objective is normalised, over its
// comparison group's valid trajectories (Options.Scope), before it is
// weighted (docs/CONTRACT.md, Objectives with structure).
type ObjectiveNorm string

// The objective normalisations.
const (
	// NormNone leaves the raw values.
	NormNone ObjectiveNorm = "none"
	// NormMinMax is (x - min) / (max - min).
	NormMinMax ObjectiveNorm = "minmax"
	// NormZScore is (x - mean) / std, the population std (stats.ZScores).
	NormZScore ObjectiveNorm = "zscore"
	// NormRank is (r - 1) / (n - 1), r the average 1-based rank of x.
	NormRank ObjectiveNorm = "rank"
)

// ObjectiveNorms lists every objective normalisation.
var ObjectiveNorms = []ObjectiveNorm{NormNone, NormMinMax, NormZScore, NormRank}

// parseObjectiveNorm returns the normalisation named s, or an error
// listing the valid names.
func parseObjectiveNorm(s string) (ObjectiveNorm, error) {
	return suggest.Parse("objective normalisation", s, ObjectiveNorms)
}

// DefaultPenalty is the default lambda of score - lambda * violation.
const DefaultPenalty = 1.0

// normalizeColumn writes into dst the normalisation norm of x, which is
// 0 everywhere when x is constant (max == min); order is scratch space,
// returned for the next call. dst must not be x.
func normalizeColumn(dst, x []float64, norm ObjectiveNorm, order []int) []int {
	lo, hi := slices.Min(x), slices.Max(x)
	if lo == hi {
		clear(dst)
		return order
	}
	switch norm {
	case NormMinMax:
		for j, v := range x {
			dst[j] = (v - lo) / (hi - lo)
		}
	case NormZScore:
		// Sorted in dst, which the z-scores then overwrite.
		stats.ZScores(dst, x, dst[:0])
	case NormRank:
		order = stats.AverageRanks(dst, x, order)
		n := float64(len(x))
		for j := range dst {
			dst[j] = (dst[j] - 1) / (n - 1)
		}
	default:
		copy(dst, x)
	}
	return order
}

// structured reports whether the scores of opts on ev are more than
// sum_k w_k o'_k: ev has gates, constraints or sources, or opts
// normalises the objectives.
func (ev *Evaluation) structured(opts Options) bool {
	return ev.GateShut != nil || ev.Violation != nil || ev.sourceOf != nil || (opts.NormalizeObjectives != "" && opts.NormalizeObjectives != NormNone)
}

// structuredScores returns the terms t_ik = g_ik * o'(N_k(x_ik)) of every
// valid trajectory (row-major as Values; g_ik is 0 where a gate shuts
// objective k, else 1; N_k the normalisation over the valid members of
// the comparison group of batches), and writes the scores
// s_i = sum_k w_k t_ik - lambda v_i, v_i the violation, into scores (the
// sum in float32 under ScoreFloat32, the penalty in float64); with
// sources, w_k is the trajectory's source's weight (sources.go).
func (ev *Evaluation) structuredScores(scores []float64, objectives []scoring.Objective, opts Options, batches []Batch) []float64 {
	m := ev.M
	terms := make([]float64, len(ev.Values))
	norm := opts.NormalizeObjectives
	if norm == "" || norm == NormNone {
		for i := range ev.N() {
			if ev.Valid[i] {
				for k, o := range objectives {
					terms[i*m+k] = o.Orient(ev.Values[i*m+k])
				}
			}
		}
	} else {
		var (
			idx    []int
			x, y   []float64
			order  []int
			groups []*Group
		)
		for bi := range batches {
			for gi := range batches[bi].Groups {
				groups = append(groups, &batches[bi].Groups[gi])
			}
		}
		for _, g := range groups {
			idx = ValidMembers(idx, g.Members, ev.Valid)
			if len(idx) == 0 {
				continue
			}
			x, y = parallel.Grow(x, len(idx)), parallel.Grow(y, len(idx))
			for k, o := range objectives {
				for j, i := range idx {
					x[j] = ev.Values[i*m+k]
				}
				order = normalizeColumn(y, x, norm, order)
				for j, i := range idx {
					terms[i*m+k] = o.Orient(y[j])
				}
			}
		}
	}
	if ev.GateShut != nil {
		for p, shut := range ev.GateShut {
			if shut {
				terms[p] = 0
			}
		}
	}
	base := make([]float64, len(objectives))
	for k, o := range objectives {
		base[k] = o.Weight
	}
	for i := range ev.N() {
		scores[i] = math.NaN()
		if !ev.Valid[i] {
			continue
		}
		var s float64
		if w := ev.weightsOf(i, base); opts.scoreIn32() {
			s = scoring.Sum32(w, terms[i*m:(i+1)*m])
		} else {
			for k, wk := range w {
				s += wk * terms[i*m+k]
			}
		}
		if ev.Violation != nil {
			s -= opts.Penalty * ev.Violation[i]
		}
		scores[i] = s
	}
	return terms
}

// Term returns trajectory i's term of objective k, t_ik (structuredScores),
// which is o'_k without gates and normalisation.
func (res *Result) Term(i, k int) float64 {
	if res.scoreSet != nil && res.scoreSet.terms != nil {
		return res.scoreSet.terms[i*res.Evaluation.M+k]
	}
	return res.Objectives[k].Orient(res.Evaluation.Values[i*res.Evaluation.M+k])
}

// WeightedTerm returns trajectory i's part of its score from objective
// k, w_ik t_ik (structuredScores; w_ik its source's weight with sources):
// the score is their sum, less the penalty of its violation. A term that
// is not a finite number (an objective --nansum leaves out) adds nothing.
func (res *Result) WeightedTerm(i, k int) float64 {
	c := res.weightOf(i, k) * res.Term(i, k)
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return 0
	}
	return c
}
