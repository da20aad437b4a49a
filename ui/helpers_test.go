package ui

import (
	"testing"

	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newSampleSession returns a session on the embedded sample experiment,
// opened with its config (sample_data/experiment.toml) the way Run opens
// it: objectives inferred, skipped lines and invalid rows as warnings.
func newSampleSession(tb testing.TB) *session.Session {
	tb.Helper()
	cfg, res := sampletest.Read(tb)
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
