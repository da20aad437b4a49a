package engine

import (
	"cmp"
	"maps"
	"slices"
)

// Equal reports whether o and p compute the same rewards: the same method,
// scope, scale, normalisation, epsilon, std and group-of-one convention
// and score precision (a zero value the same as the default it stands
// for) and the same
// weights (nil the same as none), penalty, objective normalisation and
// priorities. TestOptionsEqualComparesEveryField fails
// when a field is added to Options and not compared here.
func (o Options) Equal(p Options) bool {
	return o.Method == p.Method && o.Scope == p.Scope && o.Scale == p.Scale && o.Normalize == p.Normalize &&
		slices.Equal(o.Weights, p.Weights) && o.EpsilonOrDefault() == p.EpsilonOrDefault() &&
		o.stdOrDefault() == p.stdOrDefault() && o.groupOfOneOrDefault() == p.groupOfOneOrDefault() &&
		cmp.Or(o.ScorePrecision, ScoreFloat64) == cmp.Or(p.ScorePrecision, ScoreFloat64) &&
		o.Penalty == p.Penalty && o.NormalizeObjectives == p.NormalizeObjectives &&
		slices.Equal(o.Priority, p.Priority) && maps.Equal(o.PriorityTolerance, p.PriorityTolerance)
}

// stdOrDefault returns o.Std, StdSample for "".
func (o Options) stdOrDefault() Std {
	if o.Std == "" {
		return StdSample
	}
	return o.Std
}

// groupOfOneOrDefault returns o.GroupOfOne, GroupOfOneZero for "".
func (o Options) groupOfOneOrDefault() GroupOfOne {
	if o.GroupOfOne == "" {
		return GroupOfOneZero
	}
	return o.GroupOfOne
}
