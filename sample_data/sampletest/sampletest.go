// Package sampletest reads the embedded sample experiment for the tests of
// several packages.
package sampletest

import (
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	sampledata "github.com/rewardlens/rewardlens/sample_data"
)

// Read returns the sample experiment's config (experiment.toml) and its
// trajectories, failing tb on an error.
func Read(tb testing.TB) (engine.Config, *loaders.Result) {
	tb.Helper()
	var cfg engine.Config
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
