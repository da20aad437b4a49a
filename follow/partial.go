package follow

import (
	"fmt"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// Quiet is how long nothing must arrive for the newest step to be taken
// as complete: stats --follow then prints it, and the dashboard stops
// saying it is probably read in part.
const Quiet = 1500 * time.Millisecond

// Partial says why batch b of res, the newest (no later step has
// started), is probably still being written, "" when it is not: it has
// fewer trajectories than the batch before it, and either trajectories
// came to it while following (written: its file is being written) or
// most of its groups are short of the size that every group of the batch
// before it has (a step read in part, its rows in any order, leaves most
// groups short; a complete one may have a few, verl's groups of one). A
// complete step that is short, in a file written before following
// began, is not. The reason is that of a health finding of the step
// (health.Config.Provisional), as a file still being written gives
// (loaders.StillWritten): `fewer rows than step 2's 12, rows of it
// having come while following: its run is probably still writing it`.
func Partial(res *engine.Result, b int, written bool) string {
	batches := res.Ranking.Batches
	if b == 0 || len(batches[b].Members) >= len(batches[b-1].Members) {
		return ""
	}
	fewer := fmt.Sprintf("fewer rows than step %d's %d", batches[b-1].Step, len(batches[b-1].Members))
	const writing = ": its run is probably still writing it"
	if written {
		return fewer + ", rows of it having come while following" + writing
	}
	before := diagnose.GroupSummaries(res, &batches[b-1])
	size := before[0].N
	for _, g := range before {
		if g.N != size {
			return "" // no one size to fall short of
		}
	}
	short := 0
	groups := diagnose.GroupSummaries(res, &batches[b])
	for _, g := range groups {
		if g.N < size {
			short++
		}
	}
	if 2*short <= len(groups) {
		return ""
	}
	return fmt.Sprintf("%s, %d of its %d groups short of that step's %d", fewer, short, len(groups), size) + writing
}
