package layouts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// trlGroupWarnings returns a warning for each step of res, among the
// batches of index batches, whose prompt groups TRL did not normalise as
// rewardlens groups them, naming the odd groups and what they probably
// are. TRL groups a generation batch by position, num_generations rows
// after another (rewards.view(-1, num_generations) in
// _generate_and_score_completions), so every prompt of a training step has
// that many rows; the layout groups so too, cutting the runs of one prompt
// at the first table's num_generations (trlCutRuns).
//
// In a step whose groups are of unequal size, a group of k times the
// usual size is a prompt k times in the batch (a duplicated dataset row)
// that the layout did not cut (grouped by prompt text: --group-by, rows
// out of TRL's order; another file's num_generations), which TRL
// normalised as k groups. Other sizes are evaluation rows: TRL's
// _logs deques (maxlen generation_batch_size) take training and evaluation
// rows alike, and log() in eval mode writes completions_{step:05d}.parquet
// again at the training step, with the last training rows (the first of
// its groups cut short) and the evaluation rows, whose groups have
// num_generations_eval rows and were normalised apart from training's.
// The usual size, num_generations, is the commonest size (the smaller on
// a tie) of the steps of res whose groups are all of one size; when no
// step is, the commonest among the groups that start in the first half of
// the step's rows: TRL writes training rows first, evaluation rows last.
//
// When evaluation rows fill the whole file, its groups are all of one
// size, another than the commonest size of the steps of res whose groups
// are all of one size (none on a tie). Groups of one row each are a table
// TRL logged with log_unique_prompts=True (GRPOTrainer.log drops the
// repeated prompts before its wandb.Table): nothing to compare within.
//
// The group --max-rows cut (agreement.CutGroupOf of rowCap) is left out:
// the cap made it short, not TRL; a warning of its step says so. So is
// the last group read of a step after which a file's unfinished last
// line was left out (linesLeftOut: its run is probably still writing the
// step), said as that when it is short (stillWrittenGroup).
func trlGroupWarnings(_ setup.Config, res *engine.Result, rowCap scoring.RowCap, linesLeftOut map[int64]string, batches []int) []string {
	cut := agreement.CutGroupOf(res, rowCap)
	groupsOf := func(b *engine.Batch) []diagnose.GroupSummary {
		groups := diagnose.GroupSummaries(res, b)
		if _, writing := linesLeftOut[b.Step]; writing {
			last := slices.Max(b.Members) // the last row read of the step
			groups = slices.DeleteFunc(slices.Clone(groups), func(g diagnose.GroupSummary) bool { return g.Members[len(g.Members)-1] == last })
		}
		if cut == nil || cut.Step != b.Step {
			return groups
		}
		last := cut.Group.Members[len(cut.Group.Members)-1]
		return slices.DeleteFunc(slices.Clone(groups), func(g diagnose.GroupSummary) bool { return g.Members[len(g.Members)-1] == last })
	}
	sizes, runSize := stepSizes(res, groupsOf)
	var out []string
	for _, bi := range batches {
		b := &res.Ranking.Batches[bi]
		groups := groupsOf(b)
		written := stillWrittenGroup(res, b, linesLeftOut, sizes, runSize)
		if len(groups) == 0 && written == "" {
			continue
		}
		var warning string
		if n, ok := sizes[b.Step]; ok {
			switch {
			case n == 1:
				warning = fmt.Sprintf("step %d: every prompt group has 1 row where TRL writes num_generations rows per prompt: probably a table logged with log_unique_prompts=True (one row kept per prompt), whose groups and advantages cannot be rebuilt: each row is a group of its own",
					b.Step)
			case runSize > 0 && n != runSize:
				warning = fmt.Sprintf("step %d: every prompt group has %d rows where the other steps' have %d (num_generations): probably evaluation rows that TRL's log() wrote over the step's training table (num_generations_eval), whose logged advantage is evaluation's",
					b.Step, n, runSize)
			}
		} else if len(groups) > 0 {
			warning = unequalGroups(b, groups, runSize)
		}
		switch {
		case written != "" && warning == "":
			warning = fmt.Sprintf("step %d: %s", b.Step, written)
		case written != "":
			warning += "; " + written
		case warning == "":
			continue
		}
		if cut != nil && cut.Step == b.Step {
			warning += "; " + cut.Name() + " left out"
		}
		out = append(out, warning)
	}
	return out
}

// stillWrittenGroup says, of batch b of res, when a file's unfinished
// last line was left out after its last row read (linesLeftOut) and the
// group of that row is short of the step's size (sizes, without it; else
// runSize, num_generations), that the group is cut short by that line,
// its run probably still writing the step: `its last group read, "…"
// (1 of 4 rows), is short of the row the reading left out after it (PATH's
// unfinished last line): its run is probably still writing the step, not
// a group TRL logged so`; "" otherwise.
func stillWrittenGroup(res *engine.Result, b *engine.Batch, linesLeftOut map[int64]string, sizes map[int64]int, runSize int) string {
	line, writing := linesLeftOut[b.Step]
	if !writing {
		return ""
	}
	groups := diagnose.GroupSummaries(res, b)
	last := slices.Max(b.Members)
	k := slices.IndexFunc(groups, func(g diagnose.GroupSummary) bool { return g.Members[len(g.Members)-1] == last })
	size, ok := sizes[b.Step]
	if !ok {
		size = runSize
	}
	if k < 0 || size == 0 || groups[k].N >= size {
		return ""
	}
	opening := agreement.SharedOpeningOf(len(groups), func(i int) string { return groups[i].Key })
	return fmt.Sprintf("its last group read, %s (%d of %d rows), is short of the row the reading left out after it (%s): its run is probably still writing the step, not a group TRL logged so",
		textsafe.QuoteFrom(groups[k].Key, opening), groups[k].N, size, line)
}

// stepSizes returns the size of the groups (groupsOf) of each step of res
// whose groups are all of one size, and the commonest of those sizes
// over the steps (commonest: 0 on a tie).
func stepSizes(res *engine.Result, groupsOf func(*engine.Batch) []diagnose.GroupSummary) (sizes map[int64]int, usual int) {
	sizes = map[int64]int{}
	count := map[int]int{} // how many steps have each size
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		if n := uniformGroupSize(groupsOf(b)); n > 0 {
			sizes[b.Step] = n
			count[n]++
		}
	}
	return sizes, commonest(count)
}

// uniformGroupSize returns the size of every group of groups, 0 when they
// are not all of one size or there are none.
func uniformGroupSize(groups []diagnose.GroupSummary) int {
	if len(groups) == 0 || slices.ContainsFunc(groups, func(g diagnose.GroupSummary) bool { return g.N != groups[0].N }) {
		return 0
	}
	return groups[0].N
}

// commonest returns the key of count with the largest count, 0 when two
// share it or count is empty.
func commonest(count map[int]int) int {
	best, tie := 0, false
	for size, n := range count {
		switch {
		case n > count[best]:
			best, tie = size, false
		case n == count[best]:
			tie = true
		}
	}
	if tie {
		return 0
	}
	return best
}

// unequalGroups is the warning for step b, whose groups are of unequal
// size. num_generations is runSize, the commonest size of the steps whose
// groups are all of one size (training steps: evaluation rows share a
// step's file only with the training rows of the deque), else, when no
// step tells it (0), the step's usual size (usualGroupSize). TRL marks no
// row as evaluation's (log() writes the same columns in either mode), so
// the warning names them as a possible cause only.
func unequalGroups(b *engine.Batch, groups []diagnose.GroupSummary, runSize int) string {
	usual := runSize
	if usual == 0 {
		usual = usualGroupSize(groups, b.Members[len(b.Members)/2])
	}
	opening := agreement.SharedOpeningOf(len(groups), func(i int) string { return groups[i].Key })
	var repeated, other []string
	for _, g := range groups {
		switch {
		case g.N == usual:
		case g.N%usual == 0:
			repeated = append(repeated, fmt.Sprintf("%s (%d rows: %d groups to TRL)", textsafe.QuoteFrom(g.Key, opening), g.N, g.N/usual))
		default:
			other = append(other, fmt.Sprintf("%s (%d)", textsafe.QuoteFrom(g.Key, opening), g.N))
		}
	}
	var parts []string
	if len(repeated) > 0 {
		parts = append(parts, fmt.Sprintf("a prompt repeated in the batch, which TRL normalised as separate groups of %d and rewardlens as one: %s; their rewards may differ from the logged advantage", usual, listSome(repeated)))
	}
	if len(other) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s of another size, probably evaluation rows logged in the same table (TRL marks none as such: its log() wrote them to this step's file with the last training rows, num_generations_eval rows per prompt, and a training group the deque cut short), each part normalised apart: %s; a whole group normalised alone (scale group) has TRL's advantage, a group cut short or one normalised with the step's other rows (scale batch) may not",
			len(other), english.Plural(len(other), "group"), listSome(other)))
	}
	return fmt.Sprintf("step %d: prompt groups of unequal size where TRL writes num_generations (here %d) rows per prompt: %s",
		b.Step, usual, strings.Join(parts, "; "))
}

// usualGroupSize returns the commonest size, the smaller on a tie, of the
// groups whose first member comes before row half.
func usualGroupSize(groups []diagnose.GroupSummary, half int) int {
	count := map[int]int{}
	for _, g := range groups {
		if g.Members[0] < half {
			count[g.N]++
		}
	}
	usual := groups[0].N
	for size, n := range count {
		if n > count[usual] || n == count[usual] && size < usual {
			usual = size
		}
	}
	return usual
}

// maxGroupsNamed is how many odd groups a warning names.
const maxGroupsNamed = 4

// listSome joins the first maxGroupsNamed of names and says how many
// more there are.
func listSome(names []string) string {
	s := strings.Join(names[:min(len(names), maxGroupsNamed)], ", ")
	if n := len(names) - maxGroupsNamed; n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}
