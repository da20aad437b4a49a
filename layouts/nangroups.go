package layouts

import (
	"fmt"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// maxNaNGroupsShown is how many groups nanGroups names.
const maxNaNGroupsShown = 5

// nanGroups warns of the groups, in the batches of index batches, where
// the value of objective (a trainer's reward, the result's one
// objective) is NaN or infinite, or its weighted score overflows: the trainer's own advantage takes the
// group's mean over it, which trainerSays says, while rewardlens leaves
// the row out as invalid and scores the others without it. nil when res
// has another objective, or no such group.
func nanGroups(res *engine.Result, batches []int, objective, trainerSays string) []string {
	if len(res.Objectives) != 1 || res.Objectives[0].Name != objective {
		return nil
	}
	var named []string
	groups := 0
	for _, bi := range batches {
		b := &res.Ranking.Batches[bi]
		shared := -1 // agreement.SharedOpening, once a group is named
		for _, g := range b.Groups {
			bad := 0
			for _, i := range g.Members {
				if !res.Evaluation.Valid[i] && isNaNCause(objective, res.Evaluation.Causes[i]) {
					bad++
				}
			}
			if bad == 0 {
				continue
			}
			groups++
			if len(named) < maxNaNGroupsShown {
				if shared < 0 {
					shared = agreement.SharedOpening(b.Groups)
				}
				named = append(named, fmt.Sprintf("step %d, group %s (%d of %d)", b.Step, textsafe.Line(textsafe.QuoteFrom(g.Key, shared)), bad, len(g.Members)))
			}
		}
	}
	if groups == 0 {
		return nil
	}
	if more := groups - len(named); more > 0 {
		named = append(named, fmt.Sprintf("and %d more %s", more, english.Plural(more, "group")))
	}
	return []string{fmt.Sprintf("a NaN or infinite %s in %d %s: %s. %s; here those rows are invalid and the group's others are scored without them",
		objective, groups, english.Plural(groups, "group"), strings.Join(named, "; "), trainerSays)}
}

// isNaNCause reports whether an invalid cause is objective's being NaN
// or infinite (scoring.InvalidError's text), or its weighted score's
// overflowing (engine.ScoreOverflowCause: a finite value the trainer's
// float32 cannot hold is infinite there too).
func isNaNCause(objective, cause string) bool {
	if err, _ := engine.ScoreOverflowOf(cause); err != nil {
		return true
	}
	for _, err := range []error{scoring.ErrNaN, scoring.ErrInf} {
		if cause == (&scoring.InvalidError{Objective: objective, Err: err}).Error() {
			return true
		}
	}
	return false
}
