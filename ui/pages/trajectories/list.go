package trajectories

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The Trajectories table's first columns; with constraints the feasible
// column (feasibleColumn) follows them, then, when the records say how
// their completions ended, the finish column (finishReasons), then one
// per objective.
const (
	sortByID = iota
	sortByGroup
	sortByScore
	sortByReward
	sortByRewardB
	sortByRank
	sortByCrowding
	// feasibleColumn is the feasible column's place when there are
	// constraints.
	feasibleColumn
)

// Column widths of the Trajectories table, in cells.
const (
	rankWidth     = 11 // "rank ▲" or a rank of up to 11 digits
	maxKeyWidth   = 16 // a group
	maxCauseWidth = 60
	// maxFeasibleWidth holds "✗ " and a number (common.FeasibleMark).
	maxFeasibleWidth = 12
)

// trajectoryColumn is one column of the Trajectories table.
type trajectoryColumn struct {
	title string
	// text returns trajectory i's cell, safe to print.
	text func(i int) string
	// value returns trajectory i's number in a number column, nil in
	// the others; values returns the array value reads, in which
	// trajectory i's number is at i*stride+offset, for the loops over a
	// million rows (the rewards' holds the shown batch's span alone: a
	// negative offset, the listed rows' indices valid in it).
	value  func(i int) float64
	values func() (vals []float64, stride, offset int)
	// compare orders two trajectories by this column; nil for the
	// finish column, which sorts off the event loop (readsRecords).
	compare func(a, b int) int
	// textCells says that a column shows text other than an id, a group
	// or a rank: feasible's "✓" or "✗ X", X the violation, sorted by the
	// values, or a finish reason, sorted by compare.
	textCells bool
	// violations says that a text column's values are feasible's keys
	// (engine.Evaluation.FeasibilityKeys): its format is chosen from the
	// violations its cells show, the keys from 0 up (numberFormats).
	violations bool
	// mark is what shows in place of trajectory i's value, "" where
	// its value shows: in an objective's column, that it has no value of
	// it (common.AbsentValue; its number is the 0 the engine holds); in
	// the score's, the rank's and the crowding's, that what compute
	// writes of a trajectory the group filter dropped is computed
	// (pendingMark). nil when no row is marked; markWidth is the widest
	// mark, in cells.
	mark      func(i int) string
	markWidth int
	// fixedWidth, when not 0, is a text column's width, its cells not
	// measured (finishReasons: a cell is read of its record when drawn).
	fixedWidth int
	// readsRecords says that a sort by the column reads every listed
	// record: it runs off the event loop (finishSort).
	readsRecords bool
}

// trajectoryList is the rows of the Trajectories table: the batch's
// trajectories that match the filter, sorted.
type trajectoryList struct {
	columns    []trajectoryColumn
	sortColumn int
	descending bool
	// sortedBy is the title of the column the rows were last sorted by,
	// sortedUnder the options of the result then (optionsKey): a change
	// of method keeps the rows' order, which then may be only theirs.
	// sortedConstraints are the constraints then, for the feasible
	// column's order; sortedPending whether what compute writes of the
	// group filter's dropped trajectories was being computed then (their
	// score, rank and crowding sorted as NaN), for those columns' order.
	sortedBy, sortedUnder string
	sortedConstraints     []string
	sortedPending         bool
	// inOrder holds the listed trajectories' indices in input order, rows
	// the same in table order: all of them, or, while pending sorts the
	// whole order off the event loop, the first ones (row reads past them
	// wait for it). invalid counts those that are invalid, dropped those
	// the group filter dropped (not invalid data).
	inOrder          []int
	rows             []int
	invalid, dropped int
	pending          *pendingOrder
	// finishSort, while not nil, is the sort by the finish column under
	// way off the event loop: the rows keep their order until it lands.
	finishSort *finishSort
	// reloads is the session's Reloads when the rows were listed: the
	// trajectories' indices hold while it stays.
	reloads int
	// spareKeys is the keys' buffer of the last sort, for the next.
	spareKeys []uint64
	// formats are the number formats of the columns a method does not
	// change, by the array and the rows they were read from.
	formats map[formatKey]table.NumberFormat
	// finish is how the batch's completions ended, for the finish column.
	finish finishReasons
}

// pendingOrder is the whole order of a sort of which only the first rows
// were selected: sorted by the tab's command, or by the event loop if a row
// past them is needed first (whichever comes first sorts, the other
// waits for it).
type pendingOrder struct {
	keyed     floatorder.Keyed
	once      sync.Once
	rows      []int
	handedOut bool // to a command
}

// wait returns the whole order, sorting it unless that is done.
func (p *pendingOrder) wait() []int {
	p.once.Do(func() { p.rows = p.keyed.Sorted() })
	return p.rows
}

// Rows from which a sort by a number selects the first rows at once and
// sorts the whole order off the event loop; firstRows is how many it
// selects, more than a screen holds.
const (
	pendingMin = 1 << 16
	firstRows  = 256
)

// build lists the current batch's trajectories whose id or group contains
// filter (ignoring case), sorted by column sortColumn (the last when there
// are fewer columns), descending or not; with keepOrder, rows that are
// the ones listed already keep their order (a change of method does not
// move them until the user sorts again).
func (l *trajectoryList) build(s *session.Session, filter string, sortColumn int, descending, keepOrder bool) {
	if keepOrder {
		l.complete() // the rows kept are all of them
	}
	previous, previousInOrder, previousFinishSort := l.rows, l.inOrder, l.finishSort
	l.pending, l.finishSort = nil, nil
	previousColumns := l.columns
	l.finish.reset(s)
	l.columns = trajectoryColumns(s)
	if finish, ok := l.finish.column(); ok {
		objectives := len(l.columns) - len(s.Result.Objectives)
		l.columns = slices.Insert(l.columns, objectives, finish)
	}
	// The feasible column comes or goes with the constraints: the sort
	// stays on the objective it was on.
	if sortColumn > sortByCrowding && sortColumn < len(previousColumns) {
		title := previousColumns[sortColumn].title
		if c := slices.IndexFunc(l.columns[sortByCrowding+1:], func(c trajectoryColumn) bool { return c.title == title }); c >= 0 {
			sortColumn = sortByCrowding + 1 + c
		}
	}
	l.sortColumn, l.descending = min(sortColumn, len(l.columns)-1), descending
	if c := l.columns[l.sortColumn]; c.compare == nil && !c.readsRecords {
		l.sortColumn = sortByReward // the column it was on became one that does not sort
	}
	filter = strings.ToLower(filter)
	members := s.CurrentBatch().Members
	if filter == "" {
		l.inOrder = members // not changed: the rows are sorted in a slice of their own
	} else {
		l.inOrder = nil
		for _, i := range members {
			if common.IDMatches(s.Trajectories.At(i), filter) {
				l.inOrder = append(l.inOrder, i)
			}
		}
	}
	// rows is a permutation of the inOrder it was built with, which
	// nothing writes into: the same inOrder, the same rows.
	sameRows := len(previous) > 0 && (sameSlice(previousInOrder, l.inOrder) || slices.Equal(previousInOrder, l.inOrder))
	switch {
	case keepOrder && sameRows:
		l.rows = previous
		switch {
		case previousFinishSort == nil:
		case previousFinishSort.reloads == s.Reloads && (sameSlice(previousFinishSort.of, l.inOrder) || slices.Equal(previousFinishSort.of, l.inOrder)):
			l.finishSort = previousFinishSort // its order is of these rows still (a filter lists them in a new slice)
		default:
			l.finishSort = newFinishSort(s, l.inOrder, descending) // the records were read again
		}
	case l.columns[l.sortColumn].readsRecords:
		// The rows keep their order, those that came since after them in
		// input order (a follow update), until the sort, of them all,
		// lands (finishSorted).
		switch {
		case sameRows:
			l.rows = previous
		case len(previous) > 0 && l.reloads == s.Reloads:
			l.rows = keptThenNew(previous, l.inOrder, s.Trajectories.Len())
		default:
			l.rows = l.inOrder
		}
		l.finishSort = newFinishSort(s, l.inOrder, descending)
	default:
		l.sort(s)
		l.sortedBy, l.sortedUnder, l.sortedConstraints = l.columns[l.sortColumn].title, optionsKey(s), s.Config.Constraints
		l.sortedPending = s.WrittenPending()
	}
	if previousFinishSort != nil && previousFinishSort != l.finishSort {
		previousFinishSort.stopped.Store(true) // its order is of no use now
	}
	l.reloads = s.Reloads
	l.invalid, l.dropped = 0, 0
	ev := s.Result.Evaluation
	for _, i := range l.inOrder {
		switch {
		case ev.Valid[i]:
		case ev.DroppedAt(i):
			l.dropped++
		default:
			l.invalid++
		}
	}
}

// sort orders the rows, from inOrder, by the sort column; ties keep the
// input order, in both directions. The numbers and ranks are sorted by
// radix, the ids and groups by natural comparison. Past pendingMin rows,
// a number's sort selects the first rows and leaves the whole order to
// the tab's command (pending).
func (l *trajectoryList) sort(s *session.Session) {
	col := l.columns[l.sortColumn]
	keys := slices.Grow(l.spareKeys[:0], len(l.inOrder))[:len(l.inOrder)]
	l.spareKeys = nil // keys' now
	switch {
	case l.sortColumn == sortByRank:
		_, _, ranks := s.WrittenValues()
		for j, i := range l.inOrder {
			v := float64(ranks[i])
			if col.mark != nil && col.mark(i) != "" {
				v = math.NaN() // pending: sorted where a NaN is
			}
			keys[j] = floatorder.Key(v)
		}
	case col.values != nil:
		vals, stride, offset := col.values()
		for j, i := range l.inOrder {
			v := vals[i*stride+offset]
			if col.mark != nil && col.mark(i) != "" {
				v = math.NaN() // shown null, - or pending: sorted where a NaN is, not as the number kept
			}
			keys[j] = floatorder.Key(v)
		}
	default:
		l.spareKeys = keys
		l.rows = slices.Clone(l.inOrder)
		slices.SortStableFunc(l.rows, func(a, b int) int {
			if l.descending {
				return col.compare(b, a)
			}
			return col.compare(a, b)
		})
		return
	}
	if l.descending {
		for j := range keys {
			keys[j] = ^keys[j] // floatorder.Descending
		}
	}
	keyed := floatorder.KeyedOf(l.inOrder, keys)
	if keyed.Len() < pendingMin {
		l.rows = keyed.Sorted()
		l.spareKeys = keyed.Keys()
		return
	}
	l.rows = keyed.Top(firstRows)
	l.pending = &pendingOrder{keyed: keyed}
}

// complete puts the whole order in place, waiting for its sort if it is
// pending.
func (l *trajectoryList) complete() {
	if l.pending == nil {
		return
	}
	l.rows = l.pending.wait()
	l.spareKeys = l.pending.keyed.Keys()
	l.pending = nil
}

// job returns the work that sorts by the finish column, or that sorts the
// pending order, once: the tab's common.Worker job.
func (l *trajectoryList) job() func() tea.Msg {
	if f := l.finishSort; f != nil && !f.handedOut {
		f.handedOut = true
		return func() tea.Msg {
			f.run()
			return finishSortedMsg{f}
		}
	}
	p := l.pending
	if p == nil || p.handedOut {
		return nil
	}
	p.handedOut = true
	return func() tea.Msg {
		p.wait()
		return orderedMsg{p}
	}
}

// finishSorted puts the order a finish sort found in place, if it is the
// one under way, and reports whether it did.
func (l *trajectoryList) finishSorted(msg finishSortedMsg) bool {
	if msg.p != l.finishSort {
		return false // the rows were listed or sorted again meanwhile
	}
	l.rows, l.finishSort = msg.p.rows, nil
	l.sortedBy = l.columns[l.sortColumn].title
	if l.finish.failure == "" {
		l.finish.failure = msg.p.failure
	}
	return true
}

// orderedMsg says that the whole order p was sorted.
type orderedMsg struct{ p *pendingOrder }

// ordered puts the order sorted by a command in place, if it is the
// rows'.
func (l *trajectoryList) ordered(msg orderedMsg) {
	if msg.p == l.pending {
		l.complete()
	}
}

// row returns the trajectory of row j, which must be listed (below len).
func (l *trajectoryList) row(j int) int {
	if j >= len(l.rows) {
		l.complete()
	}
	return l.rows[j]
}

// nextSortable returns the first column from c on, cyclically, that
// sorts.
func (l *trajectoryList) nextSortable(c int) int {
	for col := l.columns[c%len(l.columns)]; col.compare == nil && !col.readsRecords; col = l.columns[c%len(l.columns)] {
		c++
	}
	return c % len(l.columns)
}

// optionsKey names the options of the session's result.
func optionsKey(s *session.Session) string { return fmt.Sprintf("%+v", s.Result.Options) }

// sorted reports whether the rows are in the order of the sort column:
// its title is the one they were sorted by and, for the columns the
// options compute (the score, A's reward, the rank, the crowding), the
// options are the same (for the score, rank and crowding, what compute
// writes of the group filter's dropped trajectories computed then as
// now), for the feasible column the constraints.
func (l *trajectoryList) sorted(s *session.Session) bool {
	if l.columns[l.sortColumn].title != l.sortedBy || l.finishSort != nil {
		return false
	}
	switch {
	case l.sortColumn == sortByScore, l.sortColumn == sortByRank, l.sortColumn == sortByCrowding:
		return optionsKey(s) == l.sortedUnder && s.WrittenPending() == l.sortedPending
	case l.sortColumn == sortByReward:
		return optionsKey(s) == l.sortedUnder
	case l.sortColumn == feasibleColumn && s.Result.Evaluation.HasConstraints():
		return slices.Equal(s.Config.Constraints, l.sortedConstraints)
	}
	return true
}

// keptThenNew returns the rows of previous that are in inOrder, in
// previous' order, then the others of inOrder, in input order: n bounds
// the trajectories' indices.
func keptThenNew(previous, inOrder []int, n int) []int {
	listed := make([]bool, n)
	for _, i := range inOrder {
		listed[i] = true
	}
	rows := make([]int, 0, len(inOrder))
	for _, i := range previous {
		if i < n && listed[i] {
			rows = append(rows, i)
			listed[i] = false
		}
	}
	for _, i := range inOrder {
		if listed[i] {
			rows = append(rows, i)
		}
	}
	return rows
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice(a, b []int) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// formatKey names a number column's values: its array (where trajectory
// i's is at i*stride+offset) over the rows listed, in input order.
type formatKey struct {
	vals              *float64
	n, stride, offset int
	rows              *int
	listed            int
}

// numberFormats returns the formats of the number columns over the rows
// (feasible's of the violations its cells show; the others' are zero), kept for the columns whose arrays a recompute
// never writes into (not the rewards, whose arrays a later result may
// reuse). The values are read in input order, the arrays' (a million
// rows in table order would miss the caches at each one), in a loop of
// their own per column, on every core.
func (l *trajectoryList) numberFormats() []table.NumberFormat {
	rows := l.inOrder
	formats := make([]table.NumberFormat, len(l.columns))
	type array struct {
		c              int
		vals           []float64
		stride, offset int
		violations     bool
		key            formatKey
		kept           bool
	}
	var read []array
	for c, col := range l.columns {
		if col.values == nil || (col.textCells && !col.violations) {
			continue
		}
		vals, stride, offset := col.values()
		a := array{c: c, vals: vals, stride: stride, offset: offset, violations: col.violations}
		if c != sortByReward && c != sortByRewardB && len(vals) > 0 && len(rows) > 0 {
			a.key, a.kept = formatKey{&vals[0], len(vals), stride, offset, &rows[0], len(rows)}, true
			if f, ok := l.formats[a.key]; ok {
				formats[c] = f
				continue
			}
		}
		read = append(read, a)
	}
	if len(read) == 0 || len(rows) == 0 {
		return formats
	}
	nw := parallel.Workers(len(rows), formatChunk)
	ranges := make([][]table.NumberRange, nw)
	for w := range ranges {
		ranges[w] = make([]table.NumberRange, len(read))
		for k, a := range read {
			ranges[w][k] = table.NewNumberRange()
			if a.violations {
				ranges[w][k].SkipNegative()
			}
		}
	}
	// inOrder is ascending: from its first to its last, it is every row
	// between when there are as many.
	contiguous := rows[len(rows)-1]-rows[0] == len(rows)-1
	parallel.Chunks(len(rows), formatChunk, nw, func(w, lo, hi int) {
		for k, a := range read {
			switch {
			case contiguous:
				ranges[w][k].AddRows(a.vals, a.stride, a.offset, rows[lo], rows[hi-1]+1)
			default:
				ranges[w][k].AddAt(a.vals, a.stride, a.offset, rows[lo:hi])
			}
		}
	})
	if l.formats == nil || len(l.formats) > 4*len(l.columns) {
		l.formats = map[formatKey]table.NumberFormat{}
	}
	for k, a := range read {
		r := ranges[0][k]
		for w := 1; w < nw; w++ {
			r.Merge(ranges[w][k])
		}
		formats[a.c] = r.Format()
		if a.kept {
			l.formats[a.key] = formats[a.c]
		}
	}
	return formats
}

// formatChunk is how many rows a core reads at a time for the formats.
const formatChunk = 1 << 15

// trajectoryColumns returns the table's columns for the session's result.
// They read the session when called, not the trajectories and result of
// now: a tab not shown keeps its columns, which must not keep the arrays
// of an old result alive in follow mode.
func trajectoryColumns(s *session.Session) []trajectoryColumn {
	number := func(title string, values func() ([]float64, int, int)) trajectoryColumn {
		v := func(i int) float64 {
			vals, stride, offset := values()
			return vals[i*stride+offset]
		}
		return trajectoryColumn{
			title:   title,
			text:    func(i int) string { return common.FormatValue(v(i)) },
			value:   v,
			values:  values,
			compare: func(a, b int) int { return cmp.Compare(v(a), v(b)) },
		}
	}
	dense := func(vals func() []float64) func() ([]float64, int, int) {
		return func() ([]float64, int, int) { return vals(), 1, 0 }
	}
	id := func(i int) string { return s.Trajectories.At(i).ID }
	group := func(i int) string { return s.Trajectories.At(i).Group }
	// The score, rank and crowding are what compute writes: with the
	// group filter on, a dropped trajectory's are those of the run
	// without it, marked pending until computed.
	pending := func(col trajectoryColumn) trajectoryColumn {
		if s.WrittenPending() {
			col.mark, col.markWidth = pendingMark(s), ansi.StringWidth(common.PendingValue)
		}
		return col
	}
	rankText := func(i int) string {
		if pendingMark(s)(i) != "" {
			return common.PendingValue
		}
		_, _, ranks := s.WrittenValues()
		return common.RankText(ranks[i])
	}
	// The rewards of the batch the rows are listed from, which the
	// session may have left (a job landing while the tab is hidden).
	batch := s.CurrentBatch()
	rewardB := number(rewardBTitle(s), func() ([]float64, int, int) { return rewardsB(s, batch) })
	if !s.ShowsRewardB() {
		rewardB.compare = nil // hidden (dataColumns): it would repeat A's
	}
	cols := []trajectoryColumn{
		{title: "id", text: func(i int) string { return textsafe.Line(id(i)) }, compare: func(a, b int) int { return natural.Compare(id(a), id(b)) }},
		{title: "group", text: func(i int) string { return textsafe.Line(group(i)) }, compare: func(a, b int) int { return natural.Compare(group(a), group(b)) }},
		pending(number("score", dense(func() []float64 { scores, _, _ := s.WrittenValues(); return scores }))),
		// The rewards are named by their method: A's, the current one, and
		// B's, the Compare tab's (A's own when B is A).
		number(textsafe.Line(string(s.Result.Options.Method)), func() ([]float64, int, int) { return shownRewards(s.Result, batch) }),
		rewardB,
		pending(trajectoryColumn{title: "rank", text: rankText, compare: func(a, b int) int { _, _, ranks := s.WrittenValues(); return cmp.Compare(ranks[a], ranks[b]) }}),
		pending(number("crowding", dense(func() []float64 { _, crowding, _ := s.WrittenValues(); return crowding }))),
	}
	if s.Result.Evaluation.HasConstraints() {
		// Its cells are the listed rows' (dataColumns): one format for
		// the violations they show, kept as the other columns' are (the
		// keys' array is the evaluation's own).
		feasible := number("feasible", dense(func() []float64 { return s.Result.Evaluation.FeasibilityKeys() }))
		feasible.textCells = true
		feasible.violations = true
		cols = append(cols, feasible)
	}
	for k, o := range s.Result.Objectives {
		objective := number(common.ObjectiveName(o.Name), func() ([]float64, int, int) {
			return s.Result.Evaluation.Values, s.Result.Evaluation.M, k
		})
		if common.CanLackValues(s.Result.Evaluation) { // else none is
			objective.mark = func(i int) string { return common.AbsentValue(s.Result.Evaluation, i, k) }
			objective.markWidth = common.AbsentWidth(s.Result.Evaluation)
		}
		objective.text = func(i int) string { return common.ObjectiveValue(s.Result.Evaluation, i, k) }
		cols = append(cols, objective)
	}
	return cols
}

// pendingMark returns the mark of a trajectory whose written values are
// being computed (session.WrittenPendingAt); "" for the others.
func pendingMark(s *session.Session) func(i int) string {
	return func(i int) string {
		if s.WrittenPendingAt(i) {
			return common.PendingValue
		}
		return ""
	}
}

// shownRewards returns res's rewards as shown (engine.Result.ShownRewardsOf)
// of batch b, in a column's form: trajectory i's at i*1-first. The other
// batches are not computed.
func shownRewards(res *engine.Result, b *engine.Batch) (vals []float64, stride, offset int) {
	shown, first := res.ShownRewardsOf(b)
	return shown, 1, -first
}

// rewardsB returns method B's rewards as shown (Session.RewardB) of batch
// b, in a column's form: the logged advantages, B's result's, or A's own
// when B is A.
func rewardsB(s *session.Session, b *engine.Batch) (vals []float64, stride, offset int) {
	switch {
	case !s.ShowsRewardB():
		return shownRewards(s.Result, b)
	case s.CompareMethod == session.LoggedMethod:
		return s.Evaluation.Logged, 1, 0
	case s.CompareResult() != nil:
		return shownRewards(s.CompareResult(), b)
	}
	return shownRewards(s.Result, b) // not computed yet: the tab shows it is computing
}

// rewardBTitle names method B's column: the method, marked as B when it
// is A's.
func rewardBTitle(s *session.Session) string {
	title := textsafe.Line(string(s.CompareMethod))
	if s.CompareMethod == s.Result.Options.Method {
		title += " (B)"
	}
	return title
}

// dataColumns returns the table's columns over the listed rows, each as
// wide as its content: numbers with one precision per column, ids and
// groups within limits, then why a row is invalid when one is. The id
// stays on screen when the others scroll sideways.
func (l *trajectoryList) dataColumns(s *session.Session) []table.Column {
	n := l.len()
	formats := l.numberFormats()
	cols := make([]table.Column, 0, len(l.columns)+1)
	// The text columns are measured in input order: their widths do not
	// depend on the sort, which may not be done yet.
	text := func(col trajectoryColumn) (inTable, inOrder func(j int) string) {
		return func(j int) string { return col.text(l.row(j)) }, func(j int) string { return col.text(l.inOrder[j]) }
	}
	sorted := l.sorted(s)
	for c, col := range l.columns {
		title := col.title
		switch {
		case c == l.sortColumn && sorted:
			title += common.SortArrow(l.descending)
		case c == l.sortColumn: // an order the column no longer gives: no arrow, its room kept
			title += "  "
		}
		cell, measured := text(col)
		switch {
		case c == sortByID:
			cols = append(cols, table.KeyColumn(title, n, common.MaxIDWidth, cell, measured))
		case c == sortByGroup:
			group := func(i int) string { return s.Trajectories.At(i).Group }
			// The prefix the batch's groups share, as the Groups tab cuts
			// it: a filter's few rows may share the system prompt's words
			// too, and a group would read otherwise than unfiltered.
			batch := s.CurrentBatch().Members
			if cut := common.SharedGroupPrefix(len(batch), func(j int) string { return group(batch[j]) }); cut > 0 {
				short := func(i int) string { return "…" + textsafe.Line(group(i)[cut:]) }
				cell, measured = func(j int) string { return short(l.row(j)) }, func(j int) string { return short(l.inOrder[j]) }
			}
			cols = append(cols, table.MeasuredTextColumn(title, n, maxKeyWidth, cell, measured))
		case col.fixedWidth > 0:
			cols = append(cols, table.Column{Title: title, Width: max(col.fixedWidth, ansi.StringWidth(title)), Cell: cell})
		case col.textCells: // feasible
			ev := s.Result.Evaluation
			mark := func(i int) string { return common.FeasibleMark(ev, i, formats[c].Format) }
			feasible := table.MeasuredTextColumn(title, n, maxFeasibleWidth, func(j int) string { return mark(l.row(j)) }, func(j int) string { return mark(l.inOrder[j]) })
			feasible.Whole = true // "✗ 0.30…" would cut a number
			cols = append(cols, feasible)
		case col.values != nil:
			// The format from the array; the cells read the session when
			// drawn.
			number := table.NumberColumnOf(title, formats[c], func(j int) float64 { return col.value(l.row(j)) })
			if col.mark != nil {
				number = table.MarkMissing(number, n, col.markWidth, func(j int) string { return col.mark(l.row(j)) }, func(j int) string { return col.mark(l.inOrder[j]) })
			}
			number.Hidden = c == sortByRewardB && !s.ShowsRewardB()
			cols = append(cols, number)
		default: // the rank: digits or "-"
			dc := table.MeasuredTextColumn(title, n, rankWidth, cell, measured)
			dc.Number = true
			cols = append(cols, dc)
		}
	}
	if l.invalid+l.dropped > 0 {
		cause := func(i int) string { return textsafe.Line(s.NotValidBecause(i)) }
		title := "invalid because"
		if l.dropped > 0 { // not invalid data
			title = "left out because"
		}
		cols = append(cols, table.MeasuredTextColumn(title, n, maxCauseWidth,
			func(j int) string { return cause(l.row(j)) }, func(j int) string { return cause(l.inOrder[j]) }))
	}
	return cols
}

// len is the number of rows listed.
func (l *trajectoryList) len() int { return len(l.inOrder) }

// at returns the trajectory of row j, -1 if there is none.
func (l *trajectoryList) at(j int) int {
	if j < 0 || j >= l.len() {
		return -1
	}
	return l.row(j)
}

// position returns the row of trajectory i, -1 if it is not listed.
func (l *trajectoryList) position(i int) int {
	if j := slices.Index(l.rows, i); j >= 0 || l.pending == nil {
		return j
	}
	if _, listed := slices.BinarySearch(l.inOrder, i); !listed {
		return -1
	}
	l.complete()
	return slices.Index(l.rows, i)
}
