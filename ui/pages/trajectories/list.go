package trajectories

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The Trajectories table's first columns; one per objective follows them.
const (
	sortByID = iota
	sortByGroup
	sortByScore
	sortByReward
	sortByRewardB
	sortByRank
	sortByCrowding
)

// Column widths of the Trajectories table, in cells.
const (
	rankWidth     = 11 // "rank ▲" or a rank of up to 11 digits
	maxKeyWidth   = 16 // a group
	maxCauseWidth = 60
)

// trajectoryColumn is one column of the Trajectories table.
type trajectoryColumn struct {
	title string
	// text returns trajectory i's cell, safe to print.
	text func(i int) string
	// value returns trajectory i's number in a number column, nil in
	// the others; values returns the array value reads, in which
	// trajectory i's number is at i*stride+offset, for the loops over a
	// million rows.
	value  func(i int) float64
	values func() (vals []float64, stride, offset int)
	// compare orders two trajectories by this column.
	compare func(a, b int) int
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
	sortedBy, sortedUnder string
	// rows holds trajectory indices in table order, inOrder the same in
	// input order; invalid counts those that are invalid.
	rows    []int
	inOrder []int
	invalid int
	// causes holds why each row is invalid ("" when valid).
	causes []string
	// formats are the number formats of the columns a method does not
	// change, by the array and the rows they were read from.
	formats map[formatKey]table.NumberFormat
}

// build lists the current batch's trajectories whose id or group contains
// filter (ignoring case), sorted by column sortColumn (the last when there
// are fewer columns), descending or not; with keepOrder, rows that are
// the ones listed already keep their order (a change of method does not
// move them until the user sorts again).
func (l *trajectoryList) build(s *session.Session, filter string, sortColumn int, descending, keepOrder bool) {
	previous := l.rows
	l.columns = trajectoryColumns(s)
	l.sortColumn, l.descending = min(sortColumn, len(l.columns)-1), descending
	filter = strings.ToLower(filter)
	l.rows, l.invalid = nil, 0
	members := s.CurrentBatch().Members
	if filter == "" {
		l.rows = members // not changed: cloned below to be sorted
	} else {
		for _, i := range members {
			if matchesFilter(s.Trajectories.At(i), filter) {
				l.rows = append(l.rows, i)
			}
		}
	}
	l.inOrder = l.rows
	if keepOrder && sameRows(previous, l.rows) {
		l.rows = previous
	} else {
		l.rows = slices.Clone(l.rows)
		l.sort(s)
		l.sortedBy, l.sortedUnder = l.columns[l.sortColumn].title, optionsKey(s)
	}
	l.causes = nil
	valid := s.Result.Evaluation.Valid
	for j, i := range l.rows {
		if !valid[i] {
			if l.causes == nil {
				l.causes = make([]string, len(l.rows))
			}
			l.invalid++
			l.causes[j] = textsafe.Line(s.Result.Evaluation.Causes[i])
		}
	}
}

// sort sorts the rows, which are in input order, by the sort column; ties
// keep the input order, in both directions. The numbers and ranks are
// sorted by radix (a million rows at each method switch), the ids and
// groups by natural comparison.
func (l *trajectoryList) sort(s *session.Session) {
	col := l.columns[l.sortColumn]
	key := floatorder.Key
	if l.descending {
		key = floatorder.Descending
	}
	switch {
	case l.sortColumn == sortByRank:
		ranks := s.Result.Ranking.Ranks
		floatorder.Sort(l.rows, 1, func(_, i int) uint64 { return key(float64(ranks[i])) })
		return
	case col.values != nil:
		vals, stride, offset := col.values()
		floatorder.Sort(l.rows, 1, func(_, i int) uint64 { return key(vals[i*stride+offset]) })
		return
	}
	slices.SortStableFunc(l.rows, func(a, b int) int {
		if l.descending {
			return col.compare(b, a)
		}
		return col.compare(a, b)
	})
}

// optionsKey names the options of the session's result.
func optionsKey(s *session.Session) string { return fmt.Sprintf("%+v", s.Result.Options) }

// sorted reports whether the rows are in the order of the sort column:
// its title is the one they were sorted by and, for the columns the
// options compute (the score, A's reward, the rank, the crowding), the
// options are the same.
func (l *trajectoryList) sorted(s *session.Session) bool {
	if l.columns[l.sortColumn].title != l.sortedBy {
		return false
	}
	switch l.sortColumn {
	case sortByScore, sortByReward, sortByRank, sortByCrowding:
		return optionsKey(s) == l.sortedUnder
	}
	return true
}

// sameRows reports whether sorted, in any order, holds the trajectories
// of inOrder, which is in ascending order without repeats.
func sameRows(sorted, inOrder []int) bool {
	if len(sorted) != len(inOrder) || len(sorted) == 0 {
		return false
	}
	lo, hi := inOrder[0], inOrder[len(inOrder)-1]
	seen := make([]bool, hi-lo+1)
	for _, i := range sorted {
		if i < lo || i > hi || seen[i-lo] {
			return false
		}
		seen[i-lo] = true
	}
	// As many distinct trajectories within inOrder's range: the same
	// ones, if inOrder's are all marked.
	for _, i := range inOrder {
		if !seen[i-lo] {
			return false
		}
	}
	return true
}

// matchesFilter reports whether the filter, lower case, is in tr's id or
// group.
func matchesFilter(tr *scoring.Trajectory, filter string) bool {
	return strings.Contains(strings.ToLower(tr.ID), filter) || strings.Contains(strings.ToLower(tr.Group), filter)
}

// formatKey names a number column's values: its array (where trajectory
// i's is at i*stride+offset) over the rows listed, in input order.
type formatKey struct {
	vals              *float64
	n, stride, offset int
	rows              *int
	listed            int
}

// numberFormat returns the format of column c's values over the rows,
// kept for the columns whose arrays a recompute never writes into (not
// the rewards, whose arrays a later result may reuse).
func (l *trajectoryList) numberFormat(c int, vals []float64, stride, offset int) table.NumberFormat {
	rows := l.inOrder
	read := func() table.NumberFormat {
		// In input order, the array's: a million rows in table order
		// would miss the caches at each one.
		return table.NewNumberFormat(len(rows), func(j int) float64 { return vals[rows[j]*stride+offset] })
	}
	if c == sortByReward || c == sortByRewardB || len(vals) == 0 || len(rows) == 0 {
		return read()
	}
	key := formatKey{&vals[0], len(vals), stride, offset, &rows[0], len(rows)}
	if f, ok := l.formats[key]; ok {
		return f
	}
	if l.formats == nil || len(l.formats) > 4*len(l.columns) {
		l.formats = map[formatKey]table.NumberFormat{}
	}
	f := read()
	l.formats[key] = f
	return f
}

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
	cols := []trajectoryColumn{
		{"id", func(i int) string { return textsafe.Line(id(i)) }, nil, nil, func(a, b int) int { return natural.Compare(id(a), id(b)) }},
		{"group", func(i int) string { return textsafe.Line(group(i)) }, nil, nil, func(a, b int) int { return natural.Compare(group(a), group(b)) }},
		number("score", dense(func() []float64 { return s.Result.Scores })),
		// The rewards are named by their method: A's, the current one, and
		// B's, the Compare tab's (A's own when B is A).
		number(textsafe.Line(string(s.Result.Options.Method)), dense(func() []float64 { return s.Result.Rewards })),
		number(rewardBTitle(s), dense(func() []float64 { return rewardsB(s) })),
		{"rank", func(i int) string { return common.RankText(s.Result.Ranking.Ranks[i]) }, nil, nil, func(a, b int) int { return cmp.Compare(s.Result.Ranking.Ranks[a], s.Result.Ranking.Ranks[b]) }},
		number("crowding", dense(func() []float64 { return s.Result.Ranking.Crowding })),
	}
	for k, o := range s.Result.Objectives {
		cols = append(cols, number(textsafe.Line(o.Name), func() ([]float64, int, int) {
			return s.Result.Evaluation.Values, s.Result.Evaluation.M, k
		}))
	}
	return cols
}

// rewardsB returns method B's rewards (Session.RewardB), by trajectory:
// the logged advantages, B's result's, or A's own when B is A.
func rewardsB(s *session.Session) []float64 {
	switch {
	case !s.ShowsRewardB():
		return s.Result.Rewards
	case s.CompareMethod == session.LoggedMethod:
		return s.Evaluation.Logged
	case s.CompareResult() != nil:
		return s.CompareResult().Rewards
	}
	return s.Result.Rewards // not computed yet: the tab shows it is computing
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
func (l *trajectoryList) dataColumns() []table.Column {
	n := len(l.rows)
	cols := make([]table.Column, 0, len(l.columns)+1)
	for c, col := range l.columns {
		title := col.title
		if c == l.sortColumn {
			title += common.SortArrow(l.descending)
		}
		text := func(j int) string { return col.text(l.rows[j]) }
		switch {
		case c == sortByID:
			cols = append(cols, table.TextColumn(title, n, common.MaxIDWidth, text))
		case c == sortByGroup:
			if cut := common.SharedGroupPrefix(n, text); cut > 0 {
				cols = append(cols, table.TextColumn(title, n, maxKeyWidth, func(j int) string { return "…" + text(j)[cut:] }))
			} else {
				cols = append(cols, table.TextColumn(title, n, maxKeyWidth, text))
			}
		case col.values != nil:
			// The format from the array; the cells read the session when
			// drawn.
			vals, stride, offset := col.values()
			f := l.numberFormat(c, vals, stride, offset)
			cols = append(cols, table.NumberColumnOf(title, f, func(j int) float64 { return col.value(l.rows[j]) }))
		default: // the rank: digits or "-"
			dc := table.TextColumn(title, n, rankWidth, text)
			dc.Number = true
			cols = append(cols, dc)
		}
	}
	if l.invalid > 0 {
		cols = append(cols, table.TextColumn("invalid because", n, maxCauseWidth, func(j int) string { return l.causes[j] }))
	}
	return cols
}

// at returns the trajectory of row j, -1 if there is none.
func (l *trajectoryList) at(j int) int {
	if j < 0 || j >= len(l.rows) {
		return -1
	}
	return l.rows[j]
}

// position returns the row of trajectory i, -1 if it is not listed.
func (l *trajectoryList) position(i int) int {
	return slices.Index(l.rows, i)
}
