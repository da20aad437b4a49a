package cmd

import "github.com/rewardlens/rewardlens/internal/duplicates"

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
		warning <- "rewardlens: warning: " + duplicates.Warning(n, first) + "; each is computed and written, in input order"
	}()
	return warning
}
