package health

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// StepFindings returns the findings of batch b (an index in trends, as
// diagnose.Trends returns them): every check that fires on that batch, at the
// level it reaches there, against the same baseline as Findings. Findings
// keeps the first step of each check; a follower reports each batch as it
// comes.
func StepFindings(res *engine.Result, trends []diagnose.Trend, cfg Config, b int) []Finding {
	return newHealthRun(res, trends, cfg).batch(b)
}
