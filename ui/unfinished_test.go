package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestStreamSessionUnfinished: the dashboard opened on a live run's
// directory (as cmd opens it: loaders.Stream) shows what is complete and
// says in its status line which newest file it left out, and why.
func TestStreamSessionUnfinished(t *testing.T) {
	dir := filepath.Join("..", "loaders", "testdata", "live", "parquet")
	app := loadModel(t, Input{Source: dir, Stream: func(hooks StreamHooks) (*loaders.Result, error) {
		return loaders.Stream([]string{dir}, loaders.Options{Pick: hooks.Pick, Progress: hooks.Progress}, hooks.Each)
	}}, 400)
	want := filepath.Join(dir, "completions_00003.parquet") + ": left out: no Parquet footer yet"
	if n := app.Session().Trajectories.Len(); n != 24 {
		t.Errorf("%d trajectories, want the 24 of the two complete files", n)
	}
	if view := screen(app); !strings.Contains(view, want) {
		t.Errorf("no %q in the status line:\n%s", want, view)
	}
}
