package engine

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/pareto"
)

// Evaluation holds what a computation derives from the trajectories and the
// scorer's expressions alone: raw objective values and validity, and the
// Pareto ranking per scope. Methods, weights and normalisation are applied
// on top of it by Compute, so that switching them does not evaluate a single
// expression again.
type Evaluation struct {
	// Objectives describes the columns of Values.
	Objectives []scoring.Objective
	// Values holds the raw objective values, row-major: trajectory i's
	// objective k is Values[i*M+k].
	Values []float64
	M      int
	// Valid reports, per trajectory, whether every objective is finite.
	Valid []bool
	// Causes holds, per trajectory, why it is invalid ("" when valid or
	// Dropped).
	Causes []string
	// Dropped marks the trajectories Without left out (DAPO's group
	// filter): not Valid, so that no ranking, score or statistic counts
	// them, yet not invalid data, so that no count of invalid ones does
	// (InvalidAt). nil in an evaluation Without did not make.
	Dropped []bool
	// evalReasons holds, per cause that is an evaluation error or a
	// value that is not a number, the reason of its first trajectory's
	// and its row (EvalReason); the reason is "" where Filter left out the
	// row that had it.
	evalReasons map[string]firstReason
	// Absent marks, row-major as Values, the objectives that were missing
	// or NaN and count 0 under nansum (setup.Config.NanSum): TRL's None reward,
	// which gdpo leaves out of its group normalisation. nil without
	// nansum.
	Absent []bool
	// Logged holds, per trajectory, the advantage its trainer logged (the
	// value of RewardComputer.Logged), NaN where the record has none; nil
	// when there is no such expression. Evaluations made by Append and
	// Filter (following a run) carry it, the appended trajectories' own
	// (loggedExpr).
	Logged []float64
	// LoggedFaults counts the logged advantages no reward is compared
	// with: an evaluation made from another (Append, Without, Restructure)
	// copies them as one.
	LoggedFaults

	// Constraints and Gates are the scorer's (constraints.go), nil
	// without. With constraints, Violation holds each trajectory's
	// violation and ConstraintHolds, row-major n x len(Constraints),
	// whether it meets each; with gates, GateShut, row-major as Values,
	// marks the objectives whose term a gate sets to 0. All are nil
	// without constraints, or gates; they are meaningful for valid
	// trajectories only.
	Constraints     []scoring.ConstraintDef
	Gates           []scoring.GateDef
	Violation       []float64
	ConstraintHolds []bool
	GateShut        []bool
	// feasible is, per trajectory, whether every constraint holds.
	feasible []bool

	// SourceNames are the sources met (sources.go), in order of first
	// appearance, and sourceOf each trajectory's index in it (-1 when
	// source_by could not be evaluated); both nil without sources. Per
	// source: the index of its scorer (scoring.SourceScorer.ScorerIndex), its
	// weight per column and which columns are its objectives.
	SourceNames   []string
	sourceOf      []int32
	sourceScorer  []int
	sourceWeights [][]float64
	sourceColumns [][]bool

	batches []int64
	// stepCounts holds each trajectory's step_count (for the trends).
	stepCounts []int64
	// groupOf holds each trajectory's group as an index in groupNames,
	// the distinct group values in order of first appearance.
	groupOf    []int32
	groupNames []string
	// groupRuns, when > 0, makes each run of consecutive trajectories of
	// one batch and group value a group of its own, cut every groupRuns
	// rows (RewardComputer.GroupRuns; cutFirstRuns); 0 groups by value.
	groupRuns int

	mu       sync.Mutex
	rankings map[Scope]*Ranking
	// causeTable holds what each cause the evaluation can give is of
	// (CauseOf), made once when first asked.
	causesOnce sync.Once
	causeTable map[string]InvalidCause
	// scores holds the scores of the last weights asked for (prepare.go).
	scores *scoreSet
	// cache keeps what depends on the evaluation alone: the objectives'
	// statistics, the batches' valid members, the hypervolumes.
	cache Cache

	// loggedExpr is the expression Logged holds the values of, for
	// Append to evaluate on the trajectories it adds; nil without.
	loggedExpr *scoring.Expression
	// line and appended are Append's (append.go).
	line     *appendLine
	appended atomic.Bool
	// without is the evaluation Without or WithoutSince made this one
	// from, nil for others.
	without *Evaluation
}

// Evaluate runs the scorer on every trajectory. The trajectories are not
// kept: only their batch, group and step_count are copied. The scorers of this package
// run on up to GOMAXPROCS goroutines, each on its own copy of the scorer
// and on its own range of trajectories: the result does not depend on the
// schedule.
func Evaluate(s scoring.Scorer, ts []scoring.Trajectory) *Evaluation {
	e := NewEvaluator(s)
	e.Reserve(len(ts))
	e.Add(ts)
	return e.Evaluation()
}

// Evaluator builds an Evaluation some trajectories at a time, for a caller
// that streams its input and does not keep the trajectories: adding them
// all, in order, gives the Evaluation that Evaluate gives on all of them.
type Evaluator struct {
	ev      *Evaluation
	scorers []scoring.Scorer // the scorer and its copies for other goroutines
	// groupIndex maps group values to their index in ev.groupNames;
	// sourceGroupIndex does with sources, by source and value.
	groupIndex       map[string]int32
	sourceGroupIndex map[sourceGroupKey]int32
	// logged is the logged-advantage expression and its copies for other
	// goroutines, empty when there is none.
	logged []*scoring.Expression
	// absent: the scorer marks absent objectives (Evaluation.Absent).
	absent bool
	// constraints and gates count the scorer's (constraints.go).
	constraints, gates int
	// sources is the source scorer's, nil without (sources.go).
	sources *sourceEvaluator
	// runs is each batch's last run of one group value, with
	// ev.groupRuns > 0 (runGroup); ended holds the batches' first runs
	// that another run ended in this Add, and recut those a filtered
	// evaluation left cut from their end that this Add continues, for
	// cutFirstRuns.
	runs  map[int64]groupRun
	ended []*firstRun
	recut []*firstRun
	// appending says that e appends to an evaluation of an append line,
	// whose arrays are shared up to the rows it adds.
	appending bool
}

// groupRun is the last run of a batch: its group's index in groupNames,
// how many rows its group has, and the batch's first run while the last
// run is it (nil after).
type groupRun struct {
	group int32
	n     int
	first *firstRun
}

// firstRun is a batch's first run of one group value while no other run
// of the batch has come: its rows and its groups' indices, in order
// (runGroup cuts it from its start as it comes, cutFirstRuns from its end
// once another run ends it).
type firstRun struct {
	rows   []int
	groups []int32
	// fromEnd says that its rows are still grouped as cut from their
	// end though no run ends it: a Filter dropped the run that did
	// (lastRuns). Cut again once rows are added to its batch.
	fromEnd bool
}

// NewEvaluator returns an Evaluator of the scorer s without trajectories.
func NewEvaluator(s scoring.Scorer) *Evaluator {
	objs := s.Objectives()
	e := &Evaluator{
		ev:      &Evaluation{Objectives: slices.Clone(objs), M: len(objs)},
		scorers: []scoring.Scorer{s},
		absent:  marksAbsent(s),
	}
	e.setStructure(s)
	return e
}

// setStructure notes s's constraints and gates in e and its evaluation.
func (e *Evaluator) setStructure(s scoring.Scorer) {
	inner, st := scoring.Unstructured(s)
	if st != nil {
		e.ev.Constraints, e.ev.Gates = st.Defs()
		e.constraints, e.gates = len(e.ev.Constraints), len(e.ev.Gates)
	}
	if ss, ok := inner.(*scoring.SourceScorer); ok {
		e.sources = newSourceEvaluator(ss, e.ev)
		if e.ev.sourceOf == nil {
			e.ev.sourceOf = []int32{}
		}
	}
}

// marksAbsent reports whether s counts missing objectives 0 and says
// which (ParetoScorer with nansum, or sources scored so).
func marksAbsent(s scoring.Scorer) bool {
	s, _ = scoring.Unstructured(s)
	switch p := s.(type) {
	case *scoring.ParetoScorer:
		return p.NanSum()
	case *scoring.SourceScorer:
		return p.NanSum()
	}
	return false
}

// Reserve makes room for n more trajectories, so that adding them copies
// no array: for a caller that knows, or can estimate, how many will come.
// Adding more than n is fine; the arrays then grow as slices do.
func (e *Evaluator) Reserve(n int) {
	ev := e.ev
	ev.Values = slices.Grow(ev.Values, n*ev.M)
	if e.absent {
		ev.Absent = slices.Grow(ev.Absent, n*ev.M)
	}
	ev.Valid = slices.Grow(ev.Valid, n)
	ev.Causes = slices.Grow(ev.Causes, n)
	if e.constraints > 0 {
		ev.Violation = slices.Grow(ev.Violation, n)
		ev.feasible = slices.Grow(ev.feasible, n)
		ev.ConstraintHolds = slices.Grow(ev.ConstraintHolds, n*e.constraints)
	}
	if e.gates > 0 {
		ev.GateShut = slices.Grow(ev.GateShut, n*ev.M)
	}
	ev.batches = slices.Grow(ev.batches, n)
	ev.stepCounts = slices.Grow(ev.stepCounts, n)
	ev.groupOf = slices.Grow(ev.groupOf, n)
}

// Add evaluates ts, which follow the trajectories added before, and does
// not keep them.
func (e *Evaluator) Add(ts []scoring.Trajectory) {
	ev := e.ev
	lo := len(ev.Valid)
	ev.Values = extend(ev.Values, len(ts)*ev.M)
	if e.absent {
		ev.Absent = extend(ev.Absent, len(ts)*ev.M)
	}
	ev.Valid = extend(ev.Valid, len(ts))
	ev.Causes = extend(ev.Causes, len(ts))
	if ev.Dropped != nil { // appended to a Without: none of ts is dropped
		ev.Dropped = extend(ev.Dropped, len(ts))
	}
	if e.constraints > 0 {
		ev.Violation = extend(ev.Violation, len(ts))
		ev.feasible = extend(ev.feasible, len(ts))
		ev.ConstraintHolds = extend(ev.ConstraintHolds, len(ts)*e.constraints)
	}
	if e.gates > 0 {
		ev.GateShut = extend(ev.GateShut, len(ts)*ev.M)
	}
	ev.batches = extend(ev.batches, len(ts))
	ev.stepCounts = extend(ev.stepCounts, len(ts))
	ev.groupOf = extend(ev.groupOf, len(ts))
	if e.sources != nil {
		ev.sourceOf = extend(ev.sourceOf, len(ts))
	}
	for i := range ts {
		ev.batches[lo+i] = ts[i].Batch
		ev.stepCounts[lo+i] = ts[i].StepCount
		if e.sources != nil {
			src := e.sources.sourceIndex(ev, &ts[i])
			ev.sourceOf[lo+i] = src
			ev.groupOf[lo+i] = e.sourceGroup(src, ts[i].Group)
			continue
		}
		if ev.groupRuns > 0 {
			ev.groupOf[lo+i] = e.runGroup(lo+i, ts[i].Batch, ts[i].Group)
			continue
		}
		ev.groupOf[lo+i] = e.group(lo+i, ts[i].Group)
	}
	e.cutFirstRuns(lo)
	if c, ok := e.scorers[0].(scoring.Cloner); ok {
		for len(e.scorers) < parallel.Workers(len(ts), evalChunk) {
			e.scorers = append(e.scorers, c.CloneScorer())
		}
	}
	nw := min(len(e.scorers), parallel.Workers(len(ts), evalChunk))
	if len(e.logged) > 0 {
		ev.Logged = extend(ev.Logged, len(ts))
		for len(e.logged) < nw {
			e.logged = append(e.logged, e.logged[0].Clone())
		}
	}
	reasons := make([]map[string]firstReason, nw) // per goroutine
	var notNumbers, nonFinite []loggedTally       // per goroutine
	if len(e.logged) > 0 {
		notNumbers, nonFinite = make([]loggedTally, nw), make([]loggedTally, nw)
	}
	parallel.Chunks(len(ts), evalChunk, nw, func(w, from, to int) {
		reasons[w] = mergeReasons(reasons[w], ev.evaluate(e.scorers[w], ts[from:to], lo+from))
		if len(e.logged) > 0 {
			for j := from; j < to; j++ {
				x, v, err := e.logged[w].EvalNumber(&ts[j]) // NaN when it has none
				ev.Logged[lo+j] = x
				switch {
				case errors.Is(err, scoring.ErrNotNumber):
					ev.Logged[lo+j] = loggedNotNumber
					notNumbers[w].add(lo+j, &ts[j], v)
				case errors.Is(err, scoring.ErrNaN):
					ev.Logged[lo+j] = loggedNaN
					nonFinite[w].add(lo+j, &ts[j], v)
				case errors.Is(err, scoring.ErrInf):
					nonFinite[w].add(lo+j, &ts[j], v)
				}
			}
		}
	})
	ev.LoggedNotNumbers, ev.FirstLoggedNotNumber = addTallies(ev.LoggedNotNumbers, ev.FirstLoggedNotNumber, notNumbers)
	ev.LoggedNonFinite, ev.FirstLoggedNonFinite = addTallies(ev.LoggedNonFinite, ev.FirstLoggedNonFinite, nonFinite)
	var firstReasons map[string]firstReason
	for _, r := range reasons {
		firstReasons = mergeReasons(firstReasons, r)
	}
	for cause, r := range firstReasons {
		if _, ok := ev.evalReasons[cause]; !ok {
			if ev.evalReasons == nil {
				ev.evalReasons = map[string]firstReason{}
			}
			ev.evalReasons[cause] = r
		}
	}
}

// firstReason is the reason of the first evaluation error of a cause
// among some trajectories, at row.
type firstReason struct {
	row    int
	reason string
}

// mergeReasons returns the first reason of each cause of a and b, in a.
func mergeReasons(a, b map[string]firstReason) map[string]firstReason {
	for cause, r := range b {
		a = addReason(a, cause, r)
	}
	return a
}

// addReason returns reasons with r as cause's when it comes before the
// one reasons holds, or reasons holds none.
func addReason(reasons map[string]firstReason, cause string, r firstReason) map[string]firstReason {
	if have, ok := reasons[cause]; ok && have.row <= r.row {
		return reasons
	}
	if reasons == nil {
		reasons = map[string]firstReason{}
	}
	reasons[cause] = r
	return reasons
}

// EvalReason returns why the expression failed in the first trajectory
// whose cause of invalidity is cause, an evaluation error ("OBJECTIVE:
// evaluation error"): expr's message, "invalid argument for len (type
// float64)"; or, for a value that is not a number ("OBJECTIVE: not a
// number"), what it was: "the string "1.0"", "a list"
// (scoring.NotNumberError). It is "" for other causes, and where Filter
// left out that trajectory (the others' reasons are not kept).
func (ev *Evaluation) EvalReason(cause string) string { return ev.evalReasons[cause].reason }

// NewEvaluator returns an Evaluator of c's scorer without trajectories,
// which also evaluates c's logged advantage, if any (Evaluation.Logged).
func (c *RewardComputer) NewEvaluator() *Evaluator {
	e := NewEvaluator(c.Scorer)
	e.ev.groupRuns = c.GroupRuns
	if c.Logged != nil {
		e.logged = []*scoring.Expression{c.Logged.Clone()}
		e.ev.loggedExpr = c.Logged.Clone()
	}
	return e
}

// group returns the index of the group value g of trajectory i in
// groupNames, adding it when new. Trajectories of one group mostly follow
// each other: trajectory i-1's is checked before the map.
func (e *Evaluator) group(i int, g string) int32 {
	ev := e.ev
	if i > 0 && ev.groupNames[ev.groupOf[i-1]] == g {
		return ev.groupOf[i-1]
	}
	return groupID(e, &e.groupIndex, g, g)
}

// runGroup returns the index in groupNames of the group of trajectory i,
// of batch and group value g, with groupRuns: its batch's last group when
// that run is of g and the group shorter than groupRuns, else a new group
// of the same name (a trainer that groups by position, as TRL does, gives
// a prompt drawn twice two groups). A batch's first run is noted
// (firstRun) for cutFirstRuns to cut it again from its end once another
// run of the batch ends it.
func (e *Evaluator) runGroup(i int, batch int64, g string) int32 {
	ev := e.ev
	if e.runs == nil {
		e.runs = map[int64]groupRun{}
	}
	run, ok := e.runs[batch]
	switch {
	case ok && run.n < ev.groupRuns && ev.groupNames[run.group] == g:
		run.n++
	case ok && ev.groupNames[run.group] == g:
		run.group, run.n = int32(len(ev.groupNames)), 1
		ev.groupNames = append(ev.groupNames, g)
	default:
		if f := run.first; f != nil && (len(f.rows)%ev.groupRuns != 0 || f.fromEnd) {
			f.fromEnd = false
			e.ended = append(e.ended, f)
		}
		run = groupRun{group: int32(len(ev.groupNames)), n: 1}
		ev.groupNames = append(ev.groupNames, g)
		if !ok {
			run.first = &firstRun{}
		}
	}
	if f := run.first; f != nil {
		if f.fromEnd {
			f.fromEnd = false
			e.recut = append(e.recut, f)
		}
		f.rows = append(f.rows, i)
		if n := len(f.groups); n == 0 || f.groups[n-1] != run.group {
			f.groups = append(f.groups, run.group)
		}
	}
	e.runs[batch] = run
	return run.group
}

// cutFirstRuns cuts again, from their end, the batches' first runs that
// another run ended in the Add of the trajectories from lo on: the first
// group gets the rest of the length divided by groupRuns, each other
// groupRuns rows. A first run a Filter left cut from its end, which this
// Add continued and no run ended, is cut from its start, as a fresh
// evaluation of its rows cuts it. A trainer
// that groups by position logs its groups whole but for the first, which
// may have lost its first rows: TRL's completions table is the last rows
// of deques of maxlen generation_batch_size
// (GRPOTrainer._generate_and_score_completions extends them, log() writes
// them), and evaluation logged at the step drops training rows from the
// front, its own rows ending the first run. A first run that ends its
// batch's rows stays cut from its start: a cap on the rows read, or a
// step still written, cuts its end. The groups keep their indices, only
// their rows change; rows an append line shares with the evaluation
// before are written in a copy.
func (e *Evaluator) cutFirstRuns(lo int) {
	ev := e.ev
	copied := false
	cut := func(f *firstRun, skip int) {
		if e.appending && f.rows[0] < lo && !copied {
			ev.groupOf, copied = slices.Clone(ev.groupOf), true
		}
		for j, i := range f.rows {
			ev.groupOf[i] = f.groups[(j+skip)/ev.groupRuns]
		}
	}
	for _, f := range e.recut {
		cut(f, 0)
	}
	for _, f := range e.ended { // after recut: a run recut then ended is cut from its end
		cut(f, (ev.groupRuns-len(f.rows)%ev.groupRuns)%ev.groupRuns)
	}
	clear(e.ended)
	e.ended = e.ended[:0]
	clear(e.recut)
	e.recut = e.recut[:0]
}

// lastRuns returns the last run of each batch of ev (runGroup's state
// after ev's trajectories), with its first run while no other has ended
// it: as cut from its start, as runGroup cuts it, its last group holding
// the rows past the whole groups of groupRuns. A Filter that dropped the
// run that ended it leaves it cut from its end, or in more groups than
// its length needs (fromEnd): runGroup's state is then that of the cut
// from its start that the next rows added make (cutFirstRuns).
func lastRuns(ev *Evaluation) map[int64]groupRun {
	runs := map[int64]groupRun{}
	for i, g := range ev.groupOf {
		b := ev.batches[i]
		run, ok := runs[b]
		switch {
		case ok && run.group == g:
			run.n++
		case ok && run.first != nil && ev.groupNames[g] == ev.groupNames[run.group]:
			run.group, run.n = g, 1
			run.first.groups = append(run.first.groups, g)
		case ok:
			run = groupRun{group: g, n: 1}
		default:
			run = groupRun{group: g, n: 1, first: &firstRun{}}
			run.first.groups = []int32{g}
		}
		if run.first != nil {
			run.first.rows = append(run.first.rows, i)
		}
		runs[b] = run
	}
	k := ev.groupRuns
	for b, run := range runs {
		f := run.first
		if f == nil {
			continue
		}
		for j, i := range f.rows {
			if ev.groupOf[i] != f.groups[j/k] {
				f.fromEnd = true
				break
			}
		}
		// Groups of at most groupRuns rows each: at least as many as
		// the cut from its start needs, ceil(rows/groupRuns).
		whole := (len(f.rows) - 1) / k
		if len(f.groups) > whole+1 {
			f.fromEnd = true
		}
		if f.fromEnd {
			f.groups = f.groups[:whole+1]
			run.group, run.n = f.groups[whole], len(f.rows)-whole*k
			runs[b] = run
		}
	}
	return runs
}

// sourceGroup returns the index of group g of source src in groupNames,
// adding it when new: one group value in two sources is two groups.
func (e *Evaluator) sourceGroup(src int32, g string) int32 {
	return groupID(e, &e.sourceGroupIndex, sourceGroupKey{src, g}, g)
}

// groupID returns the index in e's groupNames of the group that index
// knows by key, adding it, named name, when new.
func groupID[K comparable](e *Evaluator, index *map[K]int32, key K, name string) int32 {
	k, ok := (*index)[key]
	if !ok {
		if *index == nil {
			*index = map[K]int32{}
		}
		k = int32(len(e.ev.groupNames))
		(*index)[key] = k
		e.ev.groupNames = append(e.ev.groupNames, name)
	}
	return k
}

// extend returns s with n more elements, zero. An array too short is
// made twice as long (or as long as needed): appends that fill it part by
// part (a followed file's growth) copy each element about once, where
// the runtime's growth of large slices by a quarter copied it four times.
func extend[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(n, len(s)))
	}
	s = s[:len(s)+n]
	clear(s[len(s)-n:])
	return s
}

// Evaluation returns the evaluation of the trajectories added so far. It
// shares their values with the Evaluator: add no more after calling it.
func (e *Evaluator) Evaluation() *Evaluation { return e.ev }

// evalChunk is how many trajectories an Evaluate goroutine takes at a time.
const evalChunk = 4096

// evaluate fills the rows of ts, which start at row lo of ev, with scorer
// s, and returns the first reason of each cause that is an evaluation
// error (nil when none is).
func (ev *Evaluation) evaluate(s scoring.Scorer, ts []scoring.Trajectory, lo int) map[string]firstReason {
	m := ev.M
	var failed failures
	s, st := scoring.Unstructured(s)
	c := len(ev.Constraints)
	for j := range ts {
		t, i := &ts[j], lo+j
		var err error
		row := ev.Values[i*m : (i+1)*m]
		if ss, ok := s.(*scoring.SourceScorer); ok {
			if src := ev.sourceOf[i]; src >= 0 {
				var absent []bool
				if ev.Absent != nil {
					absent = ev.Absent[i*m : (i+1)*m]
				}
				err = ss.EvaluateSource(t, ev.sourceScorer[src], row, absent)
			} else {
				_, err = ss.Source(t)
			}
		} else if p, ok := s.(*scoring.ParetoScorer); ok && ev.Absent != nil {
			err = p.EvaluateAbsent(t, row, ev.Absent[i*m:(i+1)*m])
		} else {
			err = s.Evaluate(t, row)
		}
		if err == nil && st != nil {
			var holds, shut []bool
			var violation float64
			if c > 0 {
				holds = ev.ConstraintHolds[i*c : (i+1)*c]
			}
			if ev.GateShut != nil {
				shut = ev.GateShut[i*m : (i+1)*m]
			}
			err = st.Evaluate(t, row, holds, &violation, shut)
			if err == nil && c > 0 {
				ev.Violation[i] = violation
				ev.feasible[i] = !slices.Contains(holds, false)
			}
		}
		if err == nil {
			ev.Valid[i] = true
			continue
		}
		failed.add(err, i, ev.Causes)
	}
	return failed.reasons
}

// causeKey is a cause of invalidity as the rows that fail are told apart:
// the objective (constraint, gate) and the error, every evaluation error
// one whatever the reason, every value that is not a number one.
type causeKey struct {
	objective string
	err       error
}

// failures records rows that failed, in order: a cause is one of a few
// strings, built once and shared by its rows (texts), and the reason of
// its first row alone is put into words (reasons: an evaluation error's,
// or what a value that is not a number was).
type failures struct {
	texts   map[causeKey]string
	reasons map[string]firstReason
}

// add sets causes[i] to the cause of err, row i's error.
func (f *failures) add(err error, i int, causes []string) {
	ie, ok := err.(*scoring.InvalidError)
	if !ok {
		causes[i] = err.Error()
		return
	}
	key := causeKey{ie.Objective, ie.Err}
	var (
		evalErr   *scoring.EvalError
		notNumber *scoring.NotNumberError
	)
	switch {
	case errors.As(ie.Err, &evalErr):
		key.err = scoring.ErrEval
	case errors.As(ie.Err, &notNumber):
		key.err = scoring.ErrNotNumber
	}
	text, ok := f.texts[key]
	if !ok {
		if f.texts == nil {
			f.texts = map[causeKey]string{}
		}
		text = err.Error()
		f.texts[key] = text
	}
	causes[i] = text
	if _, said := f.reasons[text]; said {
		return
	}
	switch {
	case evalErr != nil:
		f.reasons = addReason(f.reasons, text, firstReason{i, evalErr.Reason()})
	case notNumber != nil:
		f.reasons = addReason(f.reasons, text, firstReason{i, notNumber.Value()})
	}
}

// LoggedFaults counts the trajectories whose logged advantage is there
// but no number to compare a reward with, per kind, with the first of
// each in input order.
type LoggedFaults struct {
	// LoggedNotNumbers counts the trajectories whose logged advantage is
	// there but not a number (a string, "0.7" too, a bool, a list): NaN in
	// Logged, as if absent, which a caller must say. FirstLoggedNotNumber
	// is the first of them in input order. Their entries in Logged are
	// loggedNotNumber, the NaN that marks them, which Filter counts.
	LoggedNotNumbers     int
	FirstLoggedNotNumber LoggedValue
	// LoggedNonFinite counts the trajectories whose logged advantage is
	// NaN or infinite, which no reward is compared with, as a caller must
	// say; FirstLoggedNonFinite is the first. A NaN's entry in Logged is
	// loggedNaN, told apart from an absent one's (loggedskip.go).
	LoggedNonFinite      int
	FirstLoggedNonFinite LoggedValue
}

// StepOf returns the batch of trajectory i.
func (ev *Evaluation) StepOf(i int) int64 { return ev.batches[i] }

// GroupOf returns the group of trajectory i (its group value, whatever the
// scope).
func (ev *Evaluation) GroupOf(i int) string { return ev.groupNames[ev.groupOf[i]] }

// N returns the number of trajectories.
func (ev *Evaluation) N() int { return len(ev.Valid) }

// Row returns trajectory i's raw objective values.
func (ev *Evaluation) Row(i int) []float64 { return ev.Values[i*ev.M : (i+1)*ev.M] }

// Missing reports whether trajectory i's objective k was missing, null or
// NaN and counts 0 under nansum (Absent): Values holds 0 there, for the
// score, but the record has no value (TRL's None), which the outputs show
// as such rather than as a 0.
func (ev *Evaluation) Missing(i, k int) bool { return ev.Absent != nil && ev.Absent[i*ev.M+k] }

// DroppedAt reports whether trajectory i was left out by Without
// (Dropped).
func (ev *Evaluation) DroppedAt(i int) bool { return ev.Dropped != nil && ev.Dropped[i] }

// InvalidAt reports whether trajectory i is invalid data: not valid, and
// not left out by Without (DroppedAt).
func (ev *Evaluation) InvalidAt(i int) bool { return !ev.Valid[i] && !ev.DroppedAt(i) }

// DroppedIn returns how many of members Without left out (DroppedAt).
func (ev *Evaluation) DroppedIn(members []int) int {
	if ev.Dropped == nil {
		return 0
	}
	n := 0
	for _, i := range members {
		if ev.Dropped[i] {
			n++
		}
	}
	return n
}

// InvalidCounts returns the number of invalid trajectories per cause
// (those Without left out, of no cause, not counted).
func (ev *Evaluation) InvalidCounts() map[string]int {
	var counts causeCounter
	for _, c := range ev.Causes {
		if c != "" {
			counts.add(c)
		}
	}
	if counts := counts.done(); counts != nil {
		return counts
	}
	return map[string]int{}
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
	// comparison group (by constrained domination with constraints:
	// pareto.ConstrainedRanks), -1 for an invalid trajectory.
	Ranks []int
	// Crowding holds each trajectory's crowding distance within its front
	// (+Inf at the boundaries), NaN for an invalid trajectory.
	Crowding []float64
	// Fronts holds the number of fronts of each trajectory's group.
	Fronts []int

	// grown is set once Recompute extended the arrays in place (append.go).
	grown atomic.Bool
}

// BatchIndex returns the index in r.Batches of the batch of step, and
// true; else where that batch would go in the ascending step order, and
// false.
func (r *Ranking) BatchIndex(step int64) (int, bool) { return searchBatches(r.Batches, step) }

// searchBatches is BatchIndex over batches, in ascending order of Step.
func searchBatches(batches []Batch, step int64) (int, bool) {
	return slices.BinarySearchFunc(batches, step, func(b Batch, s int64) int { return cmp.Compare(b.Step, s) })
}

// Ranking returns the ranking for scope, computing it on first use.
func (ev *Evaluation) Ranking(scope Scope) *Ranking {
	r, _ := ev.rankingContext(context.Background(), scope) // never ends
	return r
}

// rankingContext is Ranking stopped, with ctx's error, once ctx is done:
// a ranking cut short is not kept.
func (ev *Evaluation) rankingContext(ctx context.Context, scope Scope) (*Ranking, error) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if r, ok := ev.rankings[scope]; ok {
		return r, nil
	}
	n := ev.N()
	r := &Ranking{
		Scope:    scope,
		Batches:  ev.Partition(scope),
		Ranks:    make([]int, n),
		Crowding: make([]float64, n),
		Fronts:   make([]int, n),
	}
	if err := ev.rankBatches(ctx, r, r.Batches, n); err != nil {
		return nil, err
	}
	if ev.rankings == nil {
		ev.rankings = map[Scope]*Ranking{}
	}
	ev.rankings[scope] = r
	return r, nil
}

// rankBatches ranks the groups of batches, which hold n trajectories, into
// r; once ctx is done, looked at before each group, it stops with ctx's
// error, r ranked in part.
func (ev *Evaluation) rankBatches(ctx context.Context, r *Ranking, batches []Batch, n int) error {
	var groups []*Group
	for bi := range batches {
		for gi := range batches[bi].Groups {
			groups = append(groups, &batches[bi].Groups[gi])
		}
	}
	// The groups are independent: each goroutine ranks a range of them
	// with its own scratch space, and writes only their members' entries.
	nw := parallel.Workers(n, rankChunk)
	rankers := make([]groupRanker, nw)
	chunk := max(len(groups)/(nw*64), 1)
	parallel.Chunks(len(groups), chunk, nw, func(w, lo, hi int) {
		for _, g := range groups[lo:hi] {
			if ctx.Err() != nil {
				return
			}
			rankers[w].rank(ev, r, g.Members)
		}
	})
	return ctx.Err()
}

// rankChunk is about how many trajectories justify a ranking goroutine.
const rankChunk = 1 << 14

// groupRanker ranks comparison groups, keeping its scratch space.
type groupRanker struct {
	ranker   pareto.Ranker
	signs    []float64 // 1 for an objective to maximise, -1 to minimise
	points   []float64
	valid    []int
	ranks    []int
	crowding []float64
	// feasible and violation are the valid members', with constraints.
	feasible  []bool
	violation []float64
}

// rank writes the ranks, crowding distances and front counts of the group
// of members into r.
func (gr *groupRanker) rank(ev *Evaluation, r *Ranking, members []int) {
	valid := slices.Grow(gr.valid[:0], len(members))
	points := slices.Grow(gr.points[:0], len(members)*ev.M)
	// Oriented by a sign per objective: asking each objective its goal for
	// every value made the gathering of 100k points take twice as long.
	signs := gr.signs[:0]
	for _, o := range ev.Objectives {
		signs = append(signs, o.Orient(1))
	}
	gr.signs = signs
	for _, i := range members {
		if !ev.Valid[i] {
			r.Ranks[i], r.Crowding[i] = -1, math.NaN()
			continue
		}
		valid = append(valid, i)
		for k, v := range ev.Row(i) {
			points = append(points, signs[k]*v)
		}
	}
	gr.valid, gr.points = valid, points
	ranks := slices.Grow(gr.ranks[:0], len(valid))[:len(valid)]
	crowding := slices.Grow(gr.crowding[:0], len(valid))[:len(valid)]
	gr.ranks, gr.crowding = ranks, crowding
	var fronts int
	if ev.Violation == nil {
		fronts = gr.ranker.Ranks(ranks, points, ev.M)
	} else {
		gr.feasible, gr.violation = gr.feasible[:0], gr.violation[:0]
		for _, i := range valid {
			gr.feasible = append(gr.feasible, ev.feasible[i])
			gr.violation = append(gr.violation, ev.Violation[i])
		}
		fronts = gr.ranker.ConstrainedRanks(ranks, points, ev.M, gr.feasible, gr.violation)
	}
	gr.ranker.Crowding(crowding, points, ev.M, ranks)
	if ev.sourceOf != nil && len(valid) > 0 {
		// The crowding distance divides by the source's number of
		// objectives, not the columns': the others are 0 here.
		src := ev.sourceOf[valid[0]]
		if own := ev.sourceObjectiveCount(src); own > 0 {
			for j := range crowding {
				crowding[j] *= float64(ev.M) / float64(own)
			}
		}
	}
	for j, i := range valid {
		r.Ranks[i], r.Crowding[i], r.Fronts[i] = ranks[j], crowding[j], fronts
	}
}

// Partition splits the trajectories into batches (ascending step) and each
// batch into comparison groups. The member lists of all batches share one
// array, and so do those of all groups.
func (ev *Evaluation) Partition(scope Scope) []Batch {
	n := len(ev.batches)
	// The batch of each trajectory, by order of first appearance. Runs of
	// one batch are the rule: the map is only asked when the batch changes.
	of := make([]int32, n)
	byStep := map[int64]int32{}
	var steps []int64
	var sizes []int
	last := int32(-1)
	for i, step := range ev.batches {
		if last < 0 || steps[last] != step {
			b, ok := byStep[step]
			if !ok {
				b = int32(len(steps))
				byStep[step] = b
				steps = append(steps, step)
				sizes = append(sizes, 0)
			}
			last = b
		}
		of[i] = last
		sizes[last]++
	}
	// Batches in ascending step order.
	order := make([]int32, len(steps))
	for b := range order {
		order[b] = int32(b)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(steps[a], steps[b]) })
	batches := make([]Batch, len(steps))
	pos := make([]int, len(steps)) // where each batch's members start in all
	all := make([]int, n)
	start := 0
	for bi, b := range order {
		batches[bi].Step = steps[b]
		batches[bi].Members = all[start : start+sizes[b] : start+sizes[b]]
		pos[b] = start
		start += sizes[b]
	}
	for i, b := range of {
		all[pos[b]] = i
		pos[b]++
	}
	if scope == ScopeBatch && ev.sourceOf == nil {
		for bi := range batches {
			batches[bi].Groups = []Group{{Members: batches[bi].Members}}
		}
		return batches
	}
	if scope == ScopeBatch {
		return ev.partitionBySource(batches)
	}
	// Within each batch, the group of each member by order of first
	// appearance, then the members of every group in one array. local maps
	// a group value's index to its group in the batch (-1: none yet), and
	// is reset after each batch.
	grouped := make([]int, n)
	local := make([]int32, len(ev.groupNames))
	for k := range local {
		local[k] = -1
	}
	start = 0
	for bi := range batches {
		b := &batches[bi]
		var counts []int
		for j, i := range b.Members {
			name := ev.groupOf[i]
			g := local[name]
			if g < 0 {
				g = int32(len(b.Groups))
				local[name] = g
				b.Groups = append(b.Groups, Group{Key: ev.groupNames[name]})
				counts = append(counts, 0)
			}
			of[j] = g // of is free again: reuse it per member
			counts[g]++
		}
		for _, i := range b.Members {
			local[ev.groupOf[i]] = -1
		}
		gpos := make([]int, len(b.Groups))
		for g := range b.Groups {
			b.Groups[g].Members = grouped[start : start+counts[g] : start+counts[g]]
			gpos[g] = start
			start += counts[g]
		}
		for j, i := range b.Members {
			g := of[j]
			grouped[gpos[g]] = i
			gpos[g]++
		}
	}
	return batches
}

// shareStructure gives ev from's constraints, gates and sources, their
// definitions and per-trajectory arrays shared, not copied: an evaluation
// made from another (Append, markNonFinite) reads them as it does.
func (ev *Evaluation) shareStructure(from *Evaluation) {
	ev.Constraints, ev.Gates = from.Constraints, from.Gates
	ev.Violation, ev.ConstraintHolds, ev.GateShut, ev.feasible = from.Violation, from.ConstraintHolds, from.GateShut, from.feasible
	ev.SourceNames, ev.sourceOf = from.SourceNames, from.sourceOf
	ev.sourceScorer, ev.sourceWeights, ev.sourceColumns = from.sourceScorer, from.sourceWeights, from.sourceColumns
}
