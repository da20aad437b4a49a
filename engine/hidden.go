package engine

// WithHidden returns e with a cause first for each objective of s that no
// cause of e names and whose expression reads a field that e.Fields lack:
// a trajectory's cause is its first objective that is not a finite
// number, so that an earlier objective's nulls hide a misnamed later one.
// Such a cause counts every trajectory as missing the objective (its
// value was never asked), so that the message says "no trajectory has
// field grop; did you mean group?". With e.Fields nil, e is returned.
func (e *NoValidError) WithHidden(s Scorer) *NoValidError {
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
	var hidden []NoValidCause
	for k, o := range s.Objectives() {
		x := expressionOf(s, k)
		if named[o.Name] || x == nil {
			continue
		}
		c := NoValidCause{Objective: o.Name, Expr: x.Source, Err: ErrMissing, Text: o.Name + ": " + ErrMissing.Error(), Count: e.Trajectories}
		if x.direct {
			c.Field = x.key
		}
		for _, f := range x.fieldsRead() {
			if !seen[f] {
				c.Unseen = append(c.Unseen, f)
				c.Suggestions = append(c.Suggestions, Suggest(f, e.Fields))
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
