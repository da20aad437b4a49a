package engine

import (
	"math"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Sources (docs/CONTRACT.md, Objectives with structure): with source_by,
// each trajectory belongs to the source the expression gives (verl's
// data_source) and is scored by that source's objectives and weights
// ([sources.NAME] in the config; the top-level objectives for a source
// without a section). The evaluation's columns are the union of the
// sources' objectives by name, in order of first appearance; a column that
// is not its source's holds 0 for a trajectory, and weighs 0. Comparison
// groups never mix sources, so that a column constant over a group changes
// no rank and no reward.

// SourceOf returns trajectory i's source ("" without source_by).
func (ev *Evaluation) SourceOf(i int) string {
	if ev.sourceOf == nil {
		return ""
	}
	return ev.SourceNames[ev.sourceOf[i]]
}

// HasSources reports whether the trajectories are scored by source.
func (ev *Evaluation) HasSources() bool { return ev.sourceOf != nil }

// SourceObjectives returns the columns of source src (an index in
// SourceNames): its objectives.
func (ev *Evaluation) SourceObjectives(src int) []int {
	var out []int
	for k, ok := range ev.sourceColumns[src] {
		if ok {
			out = append(out, k)
		}
	}
	return out
}

// sourceEvaluator is what an Evaluator keeps of a source scorer: its own
// copy of the source expression, and the sources' indexes by name.
type sourceEvaluator struct {
	s     *scoring.SourceScorer
	by    *scoring.Expression
	index map[string]int32
}

// newSourceEvaluator returns the sourceEvaluator of s for ev, whose
// sources it knows.
func newSourceEvaluator(s *scoring.SourceScorer, ev *Evaluation) *sourceEvaluator {
	se := &sourceEvaluator{s: s, by: s.SourceBy().Clone(), index: map[string]int32{}}
	for k, name := range ev.SourceNames {
		se.index[name] = int32(k)
	}
	return se
}

// sourceIndex returns the index in ev.SourceNames of t's source, adding
// it when new; -1 when source_by cannot be evaluated on t (the scorer
// then says why).
func (se *sourceEvaluator) sourceIndex(ev *Evaluation, t *scoring.Trajectory) int32 {
	name, err := se.by.Text(t)
	if err != nil {
		return -1
	}
	if k, ok := se.index[name]; ok {
		return k
	}
	k := int32(len(ev.SourceNames))
	se.index[name] = k
	ev.SourceNames = append(ev.SourceNames, name)
	j := se.s.ScorerIndex(name)
	ev.sourceScorer = append(ev.sourceScorer, j)
	ev.sourceWeights = append(ev.sourceWeights, se.s.Weights(j))
	cols := make([]bool, len(se.s.Objectives()))
	if j >= 0 {
		for _, c := range se.s.Columns(j) {
			cols[c] = true
		}
	}
	ev.sourceColumns = append(ev.sourceColumns, cols)
	return k
}

// sourceGroupKey is the key of group value g within source src, for the
// groups' index (Evaluator.sourceGroupIndex): groups of one value in two
// sources are two groups.
type sourceGroupKey struct {
	src int32
	g   string
}

// weightOf returns the weight of objective k for trajectory i: its
// source's, or the objective's.
func (res *Result) weightOf(i, k int) float64 {
	if res.Evaluation.sourceOf != nil {
		if src := res.Evaluation.sourceOf[i]; src >= 0 {
			return res.Evaluation.sourceWeights[src][k]
		}
		return 0
	}
	return res.Objectives[k].Weight
}

// ObjectiveWeight returns the weight of objective k over every trajectory
// of ev, its weight w without sources. With sources it is the weight the
// sources having k give it when they all give the same, NaN when they
// differ: no one weight is then the batch's.
func (ev *Evaluation) ObjectiveWeight(k int, w float64) float64 {
	if ev.sourceOf == nil {
		return w
	}
	shared := math.NaN()
	for src, cols := range ev.sourceColumns {
		switch v := ev.sourceWeights[src][k]; {
		case !cols[k]:
		case math.IsNaN(shared):
			shared = v
		case v != shared:
			return math.NaN()
		}
	}
	return shared
}

// SourceLess reports whether ev has sources and none of them has
// objective k (it is only a source's the data lacks, or the top level's
// while every source has its own section): its weight then scores no
// trajectory, and no source weighs it (ObjectiveWeight is NaN, as when
// the sources weigh it differently).
func (ev *Evaluation) SourceLess(k int) bool {
	if ev.sourceOf == nil {
		return false
	}
	for _, cols := range ev.sourceColumns {
		if cols[k] {
			return false
		}
	}
	return true
}

// sourceObjectiveCount returns how many objectives source src has.
func (ev *Evaluation) sourceObjectiveCount(src int32) int {
	if src < 0 {
		return 0
	}
	n := 0
	for _, ok := range ev.sourceColumns[src] {
		if ok {
			n++
		}
	}
	return n
}

// partitionBySource splits each batch's members by source, for scope
// batch: one comparison group per source, its Key the source's name, in
// order of first appearance (a trajectory whose source is unknown in a
// group of its own, keyed "").
func (ev *Evaluation) partitionBySource(batches []Batch) []Batch {
	for bi := range batches {
		b := &batches[bi]
		index := map[int32]int{}
		for _, i := range b.Members {
			src := ev.sourceOf[i]
			g, ok := index[src]
			if !ok {
				g = len(b.Groups)
				index[src] = g
				key := ""
				if src >= 0 {
					key = ev.SourceNames[src]
				}
				b.Groups = append(b.Groups, Group{Key: key})
			}
			b.Groups[g].Members = append(b.Groups[g].Members, i)
		}
	}
	return batches
}

// weightsOf returns the weights of trajectory i: its source's with
// sources (none when its source is unknown), else base, the objectives'.
func (ev *Evaluation) weightsOf(i int, base []float64) []float64 {
	if ev.sourceOf == nil {
		return base
	}
	if src := ev.sourceOf[i]; src >= 0 {
		return ev.sourceWeights[src]
	}
	return nil
}

// HasObjective reports whether objective k is one of trajectory i's
// source's (always without sources): a column of another source holds 0.
func (ev *Evaluation) HasObjective(i, k int) bool {
	if ev.sourceOf == nil {
		return true
	}
	src := ev.sourceOf[i]
	return src >= 0 && ev.sourceColumns[src][k]
}

// RankedObjectives returns how many objectives trajectory i is ranked
// over: its source's (0 for an unknown source), ev.M without sources.
func (ev *Evaluation) RankedObjectives(i int) int {
	if ev.sourceOf == nil {
		return ev.M
	}
	return ev.sourceObjectiveCount(ev.sourceOf[i])
}

// bySource splits idx, trajectories of res, by source index (a
// trajectory of unknown source, invalid, in none).
func (res *Result) bySource(idx []int) [][]int {
	out := make([][]int, len(res.Evaluation.SourceNames))
	for _, i := range idx {
		if src := res.Evaluation.sourceOf[i]; src >= 0 {
			out[src] = append(out[src], i)
		}
	}
	return out
}
