package ui

import (
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	sampledata "github.com/rewardlens/rewardlens/sample_data"
)

// newSampleSession returns a session on the embedded sample experiment,
// opened with its config (sample_data/experiment.toml) the way Run opens
// it: objectives inferred, skipped lines and invalid rows as warnings.
func newSampleSession(tb testing.TB) *Session {
	tb.Helper()
	cfg, res := readSample(tb)
	s, err := openSession("sample", cfg, res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// readSample returns the sample experiment's config and trajectories.
func readSample(tb testing.TB) (engine.Config, *loaders.Result) {
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
