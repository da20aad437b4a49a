package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStreamSessionRelogged: the dashboard opened on TRL's tables of a
// run with num_iterations 2 (as cmd opens it: loaders.Stream with the
// layout's relog field) leaves out steps 2 and 4, which repeat 1 and 3,
// and its warnings say so.
func TestStreamSessionRelogged(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "trl", "num_iterations_2", "completions")
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, Input{Source: dir, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		return loaders.Stream([]string{dir}, loaders.Options{Pick: hooks.Pick, Progress: hooks.Progress, Fields: fields, RelogField: "step"}, hooks.Each)
	}}, 400)
	var steps []int64
	for _, b := range app.Session().Result.Ranking.Batches {
		steps = append(steps, b.Step)
	}
	if !slices.Equal(steps, []int64{1, 3}) {
		t.Errorf("batches %v, want 1, 3", steps)
	}
	want := "steps 2, 4 repeat the rollouts logged at steps 1, 3: TRL logs a generation again until the next one (num_iterations / steps_per_generation); left out ("
	if !slices.ContainsFunc(app.Session().Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("no %q among the warnings %q", want, app.Session().Warnings)
	}
}
