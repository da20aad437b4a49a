package layouts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// maxNaNGroupsShown is how many groups a warning of groups names
// (namedGroups).
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
	groups, named := groupsWithInvalid(res, batches, func(cause string) bool { return isNaNCause(res, objective, cause) })
	if groups == 0 {
		return nil
	}
	return []string{fmt.Sprintf("a NaN or infinite %s in %d %s: %s. %s; here those rows are invalid and the group's others are scored without them",
		objective, groups, english.Plural(groups, "group"), named, trainerSays)}
}

// invalidRowGroups warns of the groups, in the batches of index batches,
// where the value of objective (a trainer's reward, the result's one
// objective) is invalid for another cause than nanGroups' (not a number,
// missing): rewardlens scores the group's others without those rows,
// the trainer scored its group with a value there, so the others' logged
// advantages differ; where the trainer could not have scored such a
// value (trainer.couldNot: verl's reward manager), the rows are said not
// to be what it trained on instead. trainer.rename, when set, gives the
// trainer's words for a cause (scoring.ErrEval of a field read as a
// number: not a number). nil when res has another objective, or no such
// group.
func invalidRowGroups(res *engine.Result, batches []int, objective string, trainer invalidRowsTrainer) []string {
	if len(res.Objectives) != 1 || res.Objectives[0].Name != objective {
		return nil
	}
	var whys []string
	groups, named := groupsWithInvalid(res, batches, func(cause string) bool {
		c, ok := res.Evaluation.CauseOf(cause)
		if !ok || c.Overflow || c.Subject != objective || isNaNCause(res, objective, cause) {
			return false
		}
		why := c.Err.Error()
		if w, ok := trainer.rename[why]; ok {
			why = w
		}
		if !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
		return true
	})
	if groups == 0 {
		return nil
	}
	tail := "where the trainer scored the whole group: the others' logged advantages differ"
	if trainer.couldNot != "" {
		tail = trainer.couldNot
	}
	return []string{fmt.Sprintf("an invalid %s (%s) in %d %s: %s; here those rows are invalid and the group's others are scored without them, %s",
		objective, textsafe.Line(english.Join(whys, "or")), groups, english.Plural(groups, "group"), named, tail)}
}

// invalidRowsTrainer is what invalidRowGroups says of the trainer:
// couldNot, when set, why it could not have scored such a row (in place
// of the logged advantages that differ), and rename its words for
// rewardlens' causes.
type invalidRowsTrainer struct {
	couldNot string
	rename   map[string]string
}

// groupsWithInvalid counts the groups, in the batches of index batches,
// that hold an invalid row whose cause bad holds, and names the first
// maxNaNGroupsShown of them ("step S, group "KEY" (B of N)", "; " apart,
// then how many more).
func groupsWithInvalid(res *engine.Result, batches []int, bad func(cause string) bool) (groups int, named string) {
	return namedGroups(res, batches, func(g *engine.Group) (string, bool) {
		n := 0
		for _, i := range g.Members {
			if !res.Evaluation.Valid[i] && bad(res.Evaluation.Causes[i]) {
				n++
			}
		}
		return fmt.Sprintf(" (%d of %d)", n, len(g.Members)), n > 0
	})
}

// namedGroups counts the groups, in the batches of index batches, that
// match holds, and names the first maxNaNGroupsShown of them ("step S,
// group "KEY"" and the detail match returns, "; " apart, then how many
// more).
func namedGroups(res *engine.Result, batches []int, match func(g *engine.Group) (detail string, ok bool)) (groups int, named string) {
	var names []string
	for _, bi := range batches {
		b := &res.Ranking.Batches[bi]
		shared := -1 // agreement.SharedOpening, once a group is named
		for gi := range b.Groups {
			g := &b.Groups[gi]
			detail, ok := match(g)
			if !ok {
				continue
			}
			groups++
			if len(names) < maxNaNGroupsShown {
				if shared < 0 {
					shared = agreement.SharedOpening(b.Groups)
				}
				names = append(names, fmt.Sprintf("step %d, group %s%s", b.Step, textsafe.Line(textsafe.QuoteFrom(g.Key, shared)), detail))
			}
		}
	}
	if more := groups - len(names); more > 0 {
		names = append(names, fmt.Sprintf("and %d more %s", more, english.Plural(more, "group")))
	}
	return groups, strings.Join(names, "; ")
}

// isNaNCause reports whether an invalid cause is objective's being NaN
// or infinite (scoring.InvalidError's text), or its weighted score's
// overflowing (engine.ScoreOverflowCause: a finite value the trainer's
// float32 cannot hold is infinite there too).
func isNaNCause(res *engine.Result, objective, cause string) bool {
	c, ok := res.Evaluation.CauseOf(cause)
	return ok && (c.Overflow || c.Subject == objective && (c.Err == scoring.ErrNaN || c.Err == scoring.ErrInf))
}
