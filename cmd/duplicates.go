package cmd

import (
	"fmt"

	"github.com/rewardlens/rewardlens/internal/duplicates"
	"github.com/rewardlens/rewardlens/internal/english"
)

// duplicateWarning returns a channel that delivers the warning about
// trajectories that repeat an earlier one's ID, or "" when none does,
// worked out on a goroutine of its own: ranking need not wait for it. The
// repeats are computed and written like the others, but whoever joins
// compute's records back to the rollouts by ID would mix them up, so it is
// said. ids must not change until the warning is delivered.
func duplicateWarning(ids *idList) <-chan string {
	warning := make(chan string, 1)
	go func() {
		n, first := duplicates.Count(ids.len(), ids.at)
		if n == 0 {
			warning <- ""
			return
		}
		verb := "repeats"
		if n > 1 {
			verb = "repeat"
		}
		warning <- fmt.Sprintf("rewardlens: warning: %d %s %s an earlier one's ID (%s); each is computed and written, in input order",
			n, english.Plural(n, "trajectory"), verb, duplicates.Named(first))
	}()
	return warning
}
