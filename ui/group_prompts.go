package ui

import (
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/session"
)

// groupPrompts returns the prompt of each group: its key, unless the
// session's layout names a prompt field (Config.PromptField) other than
// what it groups by (verl's uid, say): then the prompt of its first
// member, read again when lean (one record per group, when the batch is
// shown). A member whose prompt cannot be read shows the key.
func groupPrompts(s *session.Session, summaries []engine.GroupSummary) []string {
	prompts := make([]string, len(summaries))
	byKey := s.Config.PromptField == "" || s.Config.GroupBy == s.Config.PromptField
	for g := range summaries {
		prompts[g] = summaries[g].Key
		if byKey || len(summaries[g].Members) == 0 {
			continue
		}
		first := s.Trajectories.At(summaries[g].Members[0])
		if first.Lean {
			full, err := s.Reread(first)
			if err != nil {
				continue
			}
			first = &full
		}
		if p := s.PromptText(first); p != "" {
			prompts[g] = p
		}
	}
	return prompts
}

// distinctParts returns each prompt without the lines that every prompt
// starts with: a chat template's system turn and the user turn's header
// ("system\nYou are a helpful assistant.\nuser\n"), which make every
// verl prompt of a batch start alike. The common prefix is cut back to
// the start of a line, so that a part starts at a line's start (a
// question whose first words all share is kept whole). Prompts that share
// no whole line, fewer than two distinct prompts, and a prompt that the
// cut would leave empty stay as they are.
func distinctParts(prompts []string) []string {
	parts := make([]string, len(prompts))
	copy(parts, prompts)
	common, distinct := -1, false
	for _, p := range prompts {
		if common < 0 {
			common = len(p)
			continue
		}
		n := 0
		for n < common && n < len(p) && p[n] == prompts[0][n] {
			n++
		}
		distinct = distinct || p != prompts[0]
		common = n
	}
	if !distinct {
		return parts
	}
	cut := strings.LastIndexByte(prompts[0][:common], '\n') + 1
	if cut == 0 {
		return parts
	}
	for g, p := range prompts {
		if len(p) > cut {
			parts[g] = p[cut:]
		}
	}
	return parts
}
