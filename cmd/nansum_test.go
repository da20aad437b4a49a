package cmd

import (
	"strings"
	"testing"
)

// TestNanSumMisspeltObjective: with --nansum, an objective naming a field
// no record has (a typo) was a silent 0 in every row, status 0; it is an
// error, status 2 with the close names, in compute, stats and stats
// --follow, as without --nansum.
func TestNanSumMisspeltObjective(t *testing.T) {
	want := "objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"
	for _, args := range [][]string{
		{"compute", "--nansum", "--objective", "acc=metadata.acuracy", example("grpo.jsonl")},
		{"stats", "--nansum", "--objective", "acc=metadata.acuracy", "--objective", "steps=step_count", example("grpo.jsonl")},
	} {
		stdout, stderr, code := run(t, "", args...)
		if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
			t.Errorf("%v: status %d, stderr %q, %d bytes out; want %d, ...%s", args, code, stderr, len(stdout), exitBadInput, want)
		}
	}
	if _, stderr, code := run(t, "", "compute", "--nansum", "--objective", "acc=metadata.accuracy", example("grpo.jsonl")); code != exitOK {
		t.Errorf("the right name: status %d, %q", code, stderr)
	}
}
