// Package sampletest reads the embedded sample experiment for the tests of
// several packages.
package sampletest

import (
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	sampledata "github.com/rewardlens/rewardlens/sample_data"
)

// Read returns the sample experiment's config (experiment.toml) and its
// trajectories, failing tb on an error.
func Read(tb testing.TB) (setup.Config, *loaders.Result) {
	tb.Helper()
	var cfg setup.Config
	data, err := sampledata.FS.ReadFile(sampledata.ConfigPath)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		tb.Fatal(err)
	}
	f, err := sampledata.FS.Open(sampledata.ExperimentPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	res, err := loaders.Read(f, sampledata.ExperimentPath, 0, loaders.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return cfg, res
}

// VerlConfig is the config that the verl layout gives sample_data/verl
// (cmd's applyLayout checks it), and VerlLayout the sentence it says:
// the dashboard's tests open the fixture with them.
func VerlConfig() setup.Config {
	one, eps := 1.0, 1e-6
	return setup.Config{
		Method: "grpo", GroupBy: "input", BatchBy: "step",
		Objectives: []setup.ObjectiveConfig{{Name: "score", Expr: "score", Goal: "max", Weight: &one}},
		Epsilon:    &eps, GroupOfOne: "score", PromptField: "input", ResponseField: "output",
		PromptBy: "input", TaskMetric: "acc", ScorePrecision: "float32",
		EqualGroups: true, From: "verl",
	}
}

// VerlLayout is what the verl layout says of sample_data/verl.
const VerlLayout = "read as verl rollout dumps: group = input, batch = step, objective score"

// TRLConfig is the config that the TRL layout gives
// sample_data/trl/completions (cmd's applyLayout checks it).
func TRLConfig() setup.Config {
	one, yes := 1.0, true
	return setup.Config{
		Method: "grpo", GroupBy: "prompt", BatchBy: "step",
		Objectives: []setup.ObjectiveConfig{
			{Name: "accuracy_reward", Expr: `metadata["accuracy_reward"]`, Goal: "max", Weight: &one},
			{Name: "think_format_reward", Expr: `metadata["think_format_reward"]`, Goal: "max", Weight: &one},
		},
		NanSum: &yes, ScorePrecision: "float32", LoggedAdvantage: "advantage", PromptField: "prompt", ResponseField: "completion",
		PromptBy: "prompt",
		From:     "trl",
	}
}

// TRLLayout is what the TRL layout says of sample_data/trl/completions.
const TRLLayout = "read as TRL completions: group = prompt, batch = step, objectives accuracy_reward, think_format_reward, a null reward adds nothing, logged advantage = advantage"
