// Package live is the evaluation that following keeps: trajectories
// appended as a follower delivers them, and the sources read again
// replaced, on engine.Evaluation's incremental path (Append, Filter).
package live

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Evaluation is the evaluation of trajectories that arrive over time from
// sources (files, named by Trajectory.Source), as a follower delivers
// them: new trajectories are appended and evaluated alone, and a source
// read again from its start replaces its trajectories. Each Update returns
// the new evaluation; given the previous evaluation's result, Recompute
// and TrendsSince compute only the batches that changed. An Evaluation is
// used by one goroutine at a time.
type Evaluation struct {
	scorer scoring.Scorer
	ev     *engine.Evaluation
	// sourceOf holds each trajectory's source, an index in sources and
	// names; rows counts each source's trajectories, so that a source read
	// again is known to have some without a pass over sourceOf.
	sourceOf []int32
	sources  map[string]int32
	names    []string
	rows     []int
}

// New returns the live evaluation of ts with the scorer s, ev being
// engine.Evaluate(s, ts).
func New(s scoring.Scorer, ev *engine.Evaluation, ts []scoring.Trajectory) *Evaluation {
	return NewOf(s, ev, func(i int) string { return ts[i].Source })
}

// NewOf is New for a caller that keeps its trajectories otherwise than in
// a slice: source(i) is the Source of trajectory i, for i in [0, ev.N()).
func NewOf(s scoring.Scorer, ev *engine.Evaluation, source func(i int) string) *Evaluation {
	l := &Evaluation{scorer: s, ev: ev, sources: map[string]int32{}}
	l.note(ev.N(), source)
	ev.StartAppending(s)
	return l
}

// Evaluation returns the current evaluation.
func (l *Evaluation) Evaluation() *engine.Evaluation { return l.ev }

// Update forgets the trajectories of the sources replaced, keeping the
// order of the others, then appends ts, and returns the new evaluation.
// Without a replaced source that had trajectories, it extends the
// previous evaluation (see Append).
func (l *Evaluation) Update(replaced []string, ts []scoring.Trajectory) *engine.Evaluation {
	if drop := l.dropped(replaced); drop != nil {
		l.ev = l.ev.Filter(func(i int) bool { return !drop[l.sourceOf[i]] })
		l.sourceOf = slices.DeleteFunc(slices.Clone(l.sourceOf), func(s int32) bool { return drop[s] })
		for k := range drop {
			l.rows[k] = 0
		}
	}
	if len(ts) > 0 {
		l.ev = l.ev.Append(l.scorer, ts)
		l.note(len(ts), func(i int) string { return ts[i].Source })
	}
	return l.ev
}

// Leaving returns whether row i of the current evaluation is of a source
// of replaced, a row that Update(replaced, ...) forgets, for a caller
// that keeps columns of its own in the evaluation's order; nil when no
// row is.
func (l *Evaluation) Leaving(replaced []string) func(i int) bool {
	drop := l.dropped(replaced)
	if drop == nil {
		return nil
	}
	sourceOf := l.sourceOf // the rows of this evaluation, not of the next
	return func(i int) bool { return drop[sourceOf[i]] }
}

// dropped returns the set of the sources replaced that have
// trajectories, by index, or nil when there is none: in time of the
// names replaced, not of the rows.
func (l *Evaluation) dropped(replaced []string) map[int32]bool {
	var drop map[int32]bool
	for _, name := range replaced {
		if k, ok := l.sources[name]; ok && l.rows[k] > 0 {
			if drop == nil {
				drop = map[int32]bool{}
			}
			drop[k] = true
		}
	}
	return drop
}

// note records the sources of n trajectories, which follow those noted
// before; source(i) is the Source of the i-th of them.
func (l *Evaluation) note(n int, source func(i int) string) {
	lo, last := len(l.sourceOf), int32(-1)
	l.sourceOf = slices.Grow(l.sourceOf, n)[:lo+n]
	for i := range n {
		name := source(i)
		if last < 0 || l.names[last] != name {
			k, ok := l.sources[name]
			if !ok {
				k = int32(len(l.names))
				l.sources[name] = k
				l.names = append(l.names, name)
				l.rows = append(l.rows, 0)
			}
			last = k
		}
		l.sourceOf[lo+i] = last
		l.rows[last]++
	}
}
