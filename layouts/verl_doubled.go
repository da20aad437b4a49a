package layouts

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// verlDoubledGroups warns, for a legacy verl dump (group = input: the dump
// has no uid), of each step among the batches of index batches whose
// groups all have k times rollout.n rows (k >= 2): probably each prompt
// drawn k times in the batch, which verl normalised as k groups (one uid
// each: ray_trainer.py gives every prompt of the batch its own uid before
// repeating it rollout.n times), merged here by their text.
//
// _dump_generations writes input, output, gts, score, step and the reward
// function's extra keys, in the order of the batch after _balance_batch
// reorders it (trainer.balance_batch, on by default): neither uid nor
// rollout.n nor the rows' order tells the groups apart. rollout.n is told
// only by the other steps: the commonest size (none on a tie) of the
// steps of res whose groups are all of one size. A step whose groups are of unequal size has the trainer
// agreement's warning (setup.Config.EqualGroups).
func verlDoubledGroups(cfg setup.Config, res *engine.Result, batches []int) []string {
	if cfg.GroupBy != verlPrompt {
		return nil
	}
	sizes, n := stepSizes(res, func(b *engine.Batch) []diagnose.GroupSummary { return diagnose.GroupSummaries(res, b) })
	if n == 0 {
		return nil
	}
	var out []string
	for _, bi := range batches {
		b := &res.Ranking.Batches[bi]
		size, ok := sizes[b.Step]
		if !ok || size == n || size%n != 0 {
			continue
		}
		out = append(out, fmt.Sprintf("step %d: every prompt group has %d rows where the other steps' have %d (rollout.n): probably each prompt drawn %d times in the batch, which verl normalised as %d groups of %d (a uid each, which the legacy dump does not write) and rewardlens as one by its input text; the rewards may differ from verl's",
			b.Step, size, n, size/n, size/n, n))
	}
	return out
}
