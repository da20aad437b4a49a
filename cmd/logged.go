package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
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
