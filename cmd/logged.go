package cmd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
)

// checkLoggedField fails, as a misnamed task metric does, when the
// logged advantage (--logged-advantage, config logged_advantage, a
// layout's default) reads a field that no input's first record has and
// no row has a finite logged advantage: the name is misspelt, and the
// rewards would be compared with nothing. A field the records have but
// that is null or NaN everywhere is left to the trainer check's warning.
func checkLoggedField(expr string, ev *engine.Evaluation, fields []string) error {
	if expr == "" || ev.Logged == nil || slices.ContainsFunc(ev.Logged, func(v float64) bool { return scoring.Finite(v) == nil }) {
		return nil
	}
	e, err := scoring.CompileExpression("logged_advantage", expr)
	if err != nil {
		return nil // engine.New reported it
	}
	var unseen []string
	for _, f := range e.FieldsRead() {
		if !scoring.IsTrajectoryField(f) && !slices.Contains(fields, f) {
			unseen = append(unseen, f)
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	return inputError{fmt.Errorf("logged advantage %q: the first records have no field %s%s (give --logged-advantage FIELD or EXPR)", expr, strings.Join(unseen, ", "), fieldHint(expr, fields))}
}

// loggedValueRunes is how much of a logged value a warning shows: a
// field may hold a whole text.
const loggedValueRunes = 40

// cutRunes returns s's first n runes (an invalid byte counting as one, kept
// as it is) and whether that left some out.
func cutRunes(s string, n int) (string, bool) {
	runes := 0
	for i := range s {
		if runes == n {
			return s[:i], true
		}
		runes++
	}
	return s, false
}

// loggedNotNumberWarning says how many rows' logged advantage is there but
// not a number (engine.Evaluation.LoggedNotNumbers), read as absent: the
// first's place and value (its first loggedValueRunes runes), a number
// written as a string said as such; "" when none is.
func loggedNotNumberWarning(ev *engine.Evaluation) string {
	n := ev.LoggedNotNumbers
	if n == 0 {
		return ""
	}
	first := ev.FirstLoggedNotNumber
	var value string
	switch v := first.Value.(type) {
	case string:
		cut, more := cutRunes(v, loggedValueRunes)
		value = strconv.Quote(cut)
		if more {
			value += "..."
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			value += ", a number written as a string, which is not read as one"
		}
	default:
		text, err := json.Marshal(v)
		if err != nil {
			text = []byte(fmt.Sprint(v))
		}
		value = string(text)
		if cut, more := cutRunes(value, loggedValueRunes); more {
			value = cut + "..."
		}
	}
	return fmt.Sprintf("%d %s logged advantage is not a number (the first: %s: %s): read as absent, %s not compared with the rewards",
		n, english.Verb(n, "row's", "rows'"), first.Where, value, english.Verb(n, "it is", "they are"))
}
