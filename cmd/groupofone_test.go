package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestZeroSpreadGroupOfOne: health's zero_spread and frac_zero_std_groups
// count a group of one only when the method leaves it without signal, as
// the Groups tab does. Groups a (1, 0), b (1), c (0.5), d (0): under
// verl's grpo (--group-of-one score) b, c and d are rewarded their score,
// so no group is zero spread; under TRL's (zero) they get 0, and 3 of 4
// groups have no signal: zero_spread 0.75, a WARN. On verl's sample step
// 3 (two groups of 4, two of one, pass rate p = 0.7) verl's own settings
// give 0 zero-spread groups and an expected dead share of 2 (p^4 +
// (1-p)^4) / 4 = 0.1241, where the groups of one were counted 0.5 and
// 0.6241.
func TestZeroSpreadGroupOfOne(t *testing.T) {
	dir := writeFiles(t, map[string]string{"runs.jsonl": `{"id":"a1","group":"a","metadata":{"score":1}}
{"id":"a2","group":"a","metadata":{"score":0}}
{"id":"b1","group":"b","metadata":{"score":1}}
{"id":"c1","group":"c","metadata":{"score":0.5}}
{"id":"d1","group":"d","metadata":{"score":0}}
`})
	args := []string{"stats", "--health", "--method", "grpo", "--objective", "score=metadata.score", filepath.Join(dir, "runs.jsonl")}
	for _, c := range []struct {
		groupOfOne string
		want       []string
	}{
		{"score", []string{"4 groups, 2 fronts, frontier 4, frac_zero_std_groups 0.0000", "dead signal: 0 zero-spread groups", "findings: none; no batch after the baseline"}},
		{"zero", []string{"frac_zero_std_groups 0.7500", "dead signal: 3 zero-spread groups (1 all-pass, 2 all-fail, 0 other)", "WARN  step 0  zero_spread  3 of 4 groups have all-equal scores"}},
	} {
		out, errOut, code := run(t, "", append(args, "--group-of-one", c.groupOfOne)...)
		if code != exitOK {
			t.Fatalf("%s: status %d: %s", c.groupOfOne, code, errOut)
		}
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("--group-of-one %s: the output lacks %q:\n%s", c.groupOfOne, want, out)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "batch 3: 10 trajectories (0 invalid), 4 groups, 3 fronts, frontier 7, frac_zero_std_groups 0.0000"},
		{nil, "dead signal: 0 zero-spread groups (0 all-pass, 0 all-fail, 0 other), 0 phantom; all pass or all fail 0.0000, independent sampling at pass rate 0.7000: 0.1241"},
		{[]string{"--group-of-one", "zero"}, "frac_zero_std_groups 0.5000"},
		{[]string{"--group-of-one", "zero"}, "dead signal: 2 zero-spread groups (1 all-pass, 1 all-fail, 0 other), 0 phantom; all pass or all fail 0.5000, independent sampling at pass rate 0.7000: 0.6241"},
	} {
		out, errOut, _ := run(t, "", append(append([]string{"stats"}, c.args...), verlDir)...)
		if !strings.Contains(out, c.want) {
			t.Errorf("verl %v: the output lacks %q:\n%s\n%s", c.args, c.want, out, errOut)
		}
	}
}
