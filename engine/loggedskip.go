package engine

import (
	"math"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// The logged advantages that no reward is compared with although the
// record has one: not a number (Evaluation.LoggedNotNumbers), NaN or
// infinite (LoggedNonFinite). Each kind is counted, with its first, so
// that a caller says how many rows were left out and why.

// LoggedValue is a logged advantage as the record has it: where
// (scoring.Trajectory.Where) and its value.
type LoggedValue struct {
	Where string
	Value any
	// row is its trajectory's index in the evaluation, unknownRow when it
	// is not known (Known).
	row int
}

// unknownRow is the row of a LoggedValue that is not known.
const unknownRow = -1

// Known reports whether v is the first of its kind's value: not when
// Filter left out the first and kept others of the kind, whose values
// are not kept.
func (v LoggedValue) Known() bool { return v.row != unknownRow }

// loggedNotNumber is the NaN Logged holds for a logged advantage that is
// there but not a number, and loggedNaN that for one that is NaN: NaNs
// with payloads of their own, read as any NaN (absent) by math.IsNaN,
// told apart from an absent one's by their bits. They are the per-row
// marks that let Filter count the rows it keeps.
var (
	loggedNotNumber = math.Float64frombits(0x7ff8_0000_0bad_0001)
	loggedNaN       = math.Float64frombits(0x7ff8_0000_0bad_0002)
)

// isLoggedNotNumber reports whether a Logged entry is loggedNotNumber.
func isLoggedNotNumber(x float64) bool {
	return math.Float64bits(x) == math.Float64bits(loggedNotNumber)
}

// isLoggedNonFinite reports whether a Logged entry is a logged NaN
// (loggedNaN) or infinity.
func isLoggedNonFinite(x float64) bool {
	return math.Float64bits(x) == math.Float64bits(loggedNaN) || math.IsInf(x, 0)
}

// loggedTally counts, in some rows, the logged advantages of one kind,
// and keeps the first.
type loggedTally struct {
	count int
	first LoggedValue
}

// add counts t's logged value v, at row.
func (l *loggedTally) add(row int, t *scoring.Trajectory, v any) {
	if l.count == 0 || row < l.first.row {
		l.first = LoggedValue{Where: t.Where(), Value: v, row: row}
	}
	l.count++
}

// addTallies returns count and first, those of the rows before, with
// the tallies of the rows after added: the first stays the rows
// before's when they have one.
func addTallies(count int, first LoggedValue, tallies []loggedTally) (int, LoggedValue) {
	before := count > 0
	for _, l := range tallies {
		if l.count > 0 && !before && (count == 0 || l.first.row < first.row) {
			first = l.first
		}
		count += l.count
	}
	return count, first
}

// kept counts row i of ev, of logged value x, kept by Filter as row j,
// when it is of the tally's kind (is); first is ev's first of the kind.
// The first kept is known when it is ev's first.
func (l *loggedTally) kept(x float64, is func(float64) bool, i, j int, first LoggedValue) {
	if !is(x) {
		return
	}
	if l.count == 0 {
		l.first = LoggedValue{row: unknownRow}
		if first.row == i {
			l.first = first
			l.first.row = j
		}
	}
	l.count++
}
