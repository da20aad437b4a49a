package engine

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// Lexicographic is the method that orders a comparison group by
// priorities (docs/CONTRACT.md, Methods): everything it needs is in this
// file, lexicographicRewards being its rewards for one group.
const Lexicographic Method = "lexicographic"

// priorityKey is one priority resolved: objective k, its tolerance (0:
// none) and its orientation.
type priorityKey struct {
	k    int
	tol  float64
	sign float64
}

// errNoPriority is lexicographic without priorities.
var errNoPriority = errors.New("method lexicographic needs --priority a,b,... (the objectives in order of priority)")

// CheckPriority reports priorities or tolerances that name no objective,
// a tolerance that is not a positive finite number, a name given twice,
// and lexicographic without priorities.
func CheckPriority(objectives []scoring.Objective, opts Options) error {
	if opts.Method == Lexicographic && len(opts.Priority) == 0 {
		return errNoPriority
	}
	names := objectiveNameList(objectives)
	unknown := func(what, name string) error {
		hint := suggest.DidYouMean(suggest.Near(name, names))
		if hint == "" {
			hint = " (objectives: " + strings.Join(names, ", ") + ")"
		}
		return fmt.Errorf("%s: no objective %q%s", what, name, hint)
	}
	for j, name := range opts.Priority {
		if !slices.Contains(names, name) {
			return unknown("priority", name)
		}
		if slices.Contains(opts.Priority[:j], name) {
			return fmt.Errorf("priority: %q is given twice", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(opts.PriorityTolerance)) {
		if !slices.Contains(opts.Priority, name) {
			if !slices.Contains(names, name) {
				return unknown("priority tolerance", name)
			}
			return fmt.Errorf("priority tolerance: %q is not a priority (priorities: %s)", name, strings.Join(opts.Priority, ", "))
		}
		if t := opts.PriorityTolerance[name]; !(t > 0) || math.IsInf(t, 0) {
			return fmt.Errorf("priority tolerance %s: %v must be a positive finite number", name, t)
		}
	}
	return nil
}

func objectiveNameList(objectives []scoring.Objective) []string {
	names := make([]string, len(objectives))
	for k, o := range objectives {
		names[k] = o.Name
	}
	return names
}

// priorityKeys resolves opts' priorities over objectives; it panics on a
// name CheckPriority rejects.
func priorityKeys(objectives []scoring.Objective, opts Options) []priorityKey {
	keys := make([]priorityKey, len(opts.Priority))
	for j, name := range opts.Priority {
		k := slices.IndexFunc(objectives, func(o scoring.Objective) bool { return o.Name == name })
		if k < 0 {
			panic("engine: lexicographic priority " + name + " names no objective (CheckPriority)")
		}
		keys[j] = priorityKey{k: k, tol: opts.PriorityTolerance[name], sign: objectives[k].Orient(1)}
	}
	return keys
}

// priorityValue is x as a priority compares it: floor(x / tol) with a
// tolerance, else x, oriented (larger is better).
func (p priorityKey) value(x float64) float64 {
	if p.tol > 0 {
		x = math.Floor(x / p.tol)
	}
	return p.sign * x
}

// lexicographicCompare compares trajectories a and b of res: < 0 when a
// is worse. With constraints, a feasible trajectory is better than an
// infeasible one, and of two infeasible ones the smaller violation;
// then each priority in turn, ties (equal values, or values in the same
// bucket floor(x / t)) going to the next.
func lexicographicCompare(res *Result, keys []priorityKey, a, b int) int {
	if res.Evaluation.Violation != nil {
		fa, fb := res.Evaluation.feasible[a], res.Evaluation.feasible[b]
		switch {
		case fa != fb:
			if fa {
				return 1
			}
			return -1
		case !fa:
			if c := cmp.Compare(res.Evaluation.Violation[b], res.Evaluation.Violation[a]); c != 0 {
				return c
			}
		}
	}
	m := res.Evaluation.M
	for _, p := range keys {
		if c := cmp.Compare(p.value(res.Evaluation.Values[a*m+p.k]), p.value(res.Evaluation.Values[b*m+p.k])); c != 0 {
			return c
		}
	}
	return 0
}

// lexicographicRewards writes into u the rewards of the valid members idx
// of a group: relative's normalised rank, u = (r - 1) / (n - 1) with r
// the average 1-based rank of the member in the lexicographic order from
// worst to best (equal tuples share it), 0.5 for a group of one. order is
// scratch space, returned for the next call.
func lexicographicRewards(u []float64, res *Result, keys []priorityKey, idx, order []int) []int {
	return orderedUtilities(u[:len(idx)], func(p, q int) int { return lexicographicCompare(res, keys, idx[p], idx[q]) }, order)
}
