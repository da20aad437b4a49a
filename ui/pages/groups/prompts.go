package groups

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// groupPrompts returns the prompt of each group: its key, unless the
// session's layout names a prompt field (Config.PromptField) other than
// what it groups by (verl's uid, say): then the prompt of its first
// member, read again when lean (one record per group, when the batch is
// shown, with one loaders.Rereader: a file opened per file, not per
// group), checked against what was evaluated (Session.RereadChecked). A
// member whose prompt cannot be read, or whose record was edited since
// the load (a dump rescored: its text no longer that of its objectives),
// shows the key; unread is why the first such could not be, escaped, ""
// when every one was.
func groupPrompts(s *session.Session, summaries []diagnose.GroupSummary) (prompts []string, unread string) {
	prompts = make([]string, len(summaries))
	byKey := s.Config.PromptField == "" || s.Config.GroupBy == s.Config.PromptField
	var reread func(int, *scoring.Trajectory) (scoring.Trajectory, error)
	if !byKey {
		reader := s.Rereader()
		defer reader.Close()
		reread = s.RereadChecked(reader)
	}
	for g := range summaries {
		prompts[g] = summaries[g].Key
		if byKey || len(summaries[g].Members) == 0 {
			continue
		}
		i := summaries[g].Members[0]
		first := s.Trajectories.At(i)
		if first.Lean {
			full, err := reread(i, first)
			if err != nil {
				if unread == "" {
					unread = textsafe.Line(err.Error())
				}
				continue
			}
			first = &full
		}
		if p := s.PromptText(first); p != "" {
			prompts[g] = p
		}
	}
	return prompts, unread
}

// groupLabels returns what the group column shows of each prompt: the
// prompt without what every prompt of the batch starts and ends with
// (SharedGroupPrefix, as the Trajectories tab's group column, and
// SharedGroupSuffix: a chat template's end), each cut marked "…".
func groupLabels(prompts []string) []string {
	prompt := func(j int) string { return prompts[j] }
	cut := common.SharedGroupPrefix(len(prompts), prompt)
	tail := common.SharedGroupSuffix(len(prompts), prompt, cut)
	if cut == 0 && tail == 0 {
		return prompts
	}
	labels := make([]string, len(prompts))
	for g, p := range prompts {
		labels[g] = common.CutGroupKey(p, cut, tail)
	}
	return labels
}

// minKeyTagRunes is the shortest opening of a group key that keyTags
// shows: a uuid's first 8 hex digits.
const minKeyTagRunes = 8

// keyTags returns, for each group whose prompt is not its key and is
// another group's prompt too (verl's uid groups of one prompt drawn twice
// in a batch), its key as the group column shows it before the prompt,
// "[KEY] ", cut to the shortest opening of at least minKeyTagRunes runes
// that tells those keys apart ("…" where cut): the rows would look alike
// otherwise. "" for every other group.
func keyTags(prompts []string, summaries []diagnose.GroupSummary) []string {
	tags := make([]string, len(prompts))
	count := make(map[string]int, len(prompts))
	for g, p := range prompts {
		if p != summaries[g].Key {
			count[p]++
		}
	}
	var tagged []int
	for g, p := range prompts {
		if p != summaries[g].Key && count[p] > 1 {
			tagged = append(tagged, g)
		}
	}
	if len(tagged) == 0 {
		return tags
	}
	keys := make([][]rune, len(tagged))
	longest := 0
	for j, g := range tagged {
		keys[j] = []rune(summaries[g].Key)
		longest = max(longest, len(keys[j]))
	}
	n := minKeyTagRunes
	for ; n < longest; n++ {
		seen := make(map[string]bool, len(keys))
		distinct := true
		for _, k := range keys {
			opening := string(k[:min(n, len(k))])
			distinct = distinct && !seen[opening]
			seen[opening] = true
		}
		if distinct {
			break
		}
	}
	for j, g := range tagged {
		tag := string(keys[j][:min(n, len(keys[j]))])
		if len(keys[j]) > n {
			tag += "…"
		}
		tags[g] = "[" + tag + "] "
	}
	return tags
}

// addRunTags sets, in tags, for each group of batch whose key another
// group of it has too (the TRL layout's runs of consecutive rows: a
// prompt in two slots of the batch, engine.Evaluation.GroupsRuns), where
// its rows are in the batch, as the group column shows them before its
// label, "[rows 8-11] ", numbered from 0 as the default ids' POSITION
// (BATCH:POSITION): nothing else tells such groups apart. The other
// groups' tags stay.
func addRunTags(tags []string, batch *engine.Batch, summaries []diagnose.GroupSummary) {
	count := make(map[string]int, len(summaries))
	for g := range summaries {
		count[summaries[g].Key]++
	}
	// position holds the batch position of each repeated group's first
	// and last member, found in one pass over the batch.
	position := map[int]int{}
	for g := range summaries {
		if members := summaries[g].Members; count[summaries[g].Key] > 1 && len(members) > 0 {
			position[members[0]], position[members[len(members)-1]] = -1, -1
		}
	}
	if len(position) == 0 {
		return
	}
	for k, i := range batch.Members {
		if _, ok := position[i]; ok {
			position[i] = k
		}
	}
	for g := range summaries {
		members := summaries[g].Members
		if count[summaries[g].Key] < 2 || len(members) == 0 || tags[g] != "" {
			continue
		}
		first, last := position[members[0]], position[members[len(members)-1]]
		if first == last {
			tags[g] = fmt.Sprintf("[row %d] ", first)
		} else {
			tags[g] = fmt.Sprintf("[rows %d-%d] ", first, last)
		}
	}
}
