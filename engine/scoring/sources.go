package scoring

import (
	"errors"
	"fmt"
)

// SourceBySetting is the name of the source expression's setting
// (docs/CONTRACT.md, Objectives with structure: sources).
const SourceBySetting = "source_by"

// SourceScorer scores each trajectory with its source's scorer: the
// source is what the expression of source_by gives (verl's data_source),
// and each source has a ParetoScorer of its own, of its section's
// objectives and weights, or falls back on the top-level objectives'.
// Its objectives, the columns, are the union of the sources' by name, in
// order of first appearance; a column that is not a source's holds 0 for
// its trajectories. The evaluation keeps, per source, its scorer's index
// (ScorerIndex), weights (Weights) and columns (Columns).
type SourceScorer struct {
	by *Expression
	// names are the configured sources, index their positions;
	// scorers[j] is names[j]'s, def the top-level objectives' (nil when
	// there are none).
	names   []string
	index   map[string]int
	scorers []*ParetoScorer
	def     *ParetoScorer
	// objectives are the columns; columns[j] maps scorer j's objectives
	// (def's at len(names)) to columns.
	objectives []Objective
	columns    [][]int
	// row and rowAbsent hold a scorer's values before they go to their
	// columns (EvaluateSource), reused from trajectory to trajectory:
	// each copy of s has its own.
	row       []float64
	rowAbsent []bool
}

// NewSourceScorer returns the scorer of the sources names by the source
// expression by, without their scorers yet: AddSource gives them, in
// the order of names.
func NewSourceScorer(by *Expression, names []string) *SourceScorer {
	s := &SourceScorer{by: by, names: names, index: map[string]int{}}
	for j, name := range names {
		s.index[name] = j
	}
	return s
}

// AddSource adds p as the scorer of the next source of names, or, once
// every source has one, as the top-level objectives' (def), which score
// a source without a scorer of its own. p's objectives join the columns
// by name; it fails for one whose goal an earlier scorer's differs from.
func (s *SourceScorer) AddSource(p *ParetoScorer) error {
	source := "(top level)"
	if j := len(s.scorers); j < len(s.names) {
		source = s.names[j]
		s.scorers = append(s.scorers, p)
	} else {
		s.def = p
	}
	index := make(map[string]int, len(s.objectives))
	for k, o := range s.objectives {
		index[o.Name] = k
	}
	var cols []int
	for _, o := range p.Objectives() {
		k, ok := index[o.Name]
		if !ok {
			k = len(s.objectives)
			index[o.Name] = k
			s.objectives = append(s.objectives, Objective{Name: o.Name, Goal: o.Goal, Weight: o.Weight})
		} else if s.objectives[k].Goal != o.Goal {
			return fmt.Errorf("objective %s: goal %s in source %s, %s in another: an objective has one goal", o.Name, o.Goal, source, s.objectives[k].Goal)
		}
		cols = append(cols, k)
	}
	s.columns = append(s.columns, cols)
	return nil
}

// Objectives implements Scorer: the union of the sources' objectives.
func (s *SourceScorer) Objectives() []Objective { return s.objectives }

// Evaluate implements Scorer, evaluating t's source first.
func (s *SourceScorer) Evaluate(t *Trajectory, dst []float64) error {
	name, err := s.Source(t)
	if err != nil {
		return err
	}
	return s.EvaluateSource(t, s.ScorerIndex(name), dst, nil)
}

// SourceBy returns the source expression, shared with s: a caller on
// another goroutine clones it.
func (s *SourceScorer) SourceBy() *Expression { return s.by }

// Source returns t's source, or why it has none (an *InvalidError of
// source_by: ErrMissing for null, absent or not text).
func (s *SourceScorer) Source(t *Trajectory) (string, error) {
	name, err := s.by.Text(t)
	if err != nil {
		if !errors.Is(err, ErrEval) && !errors.Is(err, ErrBudget) {
			err = ErrMissing // null, absent, or not text
		}
		return "", &InvalidError{Objective: SourceBySetting + " " + s.by.Source, Err: err}
	}
	return name, nil
}

// ScorerIndex returns the index of the scorer of source name: its
// section's, else len(names) for the top-level objectives, else -1.
func (s *SourceScorer) ScorerIndex(name string) int {
	if j, ok := s.index[name]; ok {
		return j
	}
	if s.def != nil {
		return len(s.names)
	}
	return -1
}

// errNoSource is the cause of a trajectory whose source has no section
// and no top-level objectives to fall back on.
var errNoSource = errors.New("no [sources.NAME] section for this source, and no top-level objectives")

// EvaluateSource writes t's values with scorer j (ScorerIndex) into its
// columns of dst, 0 into the others; and, when absent is not nil, marks
// there the columns nansum counted 0 (another source's column is not
// absent: it is not the trajectory's).
func (s *SourceScorer) EvaluateSource(t *Trajectory, j int, dst []float64, absent []bool) error {
	clear(dst)
	clear(absent)
	if j < 0 {
		return &InvalidError{Objective: "source", Err: errNoSource}
	}
	p := s.scorer(j)
	cols := s.columns[j]
	if len(s.row) < len(cols) {
		s.row, s.rowAbsent = make([]float64, len(cols)), make([]bool, len(cols))
	}
	row := s.row[:len(cols)]
	var rowAbsent []bool
	if absent != nil {
		rowAbsent = s.rowAbsent[:len(cols)]
	}
	err := p.EvaluateAbsent(t, row, rowAbsent)
	for c, k := range cols {
		dst[k] = row[c]
		if absent != nil {
			absent[k] = rowAbsent[c]
		}
	}
	return err
}

// scorer returns scorer j (j >= 0, ScorerIndex).
func (s *SourceScorer) scorer(j int) *ParetoScorer {
	if j < len(s.names) {
		return s.scorers[j]
	}
	return s.def
}

// NanSum reports whether the sources' scorers count a missing objective
// 0 (nansum, which every source shares).
func (s *SourceScorer) NanSum() bool {
	if s.def != nil {
		return s.def.NanSum()
	}
	return len(s.scorers) > 0 && s.scorers[0].NanSum()
}

// CloneScorer implements Cloner.
func (s *SourceScorer) CloneScorer() Scorer {
	c := *s
	c.row, c.rowAbsent = nil, nil
	c.by = s.by.Clone()
	c.scorers = make([]*ParetoScorer, len(s.scorers))
	for j, p := range s.scorers {
		c.scorers[j] = p.CloneScorer().(*ParetoScorer)
	}
	if s.def != nil {
		c.def = s.def.CloneScorer().(*ParetoScorer)
	}
	return &c
}

// Weights returns the weight of every column for scorer j (ScorerIndex):
// its objectives', 0 elsewhere and everywhere for j < 0.
func (s *SourceScorer) Weights(j int) []float64 {
	w := make([]float64, len(s.objectives))
	if j < 0 {
		return w
	}
	p := s.scorer(j)
	for c, k := range s.columns[j] {
		w[k] = p.Objectives()[c].Weight
	}
	return w
}

// Columns returns the columns of scorer j's objectives (j >= 0,
// ScorerIndex), in its objectives' order; the caller does not change
// them.
func (s *SourceScorer) Columns(j int) []int { return s.columns[j] }
