package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Rescore scores t, trajectory i of ev read again from its file, with s,
// the scorer ev was evaluated with (a copy of it: s is used on the
// calling goroutine), and returns "" when t scores as ev holds it: the
// same validity, cause, objective values (NaN equal to NaN) and
// constraints met. A row ev holds invalid only because its weighted score
// overflows (ScoreOverflowCause) is compared as the valid row it is:
// Evaluate scores no weighted sum. Else it returns the first difference, "safety is now
// 0.158, was 0.958": the record was edited since it was evaluated, and
// what is shown of it would contradict what was computed. It is "" when
// s has other objectives than ev (a structure applied since).
func (ev *Evaluation) Rescore(s scoring.Scorer, i int, t *scoring.Trajectory) string {
	objs := s.Objectives()
	if len(objs) != ev.M || !slices.EqualFunc(objs, ev.Objectives, func(a, b scoring.Objective) bool { return a.Name == b.Name }) {
		return ""
	}
	now := Evaluate(s, []scoring.Trajectory{*t})
	overflowed, _ := ScoreOverflowOf(ev.Causes[i])
	wasValid := ev.Valid[i] || overflowed != nil
	switch {
	case now.Valid[0] && !wasValid:
		return "it is now valid, was " + ev.Causes[i]
	case !now.Valid[0] && wasValid:
		return "it is now invalid: " + now.Causes[0]
	case !now.Valid[0]:
		if now.Causes[0] != ev.Causes[i] {
			return "it is now invalid as " + now.Causes[0] + ", was " + ev.Causes[i]
		}
		return ""
	}
	for k, x := range now.Row(0) {
		was := ev.Values[i*ev.M+k]
		if x != was && !(math.IsNaN(x) && math.IsNaN(was)) || now.Missing(0, k) != ev.Missing(i, k) {
			return fmt.Sprintf("%s is now %s, was %s", ev.Objectives[k].Name, formatRescored(x, now.Missing(0, k)), formatRescored(was, ev.Missing(i, k)))
		}
	}
	if c := len(ev.Constraints); c > 0 && len(now.ConstraintHolds) == c {
		for k, holds := range now.ConstraintHolds {
			if holds != ev.ConstraintHolds[i*c+k] {
				if holds {
					return ev.Constraints[k].Subject() + " now holds"
				}
				return ev.Constraints[k].Subject() + " now fails"
			}
		}
	}
	return ""
}

// formatRescored is x as Rescore says it: "missing" when it is absent.
func formatRescored(x float64, missing bool) string {
	if missing {
		return "missing"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}
