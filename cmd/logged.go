package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// checkLoggedField fails, as a misnamed task metric does, when the
// logged advantage logged (the computer's, compiled from
// --logged-advantage, config logged_advantage or a layout's default; nil
// for none) reads a field that no input's first record has and no row has
// a finite logged advantage: the name is misspelt, and the rewards would
// be compared with nothing. A field the records have but that is null or
// NaN everywhere is left to the trainer check's warning.
func checkLoggedField(logged *scoring.Expression, ev *engine.Evaluation, fields []string) error {
	if logged == nil || ev.Logged == nil || slices.ContainsFunc(ev.Logged, func(v float64) bool { return scoring.Finite(v) == nil }) {
		return nil
	}
	var unseen []string
	for _, f := range logged.FieldsRead() {
		if !scoring.IsTrajectoryField(f) && !slices.Contains(fields, f) {
			unseen = append(unseen, f)
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	return inputError{fmt.Errorf("logged advantage %q: the first records have no field %s%s (give --logged-advantage FIELD or EXPR)", logged.Source, strings.Join(unseen, ", "), fieldHint(logged.Source, fields))}
}
