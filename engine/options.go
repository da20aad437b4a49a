package engine

import (
	"fmt"
	"strings"
)

// Method names a reward method (docs/CONTRACT.md, Methods).
type Method string

// The reward methods, in the order the dashboard cycles through them.
const (
	Absolute       Method = "absolute"
	Relative       Method = "relative"
	GRPO           Method = "grpo"
	RLOO           Method = "rloo"
	Pareto         Method = "pareto"
	ParetoCrowding Method = "pareto-crowding"
	GDPO           Method = "gdpo"
)

// Methods lists every method.
var Methods = []Method{Absolute, Relative, GRPO, RLOO, Pareto, ParetoCrowding, GDPO}

// Scope says what a comparison group is: trajectories sharing a group within
// a batch (ScopeGroup), or the whole batch (ScopeBatch).
type Scope string

// The comparison scopes.
const (
	ScopeGroup Scope = "group"
	ScopeBatch Scope = "batch"
)

// Scopes lists every scope.
var Scopes = []Scope{ScopeGroup, ScopeBatch}

// Scale says what standard deviation divides GRPO's advantage.
type Scale string

// The GRPO scales.
const (
	ScaleGroup Scale = "group"
	ScaleBatch Scale = "batch"
	ScaleNone  Scale = "none"
)

// Scales lists every GRPO scale.
var Scales = []Scale{ScaleGroup, ScaleBatch, ScaleNone}

// Goal says whether an objective is maximised or minimised.
type Goal string

// The objective goals.
const (
	Maximize Goal = "max"
	Minimize Goal = "min"
)

// Goals lists every goal.
var Goals = []Goal{Maximize, Minimize}

// ParseMethod returns the method named s, or an error listing the valid names.
func ParseMethod(s string) (Method, error) { return parseEnum("method", s, Methods) }

// ParseScope returns the scope named s, or an error listing the valid names.
func ParseScope(s string) (Scope, error) { return parseEnum("scope", s, Scopes) }

// ParseScale returns the scale named s, or an error listing the valid names.
func ParseScale(s string) (Scale, error) { return parseEnum("scale", s, Scales) }

// ParseGoal returns the goal named s, or an error listing the valid names.
func ParseGoal(s string) (Goal, error) { return parseEnum("goal", s, Goals) }

func parseEnum[T ~string](what, s string, valid []T) (T, error) {
	for _, v := range valid {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown %s %q (valid: %s)", what, s, joinNames(valid))
}

func joinNames[T ~string](vs []T) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}

// Options are the settings of a reward computation that do not change what
// the scorer evaluates: the method and how it compares and normalises.
type Options struct {
	Method    Method
	Scope     Scope
	Scale     Scale
	Normalize bool
	// Weights, when not nil, replace the scorer's objective weights (one per
	// objective, in order): the score is sum_k Weights[k] * o'_k.
	Weights []float64
}

// DefaultOptions returns the defaults (docs/CONTRACT.md, Settings): method
// pareto, scope group,
// scale group, normalize on.
func DefaultOptions() Options {
	return Options{Method: Pareto, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true}
}
