package agreement

import (
	"fmt"
	"strings"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// MixedGroup is a group (scope group) whose rows answer more than one
// prompt: a trainer's group is one prompt's completions, unless it
// grouped rows by their place in the batch after dropping some (open-
// instruct's mask_truncated_completions drops the truncated ones, then
// takes each num_samples_per_prompt rows that follow as a group).
type MixedGroup struct {
	Step int64
	Key  string
	// Rows counts the group's rows (valid and invalid alike), Prompts
	// the distinct prompts they answer.
	Rows, Prompts int
	// shared counts the runes that open every group value of the batch
	// (SharedOpening), which String leaves out.
	shared int
}

// MixedPrompts returns the groups of ev (scope group) whose rows answer
// more than one prompt, in ascending step order: promptOf holds each
// trajectory's prompt as an index (prompts.Keys.Of), as many as ev has
// trajectories.
func MixedPrompts(ev *engine.Evaluation, promptOf []int32) []MixedGroup {
	var out []MixedGroup
	for _, b := range ev.Partition(engine.ScopeGroup) {
		out = append(out, MixedPromptsIn(b, promptOf)...)
	}
	return out
}

// MixedPromptsIn returns the groups of batch b, partitioned by scope
// group, whose rows answer more than one prompt, as MixedPrompts does:
// for a caller that checks the batches that changed only.
func MixedPromptsIn(b engine.Batch, promptOf []int32) []MixedGroup {
	var out []MixedGroup
	seen := map[int32]bool{}
	shared := -1
	for _, g := range b.Groups {
		clear(seen)
		for _, i := range g.Members {
			seen[promptOf[i]] = true
		}
		if len(seen) < 2 {
			continue
		}
		if shared < 0 {
			shared = SharedOpening(b.Groups)
		}
		out = append(out, MixedGroup{Step: b.Step, Key: g.Key, Rows: len(g.Members), Prompts: len(seen), shared: shared})
	}
	return out
}

// MixedPromptsWarning is, in a trainer's layout (cfg.EqualGroups: a
// trainer's group is one prompt's completions), the warning of the groups
// of ev whose rows answer more than one prompt: MixedWarning of
// MixedPrompts(ev, promptOf); "" for none, and without such a layout.
func MixedPromptsWarning(ev *engine.Evaluation, promptOf []int32, cfg setup.Config) string {
	if !cfg.EqualGroups {
		return ""
	}
	return MixedWarning(MixedPrompts(ev, promptOf), cfg.PromptBy)
}

// maxMixedGroupsNamed is how many groups MixedWarning names.
const maxMixedGroupsNamed = 5

// MixedWarning says in a line what MixedPrompts found, "" for nothing:
// `2 groups of more than one prompt (prompt_by prompt_tokens): step 2,
// group "1" (2 prompts in 4 rows); ...: ...`. promptBy is the expression
// of the prompt.
func MixedWarning(groups []MixedGroup, promptBy string) string {
	if len(groups) == 0 {
		return ""
	}
	named := make([]string, 0, maxMixedGroupsNamed+1)
	for _, g := range groups[:min(len(groups), maxMixedGroupsNamed)] {
		named = append(named, fmt.Sprintf("step %d, group %s (%d prompts in %d %s)", g.Step, textsafe.QuoteFrom(g.Key, g.shared), g.Prompts, g.Rows, english.Plural(g.Rows, "row")))
	}
	if n := len(groups) - maxMixedGroupsNamed; n > 0 {
		named = append(named, fmt.Sprintf("and %d more", n))
	}
	return fmt.Sprintf("%d %s of more than one prompt (prompt_by %s): %s: the trainer's advantages, and the rewards here, compare completions of different prompts (the trainer grouped rows by their place in the batch after dropping some, as open-instruct does with mask_truncated_completions?)",
		len(groups), english.Plural(len(groups), "group"), promptBy, strings.Join(named, "; "))
}
