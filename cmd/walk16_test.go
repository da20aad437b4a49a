package cmd

import (
	"path/filepath"
	"testing"
)

// walk16 is a fixture of cmd/testdata/walk16 (its README).
func walk16(name string) string { return filepath.Join("testdata", "walk16", name) }

// TestConfigNonFiniteWeightSaysItsLine: an [[objective]]'s weight = nan
// (which the scorer would read as no weight, the default 1/m) or inf (which
// made every trajectory invalid, blamed on the data) is the config's
// error at the weight's line, exit status 2, as weights = {correct = nan}
// is; also in a source's table. A --weight over it is the flag's: the
// run computes with the flag's weight.
func TestConfigNonFiniteWeightSaysItsLine(t *testing.T) {
	for _, c := range []struct{ config, data, want string }{
		{"weight_nan.toml", "run.jsonl", ":17: weight correct: NaN is not a finite number"},
		{"weight_inf.toml", "run.jsonl", ":17: weight correct: +Inf is not a finite number"},
		{"sources_weight_nan.toml", "sources.jsonl", ":10: source math: weight acc: NaN is not a finite number"},
	} {
		for _, command := range []string{"compute", "stats"} {
			_, stderr, code := run(t, "", command, "--config", walk16(c.config), walk16(c.data))
			if want := "rewardlens: " + walk16(c.config) + c.want + "\n"; code != 2 || stderr != want {
				t.Errorf("%s %s: status %d, stderr\n%q\nwant\n%q", command, c.config, code, stderr, want)
			}
		}
	}
	overridden := computeRecords(t, "--config", walk16("weight_nan.toml"), "--weight", "correct=1", walk16("run.jsonl"))
	given := computeRecords(t, "--config", walk16("cfg.toml"), walk16("run.jsonl"))
	if len(given) != 144 || len(overridden) != len(given) {
		t.Fatalf("%d records with weight = 1, %d with --weight correct=1 over weight = nan, want 144 each", len(given), len(overridden))
	}
	for id, r := range given {
		if o := overridden[id]; o.Score == nil || r.Score == nil || *o.Score != *r.Score || o.Reward != r.Reward {
			t.Fatalf("%s: --weight correct=1 over weight = nan: %+v, want as weight = 1: %+v", id, o, r)
		}
	}
}
