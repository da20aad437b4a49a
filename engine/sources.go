package engine

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Sources (docs/CONTRACT.md, Objectives with structure): with source_by,
// each trajectory belongs to the source the expression gives (verl's
// data_source) and is scored by that source's objectives and weights
// ([sources.NAME] in the config; the top-level objectives for a source
// without a section). The evaluation's columns are the union of the
// sources' objectives by name, in order of first appearance; a column that
// is not its source's holds 0 for a trajectory, and weighs 0. Comparison
// groups never mix sources, so that a column constant over a group changes
// no rank and no reward.

// SourceConfig is one source's section of the config: its objectives,
// and weights overriding theirs by name.
type SourceConfig struct {
	Objectives []ObjectiveConfig  `toml:"objective" json:"objective"`
	Weights    map[string]float64 `toml:"weights,omitempty" json:"weights,omitempty"`
}

// SourceNames returns the names of cfg's sources in the order the config
// declares them (SourceOrder), those it does not order after, by name.
func (cfg Config) SourceNames() []string {
	names := make([]string, 0, len(cfg.Sources))
	for _, name := range cfg.SourceOrder {
		if _, ok := cfg.Sources[name]; ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Sources)) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// SourceBySetting is the name of the source expression's setting.
const SourceBySetting = "source_by"

// sourceScorer scores each trajectory with its source's scorer.
type sourceScorer struct {
	by *scoring.Expression
	// names are the configured sources, in the config's order
	// (Config.SourceNames), index their positions; scorers[j] is
	// names[j]'s, def the top-level objectives' (nil when there are none).
	names   []string
	index   map[string]int
	scorers []*scoring.ParetoScorer
	def     *scoring.ParetoScorer
	// objectives are the columns; columns[j] maps scorer j's objectives
	// (def's at len(names)) to columns.
	objectives []scoring.Objective
	columns    [][]int
}

// newSourceScorer builds the source scorer of cfg (SourceBy set).
func (cfg Config) newSourceScorer() (*sourceScorer, error) {
	if len(cfg.Sources) == 0 {
		return nil, fmt.Errorf("%s %q: no [sources.NAME] section gives a source's objectives", SourceBySetting, cfg.SourceBy)
	}
	by, err := scoring.CompileExpression(SourceBySetting, cfg.SourceBy)
	if err != nil {
		return nil, err
	}
	s := &sourceScorer{by: by, names: cfg.SourceNames(), index: map[string]int{}}
	for j, name := range s.names {
		s.index[name] = j
	}
	index := map[string]int{}
	add := func(source string, p *scoring.ParetoScorer) error {
		var cols []int
		for _, o := range p.Objectives() {
			k, ok := index[o.Name]
			if !ok {
				k = len(s.objectives)
				index[o.Name] = k
				s.objectives = append(s.objectives, scoring.Objective{Name: o.Name, Goal: o.Goal, Weight: o.Weight})
			} else if s.objectives[k].Goal != o.Goal {
				return fmt.Errorf("objective %s: goal %s in source %s, %s in another: an objective has one goal", o.Name, o.Goal, source, s.objectives[k].Goal)
			}
			cols = append(cols, k)
		}
		s.columns = append(s.columns, cols)
		return nil
	}
	for _, name := range s.names {
		src := cfg.Sources[name]
		sub := cfg
		sub.Objectives, sub.Sources, sub.SourceBy = src.Objectives, nil, ""
		sub.Weights = maps.Clone(cfg.Weights)
		if sub.Weights == nil {
			sub.Weights = map[string]float64{}
		}
		maps.Copy(sub.Weights, src.Weights)
		sub.Weights = onlyNames(sub.Weights, src.Objectives)
		sub.Minimize = onlyMinimized(cfg.Minimize, src.Objectives)
		p, err := sub.paretoScorer()
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		// The section's own weights name its objectives: the filter
		// above is for the top level's, which are the union's.
		if err := (Config{Weights: src.Weights}).checkNames(p.Objectives()); err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		s.scorers = append(s.scorers, p.(*scoring.ParetoScorer))
		if err := add(name, s.scorers[len(s.scorers)-1]); err != nil {
			return nil, err
		}
	}
	if len(cfg.Objectives) > 0 {
		sub := cfg
		sub.Sources, sub.SourceBy = nil, ""
		sub.Weights = onlyNames(cfg.Weights, cfg.Objectives)
		sub.Minimize = onlyMinimized(cfg.Minimize, cfg.Objectives)
		p, err := sub.paretoScorer()
		if err != nil {
			return nil, err
		}
		s.def = p.(*scoring.ParetoScorer)
		if err := add("(top level)", s.def); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// onlyNames returns the weights of the objectives objs names.
func onlyNames(weights map[string]float64, objs []ObjectiveConfig) map[string]float64 {
	out := map[string]float64{}
	for _, o := range objs {
		if w, ok := weights[o.Name]; ok {
			out[o.Name] = w
		}
	}
	return out
}

// onlyMinimized returns the names of minimize that objs has.
func onlyMinimized(minimize []string, objs []ObjectiveConfig) []string {
	var out []string
	for _, name := range minimize {
		if slices.ContainsFunc(objs, func(o ObjectiveConfig) bool { return o.Name == name }) {
			out = append(out, name)
		}
	}
	return out
}

// Objectives implements Scorer: the union of the sources' objectives.
func (s *sourceScorer) Objectives() []scoring.Objective { return s.objectives }

// Evaluate implements Scorer, evaluating t's source first.
func (s *sourceScorer) Evaluate(t *scoring.Trajectory, dst []float64) error {
	name, err := s.source(t)
	if err != nil {
		return err
	}
	return s.evaluateSource(t, s.scorerIndex(name), dst, nil)
}

// source returns t's source.
func (s *sourceScorer) source(t *scoring.Trajectory) (string, error) {
	name, err := s.by.Text(t)
	if err != nil {
		if !errors.Is(err, scoring.ErrEval) && !errors.Is(err, scoring.ErrBudget) {
			err = scoring.ErrMissing // null, absent, or not text
		}
		return "", &scoring.InvalidError{Objective: SourceBySetting + " " + s.by.Source, Err: err}
	}
	return name, nil
}

// scorerIndex returns the index of the scorer of source name: its
// section's, else len(names) for the top-level objectives, else -1.
func (s *sourceScorer) scorerIndex(name string) int {
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

// evaluateSource writes t's values with scorer j (scorerIndex) into its
// columns of dst, 0 into the others; and, when absent is not nil, marks
// there the columns nansum counted 0 (Evaluation.Absent; another source's
// column is not absent: it is not the trajectory's).
func (s *sourceScorer) evaluateSource(t *scoring.Trajectory, j int, dst []float64, absent []bool) error {
	clear(dst)
	clear(absent)
	if j < 0 {
		return &scoring.InvalidError{Objective: "source", Err: errNoSource}
	}
	p := s.def
	if j < len(s.names) {
		p = s.scorers[j]
	}
	cols := s.columns[j]
	row := make([]float64, len(cols))
	var rowAbsent []bool
	if absent != nil {
		rowAbsent = make([]bool, len(cols))
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

// nanSum reports whether the sources' scorers count a missing objective 0
// (Config.NanSum, which every source shares).
func (s *sourceScorer) nanSum() bool {
	if s.def != nil {
		return s.def.NanSum()
	}
	return len(s.scorers) > 0 && s.scorers[0].NanSum()
}

// CloneScorer implements Cloner.
func (s *sourceScorer) CloneScorer() scoring.Scorer {
	c := *s
	c.by = s.by.Clone()
	c.scorers = make([]*scoring.ParetoScorer, len(s.scorers))
	for j, p := range s.scorers {
		c.scorers[j] = p.CloneScorer().(*scoring.ParetoScorer)
	}
	if s.def != nil {
		c.def = s.def.CloneScorer().(*scoring.ParetoScorer)
	}
	return &c
}

// weights returns the weight of every column for scorer j: its
// objectives', 0 elsewhere.
func (s *sourceScorer) weights(j int) []float64 {
	w := make([]float64, len(s.objectives))
	if j < 0 {
		return w
	}
	p := s.def
	if j < len(s.names) {
		p = s.scorers[j]
	}
	for c, k := range s.columns[j] {
		w[k] = p.Objectives()[c].Weight
	}
	return w
}

// SourceOf returns trajectory i's source ("" without source_by).
func (ev *Evaluation) SourceOf(i int) string {
	if ev.sourceOf == nil {
		return ""
	}
	return ev.SourceNames[ev.sourceOf[i]]
}

// HasSources reports whether the trajectories are scored by source.
func (ev *Evaluation) HasSources() bool { return ev.sourceOf != nil }

// SourceObjectives returns the columns of source src (an index in
// SourceNames): its objectives.
func (ev *Evaluation) SourceObjectives(src int) []int {
	var out []int
	for k, ok := range ev.sourceColumns[src] {
		if ok {
			out = append(out, k)
		}
	}
	return out
}

// sourceEvaluator is what an Evaluator keeps of a source scorer: its own
// copy of the source expression, and the sources' indexes by name.
type sourceEvaluator struct {
	s     *sourceScorer
	by    *scoring.Expression
	index map[string]int32
}

// newSourceEvaluator returns the sourceEvaluator of s for ev, whose
// sources it knows.
func newSourceEvaluator(s *sourceScorer, ev *Evaluation) *sourceEvaluator {
	se := &sourceEvaluator{s: s, by: s.by.Clone(), index: map[string]int32{}}
	for k, name := range ev.SourceNames {
		se.index[name] = int32(k)
	}
	return se
}

// sourceIndex returns the index in ev.SourceNames of t's source, adding
// it when new; -1 when source_by cannot be evaluated on t (the scorer
// then says why).
func (se *sourceEvaluator) sourceIndex(ev *Evaluation, t *scoring.Trajectory) int32 {
	name, err := se.by.Text(t)
	if err != nil {
		return -1
	}
	if k, ok := se.index[name]; ok {
		return k
	}
	k := int32(len(ev.SourceNames))
	se.index[name] = k
	ev.SourceNames = append(ev.SourceNames, name)
	j := se.s.scorerIndex(name)
	ev.sourceScorer = append(ev.sourceScorer, j)
	ev.sourceWeights = append(ev.sourceWeights, se.s.weights(j))
	cols := make([]bool, len(se.s.objectives))
	if j >= 0 {
		for _, c := range se.s.columns[j] {
			cols[c] = true
		}
	}
	ev.sourceColumns = append(ev.sourceColumns, cols)
	return k
}

// sourceKey is the key of group g within source src, for the groups'
// index: groups of one value in two sources are two groups.
func sourceKey(src int32, g string) string {
	return fmt.Sprint(src) + "\x00" + g
}

// weightOf returns the weight of objective k for trajectory i: its
// source's, or the objective's.
func (res *Result) weightOf(i, k int) float64 {
	if res.Evaluation.sourceOf != nil {
		if src := res.Evaluation.sourceOf[i]; src >= 0 {
			return res.Evaluation.sourceWeights[src][k]
		}
		return 0
	}
	return res.Objectives[k].Weight
}

// ObjectiveWeight returns the weight of objective k over every trajectory
// of ev, its weight w without sources. With sources it is the weight the
// sources having k give it when they all give the same, NaN when they
// differ: no one weight is then the batch's.
func (ev *Evaluation) ObjectiveWeight(k int, w float64) float64 {
	if ev.sourceOf == nil {
		return w
	}
	shared := math.NaN()
	for src, cols := range ev.sourceColumns {
		switch v := ev.sourceWeights[src][k]; {
		case !cols[k]:
		case math.IsNaN(shared):
			shared = v
		case v != shared:
			return math.NaN()
		}
	}
	return shared
}

// SourceLess reports whether ev has sources and none of them has
// objective k (it is only a source's the data lacks, or the top level's
// while every source has its own section): its weight then scores no
// trajectory, and no source weighs it (ObjectiveWeight is NaN, as when
// the sources weigh it differently).
func (ev *Evaluation) SourceLess(k int) bool {
	if ev.sourceOf == nil {
		return false
	}
	for _, cols := range ev.sourceColumns {
		if cols[k] {
			return false
		}
	}
	return true
}

// sourceObjectiveCount returns how many objectives source src has.
func (ev *Evaluation) sourceObjectiveCount(src int32) int {
	if src < 0 {
		return 0
	}
	n := 0
	for _, ok := range ev.sourceColumns[src] {
		if ok {
			n++
		}
	}
	return n
}

// partitionBySource splits each batch's members by source, for scope
// batch: one comparison group per source, its Key the source's name, in
// order of first appearance (a trajectory whose source is unknown in a
// group of its own, keyed "").
func (ev *Evaluation) partitionBySource(batches []Batch) []Batch {
	for bi := range batches {
		b := &batches[bi]
		index := map[int32]int{}
		for _, i := range b.Members {
			src := ev.sourceOf[i]
			g, ok := index[src]
			if !ok {
				g = len(b.Groups)
				index[src] = g
				key := ""
				if src >= 0 {
					key = ev.SourceNames[src]
				}
				b.Groups = append(b.Groups, Group{Key: key})
			}
			b.Groups[g].Members = append(b.Groups[g].Members, i)
		}
	}
	return batches
}

// weightsOf returns the weights of trajectory i: its source's with
// sources (none when its source is unknown), else base, the objectives'.
func (ev *Evaluation) weightsOf(i int, base []float64) []float64 {
	if ev.sourceOf == nil {
		return base
	}
	if src := ev.sourceOf[i]; src >= 0 {
		return ev.sourceWeights[src]
	}
	return nil
}

// HasObjective reports whether objective k is one of trajectory i's
// source's (always without sources): a column of another source holds 0.
func (ev *Evaluation) HasObjective(i, k int) bool {
	if ev.sourceOf == nil {
		return true
	}
	src := ev.sourceOf[i]
	return src >= 0 && ev.sourceColumns[src][k]
}

// RankedObjectives returns how many objectives trajectory i is ranked
// over: its source's (0 for an unknown source), ev.M without sources.
func (ev *Evaluation) RankedObjectives(i int) int {
	if ev.sourceOf == nil {
		return ev.M
	}
	return ev.sourceObjectiveCount(ev.sourceOf[i])
}

// bySource splits idx, trajectories of res, by source index (a
// trajectory of unknown source, invalid, in none).
func (res *Result) bySource(idx []int) [][]int {
	out := make([][]int, len(res.Evaluation.SourceNames))
	for _, i := range idx {
		if src := res.Evaluation.sourceOf[i]; src >= 0 {
			out[src] = append(out[src], i)
		}
	}
	return out
}
