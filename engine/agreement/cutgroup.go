package agreement

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
)

// CutGroup is the comparison group that a cap on the rows read (--max-rows)
// cut short: its rewards are computed without its members not read, which
// no trainer setting reproduces.
type CutGroup struct {
	// Batch is the index of its batch in res.Ranking.Batches, Step that
	// batch's step.
	Batch int
	Step  int64
	Group *engine.Group
}

// CutGroupOf returns the group of res that the cap cut, when capped says
// the reading stopped at a number of rows: under scope group (a batch of
// scope batch is no trainer's group), the group of the last trajectory
// read, when it has fewer members than another group of its batch. ok is
// false when there is none: not capped, or the last group read is as
// large as the others (the cap fell on its end).
func CutGroupOf(res *engine.Result, capped bool) (c CutGroup, ok bool) {
	if !capped || res.Options.Scope != engine.ScopeGroup || len(res.Rewards) == 0 {
		return c, false
	}
	last := len(res.Rewards) - 1
	for b := range res.Ranking.Batches {
		groups := res.Ranking.Batches[b].Groups
		for k := range groups {
			// Members are in input order: the last read is the last member.
			if m := groups[k].Members; len(m) == 0 || m[len(m)-1] != last {
				continue
			}
			for j := range groups {
				if len(groups[j].Members) > len(groups[k].Members) {
					return CutGroup{Batch: b, Step: res.Ranking.Batches[b].Step, Group: &groups[k]}, true
				}
			}
			return c, false
		}
	}
	return c, false
}

// CutGroupWarning returns warning, the warning that res's rewards differ
// from the logged advantage (Match.Warning, LoggedWarning, without
// "warning: "), reworded when a cap on the rows read (capped) cut a
// group (CutGroupOf) that holds rows that differ: that group's rewards are
// computed without its members not read, which no trainer setting
// reproduces, so the warning's settings tried would blame the wrong thing.
// When every row that differs is in that group the warning is replaced by
// one that says so; when other rows differ too, it is kept and adds that
// the group differs whatever the settings. Otherwise, and for "", it is
// warning. res is computed under the options the warning compares
// (TrainerOptions), on an evaluation with logged advantages; its batches
// not computed are.
func CutGroupWarning(warning string, res *engine.Result, capped bool) string {
	ev := res.Evaluation
	if warning == "" || ev.Logged == nil {
		return warning
	}
	c, cut := CutGroupOf(res, capped)
	if !cut {
		return warning
	}
	res.Finish()
	rows, differing, inCut := 0, 0, 0
	for i, logged := range ev.Logged {
		if math.IsNaN(logged) || math.IsInf(logged, 0) || !ev.Valid[i] {
			continue
		}
		rows++
		if math.Abs(res.Rewards[i]-logged) > Tolerance {
			differing++
			if _, in := slices.BinarySearch(c.Group.Members, i); in {
				inCut++
			}
		}
	}
	switch {
	case inCut == 0:
		return warning
	case inCut < differing:
		return warning + fmt.Sprintf("; the group --max-rows cut (step %d, group %q, %d of its rows read) differs whatever the settings: compare without --max-rows", c.Step, c.Group.Key, len(c.Group.Members))
	}
	return fmt.Sprintf("%d of %d %s %s from the logged advantage by more than %g, all in the group --max-rows cut (step %d, group %q, %d of its rows read): its rewards are computed without the rows not read; the other rows agree",
		differing, rows, english.Plural(rows, "row"), english.Verb(differing, "differs", "differ"), Tolerance, c.Step, c.Group.Key, len(c.Group.Members))
}

// CutGroupNotes returns check's notes with the one that says the rewards
// differ from the logged advantage reworded for the group a cap on the
// rows read (capped) cut (CutGroupWarning): Logged's warning (LoggedNote),
// or --match-logged's that no setting reproduces it, whose reason is
// reworded. res is check's evaluation computed with check.Options; the
// rewards compared are those of TrainerOptions(check.Options), computed
// again when res's options are others. check.Notes itself is not changed.
func CutGroupNotes(check TrainerCheck, res *engine.Result, capped bool) []string {
	note, warning, wrap := check.LoggedNote, strings.TrimPrefix(check.LoggedNote, "warning: "), func(w string) string { return "warning: " + w }
	if check.unreproduced != "" {
		note, warning, wrap = unreproducedNote(check.unreproduced), check.unreproduced, unreproducedNote
	}
	i := slices.Index(check.Notes, note)
	if note == "" || i < 0 || res.Evaluation.Logged == nil {
		return check.Notes
	}
	if _, cut := CutGroupOf(res, capped); !cut {
		return check.Notes // before computing the trainer's rewards again
	}
	if opts := TrainerOptions(check.Options); !res.Options.Equal(opts) {
		res = res.Evaluation.Compute(opts)
	}
	reworded := CutGroupWarning(warning, res, capped)
	if reworded == warning {
		return check.Notes
	}
	notes := slices.Clone(check.Notes)
	notes[i] = wrap(reworded)
	return notes
}
