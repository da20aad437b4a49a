package scoring

import "slices"

// objectiveExpressions is a Scorer whose objectives (some of them) are
// expressions.
type objectiveExpressions interface {
	// expression returns objective k's expression, nil when it has none.
	expression(k int) *Expression
}

// ExpressionOf returns objective k's expression in s, nil when it has
// none (or s does not say).
func ExpressionOf(s Scorer, k int) *Expression {
	s, _ = Unstructured(s) // constraints and gates keep the objectives' expressions
	if x, ok := s.(objectiveExpressions); ok {
		return x.expression(k)
	}
	return nil
}

func (s *ParetoScorer) expression(k int) *Expression { return s.exprs[k] }

func (s *SVRLScorer) expression(k int) *Expression {
	if k == 0 {
		return s.task
	}
	return nil
}

// FieldsRead returns the fields e reads by name, sorted
// (sandbox.Program.FieldsRead).
func (e *Expression) FieldsRead() []string {
	if e.program == nil {
		return []string{e.key} // metadata["KEY"] (inferredKey)
	}
	return e.program.FieldsRead()
}

// Field returns the field e reads when it reads one metadata value (or
// bare name) and nothing else, else "".
func (e *Expression) Field() string {
	if e.direct {
		return e.key
	}
	return ""
}

// IsTrajectoryField reports whether name is one of the fields every
// trajectory has (id, batch, group, step_count, done, response, metadata)
// rather than a metadata key.
func IsTrajectoryField(name string) bool {
	_, ok := exprEnvTypes[name]
	return ok
}

// FieldNames returns the names an objective can read on t: its top-level
// fields and its metadata keys, sorted, without repeats.
func FieldNames(t *Trajectory) []string {
	names := make([]string, 0, len(exprEnvTypes)+len(t.Metadata))
	for name := range exprEnvTypes {
		if name != "metadata" {
			names = append(names, name)
		}
	}
	for k := range t.Metadata {
		names = append(names, k)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Text evaluates e on t as text, as a record field set by expression is
// (RecordFields.Apply: a string as it is, a number as its shortest decimal
// text, a bool as true or false); a missing value or another type is an
// error. t must not have been read with a Pick.
func (e *Expression) Text(t *Trajectory) (string, error) { return textValue(e, t) }
