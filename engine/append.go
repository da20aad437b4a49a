package engine

import (
	"cmp"
	"context"
	"iter"
	"maps"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// Following a training run, trajectories arrive batch after batch: Append
// evaluates only the new ones, and Recompute computes only the batches
// they join or start, reusing the previous result for the others.

// appendLine is what a line of evaluations, each appended to the previous
// one, shares: the evaluator that appends, which knows the groups seen so
// far and holds the scorer's copies. Each evaluation of the line extends
// the arrays of the previous one in place, past its length, where the
// previous one never looks. The evaluations WithoutSince makes, each from
// the previous one, are a line without an evaluator.
type appendLine struct {
	evaluator *Evaluator

	mu sync.Mutex
	// extended records the arrays (address and length) that Recompute
	// and WithoutSince extended in place, as Ranking.grown records a
	// ranking's: a second extension of one copies it. An address only
	// serves as a key, so that no old array is kept alive; should a
	// freed array's address come again, the result is a needless copy.
	extended map[[2]uintptr]bool
}

// claim reports whether s, an array of the line (a result's scores, and
// its rewards with them unless old ones change; an evaluation's validity,
// and its Dropped marks with it, by WithoutSince), may be extended in
// place: it is its first extension.
func claim[T any](l *appendLine, s []T) bool {
	if l == nil {
		return false
	}
	key := [2]uintptr{uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.extended[key] {
		return false
	}
	if l.extended == nil {
		l.extended = map[[2]uintptr]bool{}
	}
	l.extended[key] = true
	return true
}

// Append returns the evaluation of ev's trajectories followed by ts, in
// that order, evaluating only ts with s (the scorer ev was made with). ev
// is not changed and stays valid. The first Append to ev extends its
// arrays in place, past ev's length, in amortised O(len(ts)); another
// Append to the same ev copies them. The new evaluation keeps ev's cached
// per-batch statistics; its Pareto rankings are computed on demand, or
// from a result of ev by Recompute.
func (ev *Evaluation) Append(s scoring.Scorer, ts []scoring.Trajectory) *Evaluation {
	next := &Evaluation{
		Objectives: ev.Objectives,
		M:          ev.M,
		Values:     ev.Values,
		Absent:     ev.Absent,
		Logged:     ev.Logged,
		loggedExpr: ev.loggedExpr,
		// Appending adds the new trajectories' to the count.
		LoggedFaults: ev.LoggedFaults,
		Valid:        ev.Valid,
		Causes:       ev.Causes,
		Dropped:      ev.Dropped,
		batches:      ev.batches,
		stepCounts:   ev.stepCounts,
		groupOf:      ev.groupOf,
		groupNames:   ev.groupNames,
		groupRuns:    ev.groupRuns,
	}
	next.shareStructure(ev)
	next.evalReasons = maps.Clone(ev.evalReasons) // evaluating ts adds to it
	ev.mu.Lock()
	if ev.appended.Swap(true) || ev.without != nil {
		// ev's arrays were extended already, or are another
		// evaluation's (Without): copy them, on a line of their own.
		next.clip()
		next.line = newAppendLine(next, s)
	} else {
		if ev.line == nil {
			ev.line = newAppendLine(ev, s)
		}
		next.line = ev.line
	}
	next.cache.keep(&ev.cache, func(k CacheKey) bool { return k.Of == OfObjectiveStats })
	ev.mu.Unlock()

	// The evaluator's copies of the scorer are dropped: s may be another
	// scorer (of the same objectives), and Add copies it as it needs.
	e := next.line.evaluator
	e.ev, e.scorers = next, []scoring.Scorer{s}
	e.Add(ts)
	return next
}

// newAppendLine returns the line that starts with ev.
func newAppendLine(ev *Evaluation, s scoring.Scorer) *appendLine {
	l := &appendLine{}
	l.evaluator = &Evaluator{ev: ev, scorers: []scoring.Scorer{s}, absent: marksAbsent(s)}
	if ev.loggedExpr != nil {
		l.evaluator.logged = []*scoring.Expression{ev.loggedExpr.Clone()}
	}
	inner, st := scoring.Unstructured(s)
	if st != nil {
		constraints, gates := st.Defs()
		l.evaluator.constraints, l.evaluator.gates = len(constraints), len(gates)
	}
	if ss, ok := inner.(*scoring.SourceScorer); ok {
		l.evaluator.sources = newSourceEvaluator(ss, ev)
		// The groups' index by source and value (Evaluator.sourceGroup).
		bySource := make(map[sourceGroupKey]int32, len(ev.groupNames))
		for i, g := range ev.groupOf {
			bySource[sourceGroupKey{ev.sourceOf[i], ev.groupNames[g]}] = g
		}
		l.evaluator.sourceGroupIndex = bySource
	} else if ev.groupRuns > 0 {
		l.evaluator.runs = lastRuns(ev)
		l.evaluator.appending = true
	} else {
		index := make(map[string]int32, len(ev.groupNames))
		for k, g := range ev.groupNames {
			index[g] = int32(k)
		}
		l.evaluator.groupIndex = index
	}
	return l
}

// StartAppending starts ev's append line (s being its scorer), unless ev
// was appended to, so that the first Append does not build it: a
// follower calls it on the evaluation it will extend (engine/live).
func (ev *Evaluation) StartAppending(s scoring.Scorer) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.appended.Load() {
		return
	}
	if ev.line == nil {
		ev.line = newAppendLine(ev, s)
	}
}

// clip makes ev's arrays full, so that appending to them copies them.
func (ev *Evaluation) clip() {
	ev.Values = slices.Clip(ev.Values)
	ev.Absent = slices.Clip(ev.Absent)
	ev.Logged = slices.Clip(ev.Logged)
	ev.Valid = slices.Clip(ev.Valid)
	ev.Causes = slices.Clip(ev.Causes)
	ev.Dropped = slices.Clip(ev.Dropped)
	ev.Violation = slices.Clip(ev.Violation)
	ev.feasible = slices.Clip(ev.feasible)
	ev.ConstraintHolds = slices.Clip(ev.ConstraintHolds)
	ev.GateShut = slices.Clip(ev.GateShut)
	ev.batches = slices.Clip(ev.batches)
	ev.stepCounts = slices.Clip(ev.stepCounts)
	ev.groupOf = slices.Clip(ev.groupOf)
	ev.groupNames = slices.Clip(ev.groupNames)
	ev.SourceNames = slices.Clip(ev.SourceNames)
	ev.sourceOf = slices.Clip(ev.sourceOf)
	ev.sourceScorer = slices.Clip(ev.sourceScorer)
	ev.sourceWeights = slices.Clip(ev.sourceWeights)
	ev.sourceColumns = slices.Clip(ev.sourceColumns)
}

// Filter returns the evaluation of the trajectories i of ev for which
// keep(i), in order, evaluating nothing again: what a follower does when a
// file is read again from its start and its trajectories replaced.
// LoggedNotNumbers and LoggedNonFinite count the kept rows' alone; their
// firsts, and the first reason of each evaluation error (EvalReason), are
// ev's when kept, else not known (LoggedValue.Known, "") where kept rows
// have them, whose values and reasons were not kept.
func (ev *Evaluation) Filter(keep func(i int) bool) *Evaluation {
	out := &Evaluation{Objectives: ev.Objectives, M: ev.M, groupNames: slices.Clone(ev.groupNames), groupRuns: ev.groupRuns, Constraints: ev.Constraints, Gates: ev.Gates, loggedExpr: ev.loggedExpr,
		SourceNames: slices.Clone(ev.SourceNames), sourceScorer: slices.Clone(ev.sourceScorer), sourceWeights: slices.Clone(ev.sourceWeights), sourceColumns: slices.Clone(ev.sourceColumns)}
	if ev.sourceOf != nil {
		out.sourceOf = []int32{}
	}
	var notNumbers, nonFinite loggedTally
	c := len(ev.Constraints)
	for i := range ev.N() {
		if !keep(i) {
			continue
		}
		j := out.N()
		out.Values = append(out.Values, ev.Row(i)...)
		if ev.Absent != nil {
			out.Absent = append(out.Absent, ev.Absent[i*ev.M:(i+1)*ev.M]...)
		}
		if ev.Logged != nil {
			out.Logged = append(out.Logged, ev.Logged[i])
			notNumbers.kept(ev.Logged[i], isLoggedNotNumber, i, j, ev.FirstLoggedNotNumber)
			nonFinite.kept(ev.Logged[i], isLoggedNonFinite, i, j, ev.FirstLoggedNonFinite)
		}
		if !ev.Valid[i] && ev.evalReasons != nil {
			if r, ok := ev.evalReasons[ev.Causes[i]]; ok {
				out.keepReason(ev.Causes[i], r, i, j)
			}
		}
		out.Valid = append(out.Valid, ev.Valid[i])
		out.Causes = append(out.Causes, ev.Causes[i])
		if ev.Dropped != nil {
			out.Dropped = append(out.Dropped, ev.Dropped[i])
		}
		if ev.Violation != nil {
			out.Violation = append(out.Violation, ev.Violation[i])
			out.feasible = append(out.feasible, ev.feasible[i])
			out.ConstraintHolds = append(out.ConstraintHolds, ev.ConstraintHolds[i*c:(i+1)*c]...)
		}
		if ev.GateShut != nil {
			out.GateShut = append(out.GateShut, ev.GateShut[i*ev.M:(i+1)*ev.M]...)
		}
		out.batches = append(out.batches, ev.batches[i])
		out.stepCounts = append(out.stepCounts, ev.stepCounts[i])
		out.groupOf = append(out.groupOf, ev.groupOf[i])
		if ev.sourceOf != nil {
			out.sourceOf = append(out.sourceOf, ev.sourceOf[i])
		}
	}
	out.LoggedNotNumbers, out.FirstLoggedNotNumber = notNumbers.count, notNumbers.first
	out.LoggedNonFinite, out.FirstLoggedNonFinite = nonFinite.count, nonFinite.first
	return out
}

// keepReason notes, for Filter, the kept row j (row i of the evaluation
// filtered) whose cause is an evaluation error whose first reason there
// was first: the first of the cause kept has first's reason when it is
// first's row, else one not known ("").
func (ev *Evaluation) keepReason(cause string, first firstReason, i, j int) {
	if _, ok := ev.evalReasons[cause]; ok {
		return // a row before is the cause's first
	}
	if ev.evalReasons == nil {
		ev.evalReasons = map[string]firstReason{}
	}
	reason := ""
	if first.row == i {
		reason = first.reason
	}
	ev.evalReasons[cause] = firstReason{row: j, reason: reason}
}

// Recompute returns ev computed with prev's options: the result
// ev.Compute(prev.Options) returns, computing again only the batches that
// ev adds to prev's evaluation or adds trajectories to, when ev extends it
// (it was made from it by Append, once or more). Otherwise, or when a new
// trajectory's score overflows, it is ev.Compute(prev.Options). prev is
// not changed and stays valid.
func (ev *Evaluation) Recompute(prev *Result) *Result {
	res, _ := ev.RecomputeContext(context.Background(), prev) // never ends
	return res
}

// RecomputeContext is Recompute stopped once ctx is done (an interrupt),
// looked at before each comparison group and batch it computes: it then
// returns ctx's error and no result. prev stays valid.
func (ev *Evaluation) RecomputeContext(ctx context.Context, prev *Result) (*Result, error) {
	// prev's rewards are kept for the batches left as they are.
	if err := prev.FinishContext(ctx); err != nil {
		return nil, err
	}
	from, n := prev.Evaluation.N(), ev.N()
	if !ev.Extends(prev.Evaluation) || ev.structured(prev.Options) {
		// Normalised objectives depend on the whole group, and
		// structured scores are computed whole (objnorm.go).
		return ev.ComputeContext(ctx, prev.Options)
	}
	added := ev.rowsByStep(from)
	// The new entries lie past prev's, where prev never looks: old
	// trajectories keep their scores, which are extended in place. When
	// trajectories join an old batch, the rewards of its old ones change:
	// they are copied, prev's staying as they are; so are the scores when
	// some old ones change validity (WithoutSince).
	grew := addsToOld(prev.Ranking, added)
	ranking, err := ev.extendedRanking(ctx, prev.Ranking, added, grew)
	if err != nil {
		return nil, err
	}
	var changed, revalidated []int // batches added to; old rows whose validity changed
	// One validity array extended in place (Append): no old row changed.
	sameValid := from > 0 && &ev.Valid[0] == &prev.Evaluation.Valid[0]
	for bi := range ranking.Batches {
		b := &ranking.Batches[bi]
		if _, ok := added[b.Step]; !ok {
			continue
		}
		changed = append(changed, bi)
		if sameValid {
			continue
		}
		for _, i := range b.Members {
			if i < from && ev.Valid[i] != prev.Evaluation.Valid[i] {
				revalidated = append(revalidated, i)
			}
		}
	}
	inPlace := len(revalidated) == 0 && claim(ev.line, prev.Scores)
	res := &Result{
		Evaluation: ev,
		Ranking:    ranking,
		Options:    prev.Options,
		Objectives: slices.Clone(prev.Objectives),
		Scores:     extendArray(prev.Scores, n, inPlace),
		Rewards:    extendArray(prev.Rewards, n, inPlace && !grew),
	}
	scoreOf := scoreFunc(scoring.NewScoreWeights(res.Objectives), res.Options)
	// score sets row i's score, and reports whether it is finite.
	score := func(i int) bool {
		res.Scores[i] = math.NaN()
		if ev.Valid[i] {
			res.Scores[i] = scoreOf(ev.Row(i))
			return scoring.Finite(res.Scores[i]) == nil
		}
		return true
	}
	for _, i := range revalidated {
		if !score(i) {
			return ev.ComputeContext(ctx, prev.Options) // Compute marks it invalid
		}
	}
	for i := from; i < n; i++ {
		if !score(i) {
			return ev.ComputeContext(ctx, prev.Options)
		}
	}
	// The batches added to, shared out over the cores: each writes its
	// own trajectories' rewards.
	nw := parallel.Workers(len(changed), 1)
	rws := make([]rewarder, nw)
	parallel.Chunks(len(changed), 1, nw, func(w, lo, hi int) {
		for _, bi := range changed[lo:hi] {
			if ctx.Err() != nil {
				return
			}
			rws[w].batch(res, &res.Ranking.Batches[bi])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.keepStats(prev, added)
	return res, nil
}

// Extends reports whether ev was appended to old (or is old), or made from
// it by WithoutSince: old's rows are ev's first, as they were.
func (ev *Evaluation) Extends(old *Evaluation) bool {
	if ev == old {
		return true
	}
	old.mu.Lock()
	line := old.line
	old.mu.Unlock()
	return line != nil && line == ev.line && old.N() <= ev.N()
}

// RowsSince returns, when ev extends old (Append, WithoutSince), the rows
// ev adds to it by batch step, and true; else nil and false.
func (ev *Evaluation) RowsSince(old *Evaluation) (map[int64][]int, bool) {
	if !ev.Extends(old) {
		return nil, false
	}
	return ev.rowsByStep(old.N()), true
}

// rowsByStep returns the trajectories from row from on, by batch step, in
// order. The steps' rows are windows of one array, each made its size
// (rows counted first) and capped there, so that an append to one copies
// it: a followed burst adds hundreds of thousands of rows, which a slice
// per step grown row by row copied about twice over. Rows come in runs of
// one step: the map is asked once a run.
func (ev *Evaluation) rowsByStep(from int) map[int64][]int {
	counts := map[int64]int{}
	for lo, hi := range ev.stepRuns(from) {
		counts[ev.batches[lo]] += hi - lo
	}
	rows := make([]int, ev.N()-from)
	added := make(map[int64][]int, len(counts))
	for step, n := range counts {
		added[step], rows = rows[:0:n], rows[n:]
	}
	for lo, hi := range ev.stepRuns(from) {
		step := ev.batches[lo]
		run := added[step]
		for i := lo; i < hi; i++ {
			run = append(run, i)
		}
		added[step] = run
	}
	return added
}

// stepRuns yields the runs of rows of one batch step from row from on, as
// [lo, hi).
func (ev *Evaluation) stepRuns(from int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for lo := from; lo < ev.N(); {
			hi := lo + 1
			for hi < ev.N() && ev.batches[hi] == ev.batches[lo] {
				hi++
			}
			if !yield(lo, hi) {
				return
			}
			lo = hi
		}
	}
}

// addsToOld reports whether some trajectories added (by step) join a batch
// of r.
func addsToOld(r *Ranking, added map[int64][]int) bool {
	for step := range added {
		if _, found := r.BatchIndex(step); found {
			return true
		}
	}
	return false
}

// extendedRanking returns ev's ranking for r's scope, r being the ranking
// of the trajectories before those of added, the later ones by step
// (grew: some join batches of r): the batches they join or start are
// partitioned and ranked, the others are r's. It is cached as
// ev.Ranking's, unless ctx ended it (its error, looked at before each
// group).
func (ev *Evaluation) extendedRanking(ctx context.Context, r *Ranking, added map[int64][]int, grew bool) (*Ranking, error) {
	ev.mu.Lock()
	cached := ev.rankings[r.Scope]
	ev.mu.Unlock()
	if cached != nil {
		return cached, nil
	}
	n := ev.N()
	batches, changed := ev.ExtendBatches(r.Batches, r.Scope, added)
	// In place when no old trajectory is ranked again and r was never
	// extended: the new entries lie past r's.
	inPlace := !grew && r.grown.CompareAndSwap(false, true)
	out := &Ranking{
		Scope:    r.Scope,
		Batches:  batches,
		Ranks:    extendArray(r.Ranks, n, inPlace),
		Crowding: extendArray(r.Crowding, n, inPlace),
		Fronts:   extendArray(r.Fronts, n, inPlace),
	}
	rows := 0
	for _, b := range changed {
		rows += len(b.Members)
	}
	if err := ev.rankBatches(ctx, out, changed, rows); err != nil {
		return nil, err
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if cached := ev.rankings[r.Scope]; cached != nil {
		return cached, nil // ranked meanwhile by another goroutine: the same
	}
	if ev.rankings == nil {
		ev.rankings = map[Scope]*Ranking{}
	}
	ev.rankings[r.Scope] = out
	return out, nil
}

// extendArray returns s, an array of line l, extended to n elements, the
// new ones zero: in place when inPlace, else in a copy.
func extendArray[T any](s []T, n int, inPlace bool) []T {
	if inPlace {
		return extend(s, n-len(s))
	}
	return extend(slices.Clip(s), n-len(s))
}

// ExtendBatches returns old, the batches of an evaluation that ev extends
// split into the comparison groups of scope (Partition), with the rows ev
// adds (by step: RowsSince) joining their batches or starting new ones,
// in ascending step order: ev.Partition(scope), but for ScopeBatch with
// sources (one group per batch here). changed holds the batches added to
// or new; only they are split again, the others are old's.
func (ev *Evaluation) ExtendBatches(old []Batch, scope Scope, added map[int64][]int) (batches, changed []Batch) {
	batches = make([]Batch, 0, len(old)+len(added))
	for _, b := range old {
		if rows, ok := added[b.Step]; ok {
			// Clipped: the old members share an array with other batches.
			b = ev.newBatch(b.Step, append(slices.Clip(b.Members), rows...), scope)
			changed = append(changed, b)
		}
		batches = append(batches, b)
	}
	for _, step := range slices.Sorted(maps.Keys(added)) {
		if _, found := searchBatches(old, step); !found {
			b := ev.newBatch(step, added[step], scope)
			batches, changed = append(batches, b), append(changed, b)
		}
	}
	if !slices.IsSortedFunc(batches, compareSteps) {
		slices.SortFunc(batches, compareSteps)
	}
	return batches, changed
}

func compareSteps(a, b Batch) int { return cmp.Compare(a.Step, b.Step) }

// newBatch returns the batch step of members, split into the comparison
// groups of scope as partition splits them: in order of first appearance,
// members in input order.
func (ev *Evaluation) newBatch(step int64, members []int, scope Scope) Batch {
	b := Batch{Step: step, Members: members}
	if scope == ScopeBatch {
		b.Groups = []Group{{Members: members}}
		return b
	}
	index := map[int32]int{}
	for _, i := range members {
		g, ok := index[ev.groupOf[i]]
		if !ok {
			g = len(b.Groups)
			index[ev.groupOf[i]] = g
			b.Groups = append(b.Groups, Group{Key: ev.groupNames[ev.groupOf[i]]})
		}
		b.Groups[g].Members = append(b.Groups[g].Members, i)
	}
	return b
}

// keepStats keeps prev's cached statistics of the batches that nothing
// was added to: their trajectories, scores, ranks and rewards are the
// same. A follower's status line reads every batch's group summaries
// after each update (the groups' sizes): computed again, they cost a
// pass over the whole run.
func (res *Result) keepStats(prev *Result, added map[int64][]int) {
	untouched := func(of ...string) func(CacheKey) bool {
		return func(k CacheKey) bool {
			_, ok := added[k.Step]
			return !ok && slices.Contains(of, k.Of)
		}
	}
	res.cache.keep(&prev.cache, untouched(OfBatchStats, OfRewardRanges))
	// What depends on the scores: in prev's score set's cache, or its
	// own without one; res, recomputed, has none, and keeps it in its
	// own (ScoreCache).
	from := prev.ScoreCache()
	if from == nil {
		from = &prev.cache
	}
	if res.ScoreCache() == nil {
		res.cache.keep(from, untouched(OfScoreBatch, OfGroupSummaries))
	}
}

// sameFloat reports whether x and y are the same number, NaN being NaN.
func sameFloat(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// AddedSince returns, when res was computed with options Equal to prev's
// on an evaluation that extends prev's (Recompute's result, say), the
// rows added since prev by batch step, and true; else nil and false.
func (res *Result) AddedSince(prev *Result) (map[int64][]int, bool) {
	if !res.Options.Equal(prev.Options) {
		return nil, false
	}
	return res.Evaluation.RowsSince(prev.Evaluation)
}
