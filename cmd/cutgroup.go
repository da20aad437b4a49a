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
// when --max-rows stopped the reading (capped), under scope group, the
// group of the last trajectory read has fewer members than another group
// of its batch (--max-rows cut it), and every row of res that differs is
// in that group, by one that says so: that group's rewards are computed without its members not read,
// which no trainer setting reproduces, so the warning's settings tried
// and "not computed from these objectives" would blame the wrong thing.
// When other rows differ too, the warning is kept and says that group
// differs whatever the settings. The notes are unchanged when the group
// has no row that differs.
func cutGroupNotes(check agreement.TrainerCheck, res *engine.Result, capped bool) []string {
	ev := res.Evaluation
	if !capped || check.Logged == nil || ev.Logged == nil || len(res.Rewards) == 0 {
		return check.Notes
	}
	note := slices.Index(check.Notes, "warning: "+check.Logged.Warning())
	if note < 0 {
		return check.Notes
	}
	if res.Options.Scope != engine.ScopeGroup {
		return check.Notes // a group is not a trainer's group: none is told cut
	}
	last := len(res.Rewards) - 1
	var step int64
	var cut *engine.Group
	full := 0 // the most members of the cut group's batch's other groups
	for b := range res.Ranking.Batches {
		groups := res.Ranking.Batches[b].Groups
		k := slices.IndexFunc(groups, func(g engine.Group) bool { return slices.Contains(g.Members, last) })
		if k < 0 {
			continue
		}
		step, cut = res.Ranking.Batches[b].Step, &groups[k]
		for j, g := range groups {
			if j != k {
				full = max(full, len(g.Members))
			}
		}
	}
	if cut == nil || len(cut.Members) >= full {
		return check.Notes // as large as the others: --max-rows cut no row of it
	}
	rows, differing, inCut := 0, 0, 0
	for i, logged := range ev.Logged {
		if math.IsNaN(logged) || math.IsInf(logged, 0) || !ev.Valid[i] {
			continue
		}
		rows++
		if math.Abs(res.Rewards[i]-logged) > agreement.Tolerance {
			differing++
			if slices.Contains(cut.Members, i) {
				inCut++
			}
		}
	}
	if inCut == 0 {
		return check.Notes
	}
	notes := slices.Clone(check.Notes)
	if inCut < differing {
		notes[note] += fmt.Sprintf("; the group --max-rows cut (step %d, group %q, %d of its rows read) differs whatever the settings: compare without --max-rows", step, cut.Key, len(cut.Members))
		return notes
	}
	notes[note] = fmt.Sprintf("warning: %d of %d rows differ from the logged advantage by more than %g, all in the group --max-rows cut (step %d, group %q, %d of its rows read): its rewards are computed without the rows not read; the other rows agree",
		differing, rows, agreement.Tolerance, step, cut.Key, len(cut.Members))
	return notes
}
