package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
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

// TestLiveUnfinishedRead: following, the warning of a file the first
// reading left out stays until an update brings its trajectories.
func TestLiveUnfinishedRead(t *testing.T) {
	cfg, ts := sampleSteps(t, 0, 5)
	_, later := sampleSteps(t, 5, 6)
	const path = "completions_00006.parquet"
	for i := range later {
		later[i].Source = path
	}
	uf := loaders.Unfinished{Path: path, Whole: true, Reason: "no Parquet footer yet", Followed: true}
	s, err := session.Open("run", cfg, &loaders.Result{Trajectories: ts, Unfinished: []loaders.Unfinished{uf}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update))
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	want := uf.String()
	m.Update(liveMsg{loaders.Update{Reloaded: []string{path}}, true}) // changed, still no footer
	if !slices.Contains(m.Session().Warnings, want) {
		t.Fatalf("warnings %q, want %q", m.Session().Warnings, want)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: later, Reloaded: []string{path}}, true})
	if slices.Contains(m.Session().Warnings, want) || strings.Contains(screen(m), "no Parquet footer yet") {
		t.Errorf("the file was read, but its warning stays: %q", m.Session().Warnings)
	}
}
