package follow

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// Warnings returns what to warn of in the batches of index batches of a
// result while following: layout's warnings (a trainer layout's,
// layouts.Warnings; nil for none), then, with equalGroups (a layout whose
// groups are all of one size, setup.Config.EqualGroups), those of
// UnequalGroups. It is nil when there is nothing to ask.
func Warnings(layout func(res *engine.Result, batches []int) []string, equalGroups bool) func(res *engine.Result, batches []int) []string {
	if !equalGroups {
		return layout
	}
	return func(res *engine.Result, batches []int) []string {
		var out []string
		if layout != nil {
			out = layout(res, batches)
		}
		return append(out, UnequalGroups(res, batches)...)
	}
}

// UnequalGroups returns a warning for each batch of res, among those of
// index batches, whose groups (scope group, valid and invalid
// trajectories alike) are not all of one size, worded as
// agreement.CheckTrainer words it. CheckTrainer checks a whole reading
// once; a follower checks each batch as it comes and grows (a step read
// in part looks uneven until it is whole).
func UnequalGroups(res *engine.Result, batches []int) []string {
	var out []string
	for _, bi := range batches {
		b := &res.Ranking.Batches[bi]
		summaries := diagnose.GroupSummaries(res, b)
		groups := make([]engine.Group, len(summaries))
		for i, g := range summaries {
			groups[i] = engine.Group{Key: g.Key, Members: g.Members}
		}
		if u, ok := agreement.UnequalGroupsOfBatch(b.Step, groups); ok {
			out = append(out, u.String())
		}
	}
	return out
}
