package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestLiveUnendedLine: a followed file whose last line stays without its
// line end is warned of in the status line until the follower says it
// changed (it ended and was read).
func TestLiveUnendedLine(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	unended := loaders.Unended{Path: "run.jsonl", Line: 12, Bytes: 57, For: 5 * time.Second}
	want := "run.jsonl:12: the last line has no line end after 5 s (57 bytes waiting); not read until it ends"
	m.Update(liveMsg{loaders.Update{Unended: []loaders.Unended{unended}}, true})
	if v := screen(m); !slices.Contains(s.Warnings, want) || !strings.Contains(v, "the last line has no line end") {
		t.Fatalf("warnings %q; status line:\n%s", s.Warnings, v)
	}
	m.Update(liveMsg{loaders.Update{Resumed: []string{"run.jsonl"}}, true})
	if v := screen(m); slices.Contains(s.Warnings, want) || strings.Contains(v, "no line end") {
		t.Errorf("resumed: warnings %q; status line:\n%s", s.Warnings, v)
	}
}

// TestLoadingUnendedLine: following a file whose only line has no line
// end, the loading screen, waiting for a first trajectory, says why; the
// unended lines said before the dashboard opens are in its status line.
func TestLoadingUnendedLine(t *testing.T) {
	cfg, ts := sampleSteps(t, 0, 1)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	line := jsonLines(t, ts[:1])
	if err := os.WriteFile(path, line[:len(line)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{Source: path, Config: cfg, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		fo := loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, UnendedWait: 50 * time.Millisecond, Each: hooks.Each}
		return loaders.Follow(ctx, []string{path}, fo)
	}}
	lm := newLoadingModel(in, true)
	lm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	loaded := make(chan tea.Msg, 1)
	go func() { loaded <- lm.load() }()
	want := path + ":1: the last line has no line end after 0.1 s"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(ansi.Strip(lm.View().Content), want); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the loading screen does not say %q:\n%s", want, ansi.Strip(lm.View().Content))
		}
	}
	cancel()
	if msg := (<-loaded).(loadedMsg); !errors.Is(msg.err, errNoTrajectory) {
		t.Fatalf("%v", msg.err)
	}

	s := uitest.FollowedSession(t, "run.jsonl", cfg, &loaders.Result{Trajectories: ts})
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{unended: []loaders.Unended{{Path: "other.jsonl", Line: 3, Bytes: 8, For: 5 * time.Second}}})
	if !slices.Contains(s.Warnings, "other.jsonl:3: the last line has no line end after 5 s (8 bytes waiting); not read until it ends") {
		t.Errorf("warnings %q", s.Warnings)
	}
}
