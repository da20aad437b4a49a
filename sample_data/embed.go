// Package sampledata holds rewardlens's bundled sample data, embedded in the
// binary so that the dashboard can open it with no input at hand.
//
// experiment.jsonl is a made-up GRPO run (40 steps x 16 prompts x 8
// completions) whose story (learning, then reward hacking from step 24:
// length collapse, unsafe shortcuts on prompts p11..p15, mode collapse, 3
// rows without accuracy) is told in experiment.toml's header; that config is
// what the sample is opened with. examples/ holds the small worked examples,
// explained in examples/README.md.
//
// Every file but examples/README.md is written by the deterministic
// generator in ./gen (fixed math/rand/v2 PCG seed): regenerate with
// "go run ./sample_data/gen" from the module root, or "go generate" here.
// Its test fails when the committed files and the generator disagree.
package sampledata

import "embed"

//go:generate go run ./gen -out .

// FS holds experiment.jsonl, experiment.toml and examples/.
//
//go:embed experiment.jsonl experiment.toml examples
var FS embed.FS

const (
	// ExperimentPath is the sample experiment's path in FS.
	ExperimentPath = "experiment.jsonl"
	// ConfigPath is the path in FS of the config the sample is opened with.
	ConfigPath = "experiment.toml"
	// ExamplesDir is the directory in FS of the worked examples.
	ExamplesDir = "examples"
)
