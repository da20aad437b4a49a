// Package pages lists the dashboard's tabs, in the order of the tab bar
// and of their keys (1 to 8): the root model builds them here and knows
// them only as common.Tab.
package pages

import (
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/pages/compare"
	"github.com/rewardlens/rewardlens/ui/pages/groups"
	"github.com/rewardlens/rewardlens/ui/pages/objectives"
	"github.com/rewardlens/rewardlens/ui/pages/pareto"
	"github.com/rewardlens/rewardlens/ui/pages/prompts"
	"github.com/rewardlens/rewardlens/ui/pages/rewards"
	"github.com/rewardlens/rewardlens/ui/pages/steps"
	"github.com/rewardlens/rewardlens/ui/pages/trajectories"
)

// New returns the tabs, built on c.
func New(c *common.Common) []common.Tab {
	return []common.Tab{
		rewards.New(c),
		groups.New(c),
		objectives.New(c),
		pareto.New(c),
		trajectories.New(c),
		steps.New(c),
		compare.New(c),
		prompts.New(c),
	}
}
