package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestFollowUnequalGroupsLive: following a layout whose groups are all
// of one size, the status line warns of a step whose groups are not as it
// stands: a step read in part is warned of until it is whole, and a step
// that comes uneven later is warned of then.
func TestFollowUnequalGroupsLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	// Step 0 in part: groups g0, g1, g2 of 4, g3 of 2.
	if err := os.WriteFile(path, []byte(leanLines(0, 14, "t")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	in.Config.EqualGroups = true
	app := loadModel(t, in, 120)
	statusOf := func(s *session.Session) string {
		var l statusline.Line
		l.Refresh(s)
		return l.View(common.NewStyles(true, true), 1000)
	}
	const step0 = `step 0: groups of unequal size: 3 of 4 groups have 4 trajectories, "g3" 2`
	if got := statusOf(app.Session()); !strings.Contains(got, step0) {
		t.Fatalf("status line %q, want %q in it", got, step0)
	}
	// Step 0 whole, step 1 in part: g4 of 4, g5 of 2 (a tie: the smaller
	// size is the usual one).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(leanLines(14, 8, "t"))
	f.Close()
	for app.Session().Trajectories.Len() < 22 {
		app.Update(app.live.wait()())
	}
	app.Settle() // the layout's warnings of the update, off the event loop
	got := statusOf(app.Session())
	const step1 = `step 1: groups of unequal size, 2 sizes: 4 trajectories (1 group), 2 (1 group): "g4" 4, "g5" 2`
	if strings.Contains(got, "step 0: groups") || !strings.Contains(got, step1) || strings.Count(got, "groups of unequal size") != 1 {
		t.Errorf("status line %q, want %q alone", got, step1)
	}
	cancel()
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}
