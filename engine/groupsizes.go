package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// UnequalGroups describes a batch whose prompt groups are not all of one
// size, which a trainer's are (num_generations completions per prompt):
// two prompts of the same text merged, evaluation rows among the training
// ones, or a partial batch.
type UnequalGroups struct {
	Step int64
	// Groups counts the batch's groups; Size is the most common size (the
	// largest of the most common), which Usual groups have.
	Groups, Size, Usual int
	// Odd are the groups of another size, in order of first appearance.
	Odd []GroupSize
}

// GroupSize is a group's value and its number of trajectories.
type GroupSize struct {
	Key  string
	Size int
}

// UnequalGroups returns the batches whose groups (scope group; valid and
// invalid trajectories alike) are not all of one size, in ascending step
// order.
func (ev *Evaluation) UnequalGroups() []UnequalGroups {
	var out []UnequalGroups
	for _, b := range ev.partition(ScopeGroup) {
		count := map[int]int{}
		for _, g := range b.Groups {
			count[len(g.Members)]++
		}
		if len(count) < 2 {
			continue
		}
		u := UnequalGroups{Step: b.Step, Groups: len(b.Groups)}
		for size, n := range count {
			if n > u.Usual || (n == u.Usual && size > u.Size) {
				u.Size, u.Usual = size, n
			}
		}
		for _, g := range b.Groups {
			if len(g.Members) != u.Size {
				u.Odd = append(u.Odd, GroupSize{g.Key, len(g.Members)})
			}
		}
		out = append(out, u)
	}
	return out
}

// maxOddGroupsNamed is how many groups of another size String names.
const maxOddGroupsNamed = 3

// String says it in a line, naming the first groups of another size by
// their value, quoted and shortened: `step 3: groups of unequal size: 6 of
// 8 groups have 8 trajectories, "What is 2+2?" 16, "Name a prime" 4 (a
// trainer's are all of one size: two prompts of the same text merged,
// evaluation rows or a partial batch?)`.
func (u UnequalGroups) String() string {
	named := make([]string, 0, maxOddGroupsNamed+1)
	for _, g := range u.Odd[:min(len(u.Odd), maxOddGroupsNamed)] {
		named = append(named, fmt.Sprintf("%s %d", quoteShort(g.Key), g.Size))
	}
	if n := len(u.Odd) - maxOddGroupsNamed; n > 0 {
		named = append(named, fmt.Sprintf("and %d more", n))
	}
	return fmt.Sprintf("step %d: groups of unequal size: %d of %d groups have %d trajectories, %s (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)",
		u.Step, u.Usual, u.Groups, u.Size, strings.Join(named, ", "))
}

// Shortened group values keep their first quoteHead and last quoteTail
// runes: a trainer's prompts often share a long chat template's opening,
// and differ at the end.
const quoteHead, quoteTail = 16, 32

// quoteShort quotes s as Go does (every control character escaped),
// shortened to its head and tail around "…".
func quoteShort(s string) string {
	runes := []rune(s)
	if len(runes) <= quoteHead+quoteTail+1 {
		return strconv.Quote(s)
	}
	head := strconv.Quote(string(runes[:quoteHead]))
	tail := strconv.Quote(string(runes[len(runes)-quoteTail:]))
	return head[:len(head)-1] + "…" + tail[1:]
}
