package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestOpenSettingsError: data the settings do not fit (no number to infer
// an objective from, a weight of no objective) fails Open with a
// SettingsError, which the CLI exits with status 2 on; the first names
// the record.
func TestOpenSettingsError(t *testing.T) {
	text := `{"group":"g","metadata":{"note":"x"}}` + "\n"
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  engine.Config
		want string
	}{
		{engine.Config{}, "run.jsonl:1: no objective to score"},
		{engine.Config{Objectives: []engine.ObjectiveConfig{{Name: "a", Expr: "metadata.note"}}, Weights: map[string]float64{"b": 1}}, `unknown objective "b"`},
	} {
		_, err := Open("run.jsonl", tc.cfg, res, nil)
		var settings SettingsError
		if !errors.As(err, &settings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Open failed with %v (%T), want a SettingsError saying %q", tc.cfg, err, err, tc.want)
		}
	}
}
