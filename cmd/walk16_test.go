package cmd

import (
	"path/filepath"
	"strings"
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

// TestListFlagsReplaceTheConfigs: a list flag given replaces the config
// file's list, as --objective does ("flags override it"): the config's
// constraint = ["safety >= 0.8"] with --constraint 'safety >= 0.9'
// computes as a config of that one constraint, not of both; so with
// --gate. --weight overrides the weight of the objective it names, a
// source's weights table's too, the others kept; --minimize sets the goal
// of the objective it names, the config's minimize kept.
func TestListFlagsReplaceTheConfigs(t *testing.T) {
	cfg, sources := readText(t, walk16("cfg.toml")), readText(t, walk16("sources.toml"))
	replace := func(text, old, new string) string {
		if !strings.Contains(text, old) {
			t.Fatalf("no %q in the config", old)
		}
		return strings.Replace(text, old, new, 1)
	}
	dir := writeFiles(t, map[string]string{
		"constraint.toml":   replace(cfg, `constraint = ["safety >= 0.8"]`, `constraint = ["safety >= 0.9"]`),
		"gate.toml":         replace(cfg, `gate = ["format: correct == 1"]`, `gate = ["tokens: correct == 1"]`),
		"math_weight.toml":  sources + "\n[sources.math.weights]\nacc = 0.5\n",
		"math_weight3.toml": sources + "\n[sources.math.weights]\nacc = 3\n",
		"minimize.toml":     `minimize = ["tokens"]` + "\n" + replace(cfg, "goal = \"min\"\n", ""),
		"minimized.toml":    replace(cfg, "name = \"format\"\nexpr = \"metadata.format\"\ngoal = \"max\"\n", "name = \"format\"\nexpr = \"metadata.format\"\ngoal = \"min\"\n"),
	})
	compute := func(t *testing.T, args ...string) string {
		t.Helper()
		out, stderr, code := run(t, "", append([]string{"compute"}, args...)...)
		if code != 0 || out == "" {
			t.Fatalf("compute %v: status %d, stderr %s", args, code, stderr)
		}
		return out
	}
	for _, c := range []struct {
		name       string
		flagged    []string // a config and flags over it
		configured []string // what they must compute as
	}{
		{"--constraint", []string{"--config", walk16("cfg.toml"), "--constraint", "safety >= 0.9", walk16("run.jsonl")},
			[]string{"--config", filepath.Join(dir, "constraint.toml"), walk16("run.jsonl")}},
		{"--gate", []string{"--config", walk16("cfg.toml"), "--gate", "tokens: correct == 1", walk16("run.jsonl")},
			[]string{"--config", filepath.Join(dir, "gate.toml"), walk16("run.jsonl")}},
		{"--weight over a source's table", []string{"--config", filepath.Join(dir, "math_weight.toml"), "--weight", "acc=3", walk16("sources.jsonl")},
			[]string{"--config", filepath.Join(dir, "math_weight3.toml"), walk16("sources.jsonl")}},
		{"--minimize beside the config's", []string{"--config", filepath.Join(dir, "minimize.toml"), "--minimize", "format", walk16("run.jsonl")},
			[]string{"--config", filepath.Join(dir, "minimized.toml"), walk16("run.jsonl")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, want := compute(t, c.flagged...), compute(t, c.configured...); got != want {
				t.Errorf("compute %v differs from compute %v", c.flagged, c.configured)
			}
		})
	}
}
