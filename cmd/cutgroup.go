package cmd

import (
	"fmt"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
)

// cutGroupNotes returns check's notes with its warning that the rewards
// differ from the logged advantage (agreement.Match.Warning) replaced,
// when --max-rows stopped the reading (capped) and cut a group
// (agreement.CutGroupOf), and every row of res that differs is in that
// group, by one that says so: that group's rewards are computed without its members not read,
// which no trainer setting reproduces, so the warning's settings tried
// and "not computed from these objectives" would blame the wrong thing.
// When other rows differ too, the warning is kept and says that group
// differs whatever the settings. The notes are unchanged when the group
// has no row that differs.
func cutGroupNotes(check agreement.TrainerCheck, res *engine.Result, capped bool) []string {
	ev := res.Evaluation
	if check.Logged == nil || ev.Logged == nil {
		return check.Notes
	}
	note := slices.Index(check.Notes, "warning: "+check.Logged.Warning())
	if note < 0 {
		return check.Notes
	}
	c, cut := agreement.CutGroupOf(res, capped)
	if !cut {
		return check.Notes
	}
	rows, differing, inCut := 0, 0, 0
	for i, logged := range ev.Logged {
		if math.IsNaN(logged) || math.IsInf(logged, 0) || !ev.Valid[i] {
			continue
		}
		rows++
		if math.Abs(res.Rewards[i]-logged) > agreement.Tolerance {
			differing++
			if slices.Contains(c.Group.Members, i) {
				inCut++
			}
		}
	}
	if inCut == 0 {
		return check.Notes
	}
	notes := slices.Clone(check.Notes)
	if inCut < differing {
		notes[note] += fmt.Sprintf("; the group --max-rows cut (step %d, group %q, %d of its rows read) differs whatever the settings: compare without --max-rows", c.Step, c.Group.Key, len(c.Group.Members))
		return notes
	}
	notes[note] = fmt.Sprintf("warning: %d of %d rows differ from the logged advantage by more than %g, all in the group --max-rows cut (step %d, group %q, %d of its rows read): its rewards are computed without the rows not read; the other rows agree",
		differing, rows, agreement.Tolerance, c.Step, c.Group.Key, len(c.Group.Members))
	return notes
}
