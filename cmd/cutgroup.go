package cmd

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
)

// cutGroupNotes returns check's notes with, when --max-rows stopped the
// reading (capped) and cut a group, that group left out of the groups of
// unequal size (agreement.TrainerCheck.LeaveOutCutGroup) and the warning
// that the rewards differ from the logged advantage
// (agreement.Match.Warning) as agreement.CutGroupWarning rewords it for
// res: the dashboard's status line says the same (session's openedSession
// and cutGroupNote).
func cutGroupNotes(check agreement.TrainerCheck, res *engine.Result, capped bool) []string {
	check.LeaveOutCutGroup(res, capped)
	if check.Logged == nil || res.Evaluation.Logged == nil {
		return check.Notes
	}
	warning := check.Logged.Warning()
	note := slices.Index(check.Notes, "warning: "+warning)
	if note < 0 {
		return check.Notes
	}
	reworded := agreement.CutGroupWarning(warning, res, capped)
	if reworded == warning {
		return check.Notes
	}
	notes := slices.Clone(check.Notes)
	notes[note] = "warning: " + reworded
	return notes
}
