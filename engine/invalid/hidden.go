package invalid

import (
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// WithHidden returns e with a cause first for each objective of s that no
// cause of e names and whose expression reads a field that e.Fields lack:
// a trajectory's cause is its first objective that is not a finite
// number, so that an earlier objective's nulls hide a misnamed later one.
// Such a cause counts every trajectory as missing the objective (its
// value was never asked), so that the message says "no trajectory has
// field grop; did you mean group?". With e.Fields nil, e is returned.
func (e *NoValidError) WithHidden(s scoring.Scorer) *NoValidError {
	if e.Fields == nil {
		return e
	}
	named := map[string]bool{}
	for _, c := range e.Causes {
		named[c.Objective] = true
	}
	seen := map[string]bool{}
	for _, f := range e.Fields {
		seen[f] = true
	}
	var hidden []Cause
	for k, o := range s.Objectives() {
		x := scoring.ExpressionOf(s, k)
		if named[o.Name] || x == nil {
			continue
		}
		c := Cause{Objective: o.Name, Expr: x.Source, Err: scoring.ErrMissing, Text: (&scoring.InvalidError{Objective: o.Name, Err: scoring.ErrMissing}).Error(), Count: e.Trajectories}
		c.Field = x.Field()
		for _, f := range x.FieldsRead() {
			if !seen[f] {
				c.Unseen = append(c.Unseen, f)
				c.Suggestions = append(c.Suggestions, suggest.Near(f, e.Fields))
			}
		}
		if len(c.Unseen) > 0 {
			hidden = append(hidden, c)
		}
	}
	if hidden == nil {
		return e
	}
	out := *e
	out.Causes = append(hidden, e.Causes...)
	return &out
}
