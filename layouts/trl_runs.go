package layouts

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/internal/english"
)

// TRL groups a generation batch by position, num_generations rows after
// another (rewards.view(-1, num_generations) in
// _generate_and_score_completions), whatever the prompts' text: a prompt
// drawn in two slots of the batch is two groups, and so is one drawn
// twice in a row (a dataset of one prompt, a row sampled again next to
// itself), whose 2·num_generations rows follow each other. The TRL layout
// groups so (setup.Config.GroupRuns): a group is a run of consecutive rows
// of one prompt, cut every num_generations rows.

// trlRuns is how the TRL layout groups a table's rows: its runs of one
// prompt cut every size rows.
type trlRuns struct {
	// size is num_generations, 0 when the table has no rows.
	size int
	// fromLog says that every run of the table has a multiple of runLength
	// rows, which alone cannot tell num_generations, and size is the
	// divisor of runLength under which the logged advantage is reproduced
	// (as trlTable.rewardCount finds it), runLength reproducing it not.
	fromLog   bool
	runLength int
	// repeated counts the prompts of more than one group.
	repeated int
}

// trlCutRuns returns the table runs, whose groups are its runs of one
// prompt (trlTableBuilder), grouped as TRL grouped it, how, and with lead
// reward columns (0 for none) the reward count of the table so grouped
// (trlTable.rewardCount; meaningless with size 1, where each row is a
// group: log_unique_prompts=True).
//
// num_generations is the usual size of the runs (runSize);
// where it is 1, the table is not in TRL's order and is grouped by prompt
// text (trlRuns' size 0).
// When every run has a multiple of it, and the runs of that size do not
// reproduce the logged advantage, the largest divisor of it that does
// is taken: a table of one prompt (a run of 2·num_generations rows)
// or of prompts each drawn twice in a row.
func trlCutRuns(runs *trlTable, lead int) (*trlTable, trlRuns, trlRewardCount) {
	size := runs.runSize()
	count := trlRewardCount{k: lead}
	if size <= 1 {
		// No run of one prompt: rows in another order than TRL's (a
		// prompt's rows apart), or one row per prompt
		// (log_unique_prompts=True): grouped by prompt text.
		return runs.byPrompt(), trlRuns{}, count
	}
	table := runs.cutRuns(size)
	how := trlRuns{size: size}
	if lead > 0 {
		count = table.rewardCount(lead)
		if count.unknown && !slices.ContainsFunc(runs.groups, func(g []int) bool { return len(g)%size != 0 }) {
			for d := size / 2; d >= 2; d-- {
				if size%d != 0 {
					continue
				}
				cut := runs.cutRuns(d)
				if c := cut.rewardCount(lead); !c.unknown {
					table, count, how = cut, c, trlRuns{size: d, fromLog: true, runLength: size}
					break
				}
			}
		}
	}
	how.repeated = table.repeatedPrompts()
	return table, how, count
}

// runSize is the commonest size, the larger on a tie
// (agreement.UsualGroupSize), of t's groups that start in the first half
// of its rows (evaluation rows come last, and the first group may be cut
// by the deque), 0 without rows. The
// larger: a group cut short is rarer than a whole one, and cutting every
// run of the larger size would split whole groups.
func (t *trlTable) runSize() int {
	// The groups are in the order of their first rows (trlTableBuilder):
	// those starting in the first half are a prefix.
	n := 0
	for n < len(t.groups) && 2*t.groups[n][0] < len(t.advantage) {
		n++
	}
	return agreement.UsualGroupSize(n, func(j int) int { return len(t.groups[j]) })
}

// cutRuns returns t, its groups the runs of one prompt as read
// (trlTableBuilder), with each run cut into groups of size rows: a step's
// first run, when another run of the step follows it, from its end, its
// first group the rest (engine's Evaluator.cutFirstRuns cuts so), every
// other from its start, its last group the rest.
//
// Such a first run is cut from its end because the table may have lost
// its first rows: _generate_and_score_completions extends deques of
// maxlen generation_batch_size (GRPOTrainer.__init__), which log() writes,
// and evaluation logged at the step extends them past the training rows,
// which drops as many of those from the front. TRL's groups tile a
// generation from its start, so they end where each run of one prompt
// ends; only the first group can be cut, and only from its start. A
// first run that ends its step's rows is cut from its start: it may have
// lost its last rows instead (the rows read so far of a table still
// written).
func (t *trlTable) cutRuns(size int) *trlTable {
	out := &trlTable{columns: t.columns, advantage: t.advantage, prompts: t.prompts, groupOf: make([]int, len(t.groupOf))}
	for j, run := range t.groups {
		n := size
		if t.opensStep[j] && j+1 < len(t.groups) && !t.opensStep[j+1] && len(run)%size != 0 {
			n = len(run) % size
		}
		for len(run) > 0 {
			n = min(n, len(run))
			for _, i := range run[:n] {
				out.groupOf[i] = len(out.groups)
			}
			out.groups = append(out.groups, run[:n:n])
			run, n = run[n:], size
		}
	}
	return out
}

// byPrompt returns t grouped by prompt text, each group in order of its
// first row.
func (t *trlTable) byPrompt() *trlTable {
	out := &trlTable{columns: t.columns, advantage: t.advantage, prompts: t.prompts, groupOf: make([]int, len(t.prompts))}
	index := map[string]int{}
	for i, p := range t.prompts {
		g, ok := index[p]
		if !ok {
			g = len(out.groups)
			index[p] = g
			out.groups = append(out.groups, nil)
		}
		out.groups[g] = append(out.groups[g], i)
		out.groupOf[i] = g
	}
	return out
}

// repeatedPrompts counts the prompts of more than one of t's groups.
func (t *trlTable) repeatedPrompts() int {
	groups := map[string]int{}
	for _, g := range t.groups {
		groups[t.prompts[g[0]]]++
	}
	n := 0
	for _, k := range groups {
		if k > 1 {
			n++
		}
	}
	return n
}

// note is what the "read as" line says of how the rows of the table
// source were grouped, "" when each prompt is one group of the usual
// size.
func (r trlRuns) note(source string) string {
	switch {
	case r.fromLog:
		return fmt.Sprintf("num_generations = %d: every run of one prompt in %s has a multiple of %d rows, and the logged advantage is reproduced with groups of %d consecutive rows, not of %d", r.size, source, r.runLength, r.size, r.runLength)
	case r.repeated > 0:
		return fmt.Sprintf("%d %s in more than one group of %s, each normalised apart as TRL groups them (by position: %d consecutive rows of one prompt, num_generations)", r.repeated, english.Plural(r.repeated, "prompt"), source, r.size)
	}
	return ""
}
