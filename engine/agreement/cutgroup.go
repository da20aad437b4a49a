package agreement

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/english"
)

// CutGroup is the trainer's group that a cap on the rows read
// (--max-rows) cut short, or may have: under scope group a comparison
// group (Compared), whose rewards are computed without its members not
// read, which no trainer setting reproduces.
type CutGroup struct {
	// Batch is the index of its batch in res.Ranking.Batches, Step that
	// batch's step.
	Batch int
	Step  int64
	// Group is of res.Ranking.Batches[Batch] when Compared, else of the
	// evaluation's groups under scope group (engine.Evaluation.Partition).
	Group *engine.Group
	// Compared says res's scope is group: Group is a comparison group,
	// whose rewards the cut changed. Under scope batch the group is left
	// out of the groups of unequal size only (TrainerCheck.leaveOutCutGroup),
	// which are the trainer's whatever the scope.
	Compared bool
	// Sure says the cap cut it: the first row not read continued it
	// (scoring.CappedInGroup), or, untold, it has fewer members than
	// another group of its batch; else it is the only group read of its
	// batch, which nothing shows whole.
	Sure bool
}

// Name names c as the messages do: `the group --max-rows cut (step S,
// group "G", R of its rows read)`; when c is not Sure, `the group
// --max-rows may have cut (step S, group "G", the only group read of its
// step)`.
func (c CutGroup) Name() string {
	if !c.Sure {
		return fmt.Sprintf("the group --max-rows may have cut (step %d, group %q, the only group read of its step)", c.Step, c.Group.Key)
	}
	return fmt.Sprintf("the group --max-rows cut (step %d, group %q, %d of its rows read)", c.Step, c.Group.Key, len(c.Group.Members))
}

// CutGroupOf returns the trainer's group of res that the cap on the rows
// read cut, nil for none: Compared under scope group (a batch of scope
// batch is no trainer's group, and its rewards are not a group's). It is
// the group of the last trajectory read: when the first row not read
// continued it (scoring.CappedInGroup; Sure), or, when the reading did
// not tell (scoring.CappedUntold, or CappedInGroup with sources, whose
// one group value may be two sources' groups), when it has fewer members
// than another group of its batch (Sure) or is the only group of its
// batch, which nothing shows whole. The group is taken as whole when the
// first row not read was of another group (scoring.CappedBetweenGroups)
// or, untold, is as large as another of its batch.
func CutGroupOf(res *engine.Result, rowCap scoring.RowCap) *CutGroup {
	if rowCap != scoring.CappedInGroup && rowCap != scoring.CappedUntold || len(res.Rewards) == 0 {
		return nil
	}
	rowCap = rowCap.WithSources(res.Evaluation.HasSources())
	batches, compared := res.Ranking.Batches, res.Options.Scope == engine.ScopeGroup
	if !compared {
		batches = res.Evaluation.Partition(engine.ScopeGroup)
	}
	last := len(res.Rewards) - 1
	for b := range batches {
		groups := batches[b].Groups
		for k := range groups {
			// Members are in input order: the last read is the last member.
			if m := groups[k].Members; len(m) == 0 || m[len(m)-1] != last {
				continue
			}
			c := &CutGroup{Batch: b, Step: batches[b].Step, Group: &groups[k], Compared: compared, Sure: rowCap == scoring.CappedInGroup}
			if c.Sure || len(groups) == 1 {
				return c
			}
			for j := range groups {
				if len(groups[j].Members) > len(groups[k].Members) {
					c.Sure = true
					return c
				}
			}
			return nil
		}
	}
	return nil
}

// CutGroupWarning returns warning, the warning that res's rewards differ
// from the logged advantage (Match.Warning, or batch's:
// Match.BatchWarning), reworded when c, the group a
// cap on the rows read cut (CutGroupOf; nil for none), holds rows that
// differ: that group's rewards are computed without its members not
// read, which no trainer setting reproduces, so the warning's settings
// tried would blame the wrong thing. When every row that differs is in
// that group the warning is replaced by one that says so; when other rows
// differ too, it is kept and adds that the group differs whatever the
// settings. The rows counted are batch's (of res.Ranking), every row for
// nil. It is warning for "", for a c not Compared (a batch's rewards are
// not the group's), and for a batch not c's. res is computed on an
// evaluation with logged advantages, under the options the warning
// compares (TrainerOptions) or computed again with them; its batches not
// computed are.
func CutGroupWarning(warning string, res *engine.Result, c *CutGroup, batch *engine.Batch) string {
	if warning == "" || res.Evaluation.Logged == nil || c == nil || !c.Compared {
		return warning
	}
	var members []int
	if batch != nil {
		if batch.Step != c.Step {
			return warning
		}
		members = batch.Members
	}
	return c.reworded(warning, res, members)
}

// reworded is CutGroupWarning's warning reworded for c, counting the rows
// of members (in input order), every row for nil.
func (c *CutGroup) reworded(warning string, res *engine.Result, members []int) string {
	if trainer := TrainerOptions(res.Options); !res.Options.Equal(trainer) {
		res = res.Evaluation.Compute(trainer) // of the same rows: c's members hold
	}
	ev := res.Evaluation
	res.Finish()
	rows, differing, inCut := 0, 0, 0
	ties := allTieResidues(res)
	count := func(i int) {
		if !comparedRow(ev, i) {
			return
		}
		rows++
		if loggedDiffers(res, ties, i) {
			differing++
			if _, in := slices.BinarySearch(c.Group.Members, i); in {
				inCut++
			}
		}
	}
	if members == nil {
		for i := range ev.Logged {
			count(i)
		}
	}
	for _, i := range members {
		count(i)
	}
	switch {
	case inCut == 0:
		return warning
	case inCut < differing && c.Sure:
		return warning + "; " + c.Name() + " differs whatever the settings: compare without --max-rows"
	case inCut < differing:
		return warning + "; " + c.Name() + " differs, perhaps whatever the settings: compare without --max-rows"
	}
	why := "its rewards are computed without the rows not read"
	if !c.Sure {
		why = "its rewards are computed over the rows read, which may not be all of it"
	}
	return fmt.Sprintf("%d of %d %s %s from the logged advantage by more than %g, all in %s: %s; the other rows agree",
		differing, rows, english.Plural(rows, "row"), english.Verb(differing, "differs", "differ"), Tolerance, c.Name(), why)
}

// CutGroupNotes returns check's notes with c, the group a cap on the rows
// read cut (CutGroupOf of res; nil for none), left out of the groups of
// unequal size (leaveOutCutGroup) whatever the scope, and, when c is
// Compared, the note that says the rewards differ from the logged
// advantage reworded for it (LoggedNote): Logged's
// warning (TrainerCheck.LoggedNote), or --match-logged's that no setting
// reproduces it, whose reason is reworded. res is check's evaluation
// computed with check.Options; the rewards compared are those of
// TrainerOptions(check.Options), computed again when res's options are
// others. check.Notes itself is not changed.
func CutGroupNotes(check TrainerCheck, res *engine.Result, c *CutGroup) []Note {
	if c == nil {
		return check.Notes
	}
	check.leaveOutCutGroup(c)
	warning, wrap := check.LoggedNote, func(w string) string { return w }
	if check.unreproduced != "" {
		warning, wrap = check.unreproduced, unreproducedText
	}
	note := wrap(warning)
	i := slices.Index(check.Notes, Note{Text: note, Warning: true})
	if i < 0 || res.Evaluation.Logged == nil {
		return check.Notes
	}
	trainer := func() *engine.Result {
		if opts := TrainerOptions(check.Options); !res.Options.Equal(opts) {
			return res.Evaluation.Compute(opts)
		}
		return res
	}
	reworded := wrap(c.LoggedNote(warning, trainer))
	if reworded == note {
		return check.Notes
	}
	notes := slices.Clone(check.Notes)
	notes[i].Text = reworded
	return notes
}

// LoggedNote returns warning, the warning that the rewards differ from
// the logged advantage (TrainerCheck.LoggedNote, Match.Warning),
// reworded for c as CutGroupNotes rewords it (reworded).
func (c *CutGroup) LoggedNote(warning string, trainer func() *engine.Result) string {
	if c == nil || !c.Compared || warning == "" {
		return warning
	}
	res := trainer()
	if res.Evaluation.Logged == nil {
		return warning
	}
	return c.reworded(warning, res, nil)
}
