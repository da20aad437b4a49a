package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// walk8 is a fixture of cmd/testdata/walk8 (its README: written with the
// trainers' own code).
func walk8(name string) string { return filepath.Join("testdata", "walk8", name) }

// TestTRLRLOOBetaNamesTheKL checks a table of TRL's RLOOTrainer with its
// default beta 0.05: its num_tokens column, ints a reward function logged
// with log_extra, is not read as a reward, and the warning that nothing
// reproduces the logged advantage names the KL penalty the table lacks.
func TestTRLRLOOBetaNamesTheKL(t *testing.T) {
	recs, errOut := computeList(t, "", "--method", "rloo", walk8("rloo_beta"))
	for i, r := range recs {
		if _, extra := r.Objectives["num_tokens"]; extra || len(r.Objectives) != 3 {
			t.Fatalf("record %d: objectives %v, want the 3 reward columns", i, r.Objectives)
		}
	}
	for _, want := range []string{
		"objectives accuracy_reward, format_reward, len_reward,",
		"(TRL's RLOOTrainer subtracts beta·KL, beta 0.05 by default, from the reward before its baseline, and the KL is not in the logged table: set beta=0 to compare)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, errOut = computeList(t, "", "--method", "grpo", walk8("rloo_beta"))
	if !strings.Contains(errOut, "(if this is RLOOTrainer's log: TRL's RLOOTrainer subtracts beta·KL") {
		t.Errorf("under grpo, stderr lacks the KL penalty as a condition:\n%s", errOut)
	}
}
