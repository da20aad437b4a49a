package engine

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/pareto"
)

// Evaluation holds what a computation derives from the trajectories and the
// scorer's expressions alone: raw objective values and validity, and the
// Pareto ranking per scope. Methods, weights and normalisation are applied
// on top of it by Compute, so that switching them does not evaluate a single
// expression again.
type Evaluation struct {
	// Objectives describes the columns of Values.
	Objectives []Objective
	// Values holds the raw objective values, row-major: trajectory i's
	// objective k is Values[i*M+k].
	Values []float64
	M      int
	// Valid reports, per trajectory, whether every objective is finite.
	Valid []bool
	// Causes holds, per trajectory, why it is invalid ("" when valid).
	Causes []string

	batches []int64
	groups  []string

	mu       sync.Mutex
	rankings map[Scope]*Ranking
}

// Evaluate runs the scorer on every trajectory. The trajectories are not
// kept: only their batch and group are copied.
func Evaluate(s Scorer, ts []Trajectory) *Evaluation {
	objs := s.Objectives()
	m := len(objs)
	ev := &Evaluation{
		Objectives: slices.Clone(objs),
		Values:     make([]float64, len(ts)*m),
		M:          m,
		Valid:      make([]bool, len(ts)),
		Causes:     make([]string, len(ts)),
		batches:    make([]int64, len(ts)),
		groups:     make([]string, len(ts)),
	}
	for i := range ts {
		t := &ts[i]
		ev.batches[i], ev.groups[i] = t.Batch, t.Group
		if err := s.Evaluate(t, ev.Values[i*m:(i+1)*m]); err != nil {
			ev.Causes[i] = err.Error()
			continue
		}
		ev.Valid[i] = true
	}
	return ev
}

// N returns the number of trajectories.
func (ev *Evaluation) N() int { return len(ev.Valid) }

// Row returns trajectory i's raw objective values.
func (ev *Evaluation) Row(i int) []float64 { return ev.Values[i*ev.M : (i+1)*ev.M] }

// InvalidCounts returns the number of invalid trajectories per cause.
func (ev *Evaluation) InvalidCounts() map[string]int {
	counts := map[string]int{}
	for _, c := range ev.Causes {
		if c != "" {
			counts[c]++
		}
	}
	return counts
}

// Batch is the trajectories of one training step and their comparison groups.
type Batch struct {
	// Step is the batch value of its trajectories.
	Step int64
	// Members are the indices of its trajectories, in input order.
	Members []int
	// Groups are its comparison groups, in order of first appearance; each
	// lists trajectory indices in input order.
	Groups []Group
}

// Group is one comparison group.
type Group struct {
	Key     string // the group value; "" for scope batch
	Members []int
}

// Ranking is the Pareto ranking of an evaluation's valid trajectories within
// the comparison groups of one scope.
type Ranking struct {
	Scope Scope
	// Batches in ascending order of Step.
	Batches []Batch
	// Ranks holds each trajectory's 0-based Pareto rank within its
	// comparison group, -1 for an invalid trajectory.
	Ranks []int
	// Crowding holds each trajectory's crowding distance within its front
	// (+Inf at the boundaries), NaN for an invalid trajectory.
	Crowding []float64
	// Fronts holds the number of fronts of each trajectory's group.
	Fronts []int
}

// Ranking returns the ranking for scope, computing it on first use.
func (ev *Evaluation) Ranking(scope Scope) *Ranking {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if r, ok := ev.rankings[scope]; ok {
		return r
	}
	r := ev.rank(scope)
	if ev.rankings == nil {
		ev.rankings = map[Scope]*Ranking{}
	}
	ev.rankings[scope] = r
	return r
}

func (ev *Evaluation) rank(scope Scope) *Ranking {
	n := ev.N()
	r := &Ranking{
		Scope:    scope,
		Batches:  ev.partition(scope),
		Ranks:    make([]int, n),
		Crowding: make([]float64, n),
		Fronts:   make([]int, n),
	}
	var (
		ranker   pareto.Ranker
		points   []float64
		valid    []int
		ranks    []int
		crowding []float64
	)
	for _, b := range r.Batches {
		for _, g := range b.Groups {
			valid = valid[:0]
			points = points[:0]
			for _, i := range g.Members {
				if !ev.Valid[i] {
					r.Ranks[i], r.Crowding[i] = -1, math.NaN()
					continue
				}
				valid = append(valid, i)
				for k, o := range ev.Objectives {
					points = append(points, o.Orient(ev.Values[i*ev.M+k]))
				}
			}
			ranks = slices.Grow(ranks[:0], len(valid))[:len(valid)]
			crowding = slices.Grow(crowding[:0], len(valid))[:len(valid)]
			fronts := ranker.Ranks(ranks, points, ev.M)
			ranker.Crowding(crowding, points, ev.M, ranks)
			for j, i := range valid {
				r.Ranks[i], r.Crowding[i], r.Fronts[i] = ranks[j], crowding[j], fronts
			}
		}
	}
	return r
}

// partition splits the trajectories into batches (ascending step) and each
// batch into comparison groups.
func (ev *Evaluation) partition(scope Scope) []Batch {
	byStep := map[int64]int{}
	var batches []Batch
	for i, step := range ev.batches {
		bi, ok := byStep[step]
		if !ok {
			bi = len(batches)
			byStep[step] = bi
			batches = append(batches, Batch{Step: step})
		}
		batches[bi].Members = append(batches[bi].Members, i)
	}
	slices.SortFunc(batches, func(a, b Batch) int { return cmp.Compare(a.Step, b.Step) })
	for bi := range batches {
		b := &batches[bi]
		if scope == ScopeBatch {
			b.Groups = []Group{{Members: b.Members}}
			continue
		}
		byKey := map[string]int{}
		for _, i := range b.Members {
			gi, ok := byKey[ev.groups[i]]
			if !ok {
				gi = len(b.Groups)
				byKey[ev.groups[i]] = gi
				b.Groups = append(b.Groups, Group{Key: ev.groups[i]})
			}
			b.Groups[gi].Members = append(b.Groups[gi].Members, i)
		}
	}
	return batches
}
