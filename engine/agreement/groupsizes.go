package agreement

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// UnequalGroups describes a batch whose prompt groups are not all of one
// size, which a trainer's are (num_generations completions per prompt):
// two prompts of the same text merged, evaluation rows among the training
// ones, or a partial batch.
type UnequalGroups struct {
	Step int64
	// Groups counts the batch's groups; Size is the most common size,
	// which Usual groups have, 0 when two sizes are as common (4 and 8: a
	// merged group, or 4 and 2: a partial one? nothing tells which).
	Groups, Size, Usual int
	// Odd are the groups of another size than Size (every group when no
	// size is the commonest), in order of first appearance.
	Odd []GroupSize
	// shared counts the runes that open every group value of the batch,
	// to the start of the line where they part (String leaves them out).
	shared int
	// leftOut names the group a cap on the rows read cut, left out of
	// Groups and Odd (TrainerCheck.leaveOutCutGroup); "" for none.
	leftOut string
	// groups are the batch's groups described, which leaveOutCutGroup
	// describes again without the cut one.
	groups []engine.Group
}

// GroupSize is a group's value and its number of trajectories.
type GroupSize struct {
	Key  string
	Size int
}

// unequalGroupsOf returns the batches of ev whose groups (scope group; valid and
// invalid trajectories alike) are not all of one size, in ascending step
// order.
func unequalGroupsOf(ev *engine.Evaluation) []UnequalGroups {
	var out []UnequalGroups
	for _, b := range ev.Partition(engine.ScopeGroup) {
		if u, ok := UnequalGroupsOfBatch(b.Step, b.Groups); ok {
			out = append(out, u)
		}
	}
	return out
}

// UnequalGroupsOfBatch describes the batch at step whose groups (scope
// group, valid and invalid trajectories alike) are groups, in order of
// first appearance; ok is false when they are all of one size. A follower
// checks its batches one by one with it, as they come.
func UnequalGroupsOfBatch(step int64, groups []engine.Group) (_ UnequalGroups, ok bool) {
	count := map[int]int{}
	for _, g := range groups {
		count[len(g.Members)]++
	}
	if len(count) < 2 {
		return UnequalGroups{}, false
	}
	u := UnequalGroups{Step: step, Groups: len(groups), shared: SharedOpening(groups), groups: groups}
	tied := false
	for size, n := range count {
		switch {
		case n > u.Usual:
			u.Size, u.Usual, tied = size, n, false
		case n == u.Usual:
			tied = true
		}
	}
	if tied {
		u.Size, u.Usual = 0, 0
	}
	for _, g := range groups {
		if len(g.Members) != u.Size {
			u.Odd = append(u.Odd, GroupSize{g.Key, len(g.Members)})
		}
	}
	return u, true
}

// maxOddGroupsNamed is how many groups of another size String names.
const maxOddGroupsNamed = 3

// String says it in a line, naming the first groups of another size by
// their value, quoted and shortened to where the values differ: `step 3: groups of unequal size: 6 of
// 8 groups have 8 trajectories, "What is 2+2?" 16, "Name a prime" 4 (a
// trainer's are all of one size: two prompts of the same text merged,
// evaluation rows or a partial batch?)`.
func (u UnequalGroups) String() string {
	named := make([]string, 0, maxOddGroupsNamed+1)
	for _, g := range u.Odd[:min(len(u.Odd), maxOddGroupsNamed)] {
		named = append(named, fmt.Sprintf("%s %d", textsafe.QuoteFrom(g.Key, u.shared), g.Size))
	}
	if n := len(u.Odd) - maxOddGroupsNamed; n > 0 {
		named = append(named, fmt.Sprintf("and %d more", n))
	}
	why := "(a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)"
	if u.leftOut != "" {
		why += "; " + u.leftOut + " left out"
	}
	if u.Size == 0 {
		return fmt.Sprintf("step %d: groups of unequal size, %s: %s %s", u.Step, u.sizes(), strings.Join(named, ", "), why)
	}
	return fmt.Sprintf("step %d: groups of unequal size: %d of %d %s %s %d %s, %s %s",
		u.Step, u.Usual, u.Groups, english.Plural(u.Groups, "group"), english.Verb(u.Usual, "has", "have"), u.Size, english.Plural(u.Size, "trajectory"), strings.Join(named, ", "), why)
}

// sizes says the sizes of the groups of a batch where no size is the
// most common (Size 0: every group is in Odd), the commonest first, then
// the largest: "2 sizes: 8 trajectories (1 group), 4 (1 group)".
func (u UnequalGroups) sizes() string {
	count := map[int]int{}
	for _, g := range u.Odd {
		count[g.Size]++
	}
	sizes := slices.Collect(maps.Keys(count))
	slices.SortFunc(sizes, func(a, b int) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(b, a)) })
	parts := make([]string, len(sizes))
	for i, size := range sizes {
		parts[i] = fmt.Sprintf("%d (%d %s)", size, count[size], english.Plural(count[size], "group"))
		if i == 0 {
			parts[i] = fmt.Sprintf("%d %s (%d %s)", size, english.Plural(size, "trajectory"), count[size], english.Plural(count[size], "group"))
		}
	}
	return fmt.Sprintf("%d sizes: %s", len(sizes), strings.Join(parts, ", "))
}

// SharedOpening returns the number of runes that open every key of groups,
// cut back to the start of the line where the keys part: a trainer's
// prompts often share a long chat template's opening. It is 0 for fewer
// than two groups, whose one key would otherwise be all opening.
func SharedOpening(groups []engine.Group) int {
	return SharedOpeningOf(len(groups), func(i int) string { return groups[i].Key })
}

// SharedOpeningOf is SharedOpening of the n keys key(0) .. key(n-1).
func SharedOpeningOf(n int, key func(i int) string) int {
	if n < 2 {
		return 0
	}
	first := []rune(key(0))
	shared := len(first)
	for g := 1; g < n; g++ {
		i := 0
		for _, r := range key(g) {
			if i == shared || r != first[i] {
				break
			}
			i++
		}
		shared = i
	}
	for shared > 0 && first[shared-1] != '\n' {
		shared--
	}
	return shared
}

// maxDifferingGroupsNamed is how many groups oddGroupsDiffering names.
const maxDifferingGroupsNamed = 3

// oddGroupsDiffering names the groups (scope group) of another size than
// the commonest of their step (UnequalGroupsOfBatch's Odd) when they hold
// every row of res that differs from its logged advantage beyond
// Tolerance, and some does: `the group of another size than its step's
// others (step 1, "What is 2+2?", 8 rows)`; "" otherwise. A trainer's
// groups are all of one size: such rows are grouped otherwise by it (a
// prompt repeated in its batch, evaluation rows), which explains them
// better than any setting of the objectives. ties are res's rows of
// float32 ties (allTieResidues).
func oddGroupsDiffering(res *engine.Result, ties *rowSet) (names string, steps []int64) {
	ev := res.Evaluation
	res.Finish()
	odd := make([]bool, len(ev.Valid))
	var named []string
	eachOddGroup(ev, func(step int64, g *engine.Group, name string) {
		differs := false
		for _, i := range g.Members {
			odd[i] = true
			differs = differs || loggedDiffers(res, ties, i)
		}
		if differs {
			named = append(named, name)
			steps = append(steps, step)
		}
	})
	if len(named) == 0 {
		return "", nil
	}
	for i := range ev.Logged {
		if !odd[i] && loggedDiffers(res, ties, i) {
			return "", nil
		}
	}
	return oddGroupsText(named), steps
}

// eachOddGroup calls f on each group of ev (scope group) of another size
// than the commonest of its step (UnequalGroupsOfBatch's Odd), of step,
// with its name: `step 1, "What is 2+2?", 8 rows`.
func eachOddGroup(ev *engine.Evaluation, f func(step int64, g *engine.Group, name string)) {
	for _, b := range ev.Partition(engine.ScopeGroup) {
		u, ok := UnequalGroupsOfBatch(b.Step, b.Groups)
		if !ok || u.Size == 0 {
			continue
		}
		for k := range b.Groups {
			if g := &b.Groups[k]; len(g.Members) != u.Size {
				f(b.Step, g, fmt.Sprintf("step %d, %s, %d rows", b.Step, textsafe.QuoteFrom(g.Key, u.shared), len(g.Members)))
			}
		}
	}
}

// oddGroupsText names the groups of another size than their step's
// others, named (eachOddGroup's names, at least one), up to
// maxDifferingGroupsNamed of them.
func oddGroupsText(named []string) string {
	text := "the group of another size than its step's others"
	if len(named) > 1 {
		text = "the groups of another size than their steps' others"
	}
	if n := len(named) - maxDifferingGroupsNamed; n > 0 {
		named = append(named[:maxDifferingGroupsNamed:maxDifferingGroupsNamed], fmt.Sprintf("and %d more", n))
	}
	return text + " (" + strings.Join(named, "; ") + ")"
}

// loggedDiffers reports whether row i of res is compared with its logged
// advantage (comparedRow) and its reward differs from it beyond
// Tolerance, ties being the rows of float32 ties (allTieResidues).
func loggedDiffers(res *engine.Result, ties *rowSet, i int) bool {
	return comparedRow(res.Evaluation, i) && math.Abs(comparedReward(res, ties, i)-res.Evaluation.Logged[i]) > Tolerance
}

// regroupedRows marks the rows of ev that the trainer grouped otherwise:
// those of cut, the group a cap on the rows read cut (CutGroupOf; nil for
// none, and unless Compared), and of the groups (scope group) of another
// size than the commonest of their step (UnequalGroupsOfBatch's Odd: a
// prompt repeated in its batch, evaluation rows); and names those groups
// (cut's by its Name, the others as oddGroupsDiffering does). They are
// nil and "" when there are none.
func regroupedRows(ev *engine.Evaluation, cut *CutGroup) (rows []bool, names string, steps map[int64]bool) {
	mark := func(members []int) {
		if rows == nil {
			rows = make([]bool, len(ev.Valid))
		}
		for _, i := range members {
			rows[i] = true
		}
	}
	var named []string
	if cut != nil && cut.Compared {
		mark(cut.Group.Members)
	}
	eachOddGroup(ev, func(step int64, g *engine.Group, name string) {
		if steps == nil {
			steps = map[int64]bool{}
		}
		steps[step] = true
		if cut != nil && cut.Compared && step == cut.Step && g.Key == cut.Group.Key {
			return
		}
		mark(g.Members)
		named = append(named, name)
	})
	if rows == nil {
		return nil, "", steps
	}
	var parts []string
	if cut != nil && cut.Compared {
		parts = append(parts, cut.Name())
	}
	if len(named) > 0 {
		parts = append(parts, oddGroupsText(named))
	}
	return rows, strings.Join(parts, " and "), steps
}

// compareLoggedKept compares the rewards of res's valid rows that
// leftOut does not mark with their logged advantages, over every batch,
// ties being res's rows of float32 ties (allTieResidues).
func compareLoggedKept(res *engine.Result, ties *rowSet, leftOut []bool) Diff {
	c := newDiffCount()
	for i := range res.Evaluation.Logged {
		if !leftOut[i] && comparedRow(res.Evaluation, i) {
			c.addCompared(res, ties, i)
		}
	}
	return c.diff()
}
