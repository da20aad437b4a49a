package engine

import (
	"slices"
)

// causeCounter counts causes. Invalid trajectories come in runs of one
// cause, whose strings are one string (Evaluation.evaluate builds each
// once): a run is counted before it is added to the map, rather than
// hashing every cause.
type causeCounter struct {
	counts map[string]int
	run    string
	n      int
}

func (c *causeCounter) add(cause string) {
	if c.n > 0 && cause == c.run {
		c.n++
		return
	}
	c.flush()
	c.run, c.n = cause, 1
}

func (c *causeCounter) flush() {
	if c.n == 0 {
		return
	}
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[c.run] += c.n
	c.n = 0
}

// done returns the counts (nil when none were added).
func (c *causeCounter) done() map[string]int {
	c.flush()
	return c.counts
}

// InvalidCauses returns the number of the invalid trajectories among
// members per cause (nil when none is invalid).
func (ev *Evaluation) InvalidCauses(members []int) map[string]int {
	var counts causeCounter
	for _, i := range members {
		if !ev.Valid[i] {
			counts.add(ev.Causes[i])
		}
	}
	return counts.done()
}

// objectiveExpressions is a Scorer whose objectives (some of them) are
// expressions.
type objectiveExpressions interface {
	// expression returns objective k's expression, nil when it has none.
	expression(k int) *Expression
}

// ExpressionOf returns objective k's expression in s, nil when it has
// none (or s does not say).
func ExpressionOf(s Scorer, k int) *Expression {
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
