package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptsWarnsOfRewardFlags: each reward flag given to prompts
// leaves its records as they are and is warned of, as the prompt flags
// given to compute are; --scope, which chooses where
// --normalize-objectives normalises the score, is read then, and not
// warned of.
func TestPromptsWarnsOfRewardFlags(t *testing.T) {
	dump := filepath.Join("testdata", "verl", "dapo_overlong", "dump")
	const why = " ignored: prompts writes no reward (compute, stats and the dashboard do)\n"
	plainOut, _, code := run(t, "", "prompts", dump)
	if code != 0 {
		t.Fatalf("prompts: status %d", code)
	}
	cases := []struct {
		args    []string
		warning string
	}{
		{[]string{"--method", "rloo"}, "--method rloo"},
		{[]string{"--epsilon", "5"}, "--epsilon 5"},
		{[]string{"--std", "population"}, "--std population"},
		{[]string{"--scale", "batch"}, "--scale batch"},
		{[]string{"--no-normalize"}, "--no-normalize"},
		{[]string{"--group-of-one", "zero"}, "--group-of-one zero"},
		{[]string{"--filter-groups", "score"}, "--filter-groups score"},
		{[]string{"--scope", "batch"}, "--scope batch"},
		{[]string{"--method", "lexicographic", "--priority", "score", "--priority-tolerance", "score=0.5"},
			"--method lexicographic, --priority score and --priority-tolerance score=0.5"},
	}
	for _, c := range cases {
		args := append(append([]string{"prompts"}, c.args...), dump)
		out, errOut, code := run(t, "", args...)
		if want := "rewardlens: warning: " + c.warning + why; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%v: status %d, stderr %q, want it to hold %q", c.args, code, errOut, want)
		}
		if out != plainOut {
			t.Errorf("%v: the prompts differ from those without it", c.args)
		}
	}
	normalised := []string{"prompts", "--normalize-objectives", "rank", "--scope", "batch", dump}
	if _, errOut, code := run(t, "", normalised...); code != 0 || strings.Contains(errOut, "--scope batch") {
		t.Errorf("%v: status %d, stderr %q: --scope is read", normalised, code, errOut)
	}
	// --match-logged's fitted weights weigh the score of a table of two
	// reward columns logged under other weights than 1 each.
	table := filepath.Join("testdata", "trl", "reward_weights")
	plain, _, _ := run(t, "", "prompts", "--task-metric", "accuracy_reward", table)
	fitted, errOut, code := run(t, "", "prompts", "--task-metric", "accuracy_reward", "--match-logged", table)
	if code != 0 || strings.Contains(errOut, "--match-logged ignored") || fitted == plain {
		t.Errorf("prompts --match-logged: status %d, the prompts changed %v, stderr %q: --match-logged is read", code, fitted != plain, errOut)
	}
}

// TestUnreadFlagsAreFlags: every flag unreadFlags names is one the
// commands take, so that none is passed over by a misspelt name.
func TestUnreadFlagsAreFlags(t *testing.T) {
	root := newRootCommand(IO{})
	for command, unread := range unreadFlags {
		sub, _, err := root.Find([]string{command})
		if err != nil || sub.Name() != command {
			t.Errorf("no command %q: %v", command, err)
			continue
		}
		for _, u := range unread.flags {
			if sub.Flags().Lookup(u.name) == nil && sub.InheritedFlags().Lookup(u.name) == nil {
				t.Errorf("%s: no flag --%s", command, u.name)
			}
		}
	}
}
