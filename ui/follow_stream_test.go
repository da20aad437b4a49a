package ui

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// followInput returns the input that follows path with opts until ctx
// ends, as the CLI's does: the first reading streams.
func followInput(ctx context.Context, path string, opts loaders.Options) Input {
	return Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		fo := loaders.FollowOptions{Options: opts, Poll: 10 * time.Millisecond, Each: hooks.Each}
		fo.Progress, fo.Pick = hooks.Progress, hooks.Pick
		return loaders.Follow(ctx, []string{path}, fo)
	}}
}

// drain waits for the follower of app to stop once its context ended.
func drain(app *Model) {
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}

// TestFollowStreamSession checks that follow mode builds, as the first
// reading streams over several chunks, the session that it built from the
// whole first reading (loaders.Follow without Each), with the skipped
// lines' warning, but lean; and that it follows the file from there.
func TestFollowStreamSession(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent()) // other tests' programs may linger
	path := writeLeanFile(t, leanLines(0, 10000, "t")+"{bad\n"+leanLines(10000, 100, "t"))
	opts := loaders.Options{SkipInvalid: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, _, err := loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := session.Open(path, setup.Config{}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, followInput(ctx, path, opts), 120)
	streamed := app.Session()
	checkLean(t, streamed)
	checkSameSession(t, streamed, whole)
	testfile.Append(t, path, leanLines(10100, 16, "t"))
	for app.Session().Trajectories.Len() < 10116 {
		app.Update(app.live.wait()())
	}
	checkLean(t, app.Session())
	cancel()
	drain(app)
}

// TestFollowStreamWaits follows a file without trajectories yet: the
// loading screen says it waits, then opens, lean, on the first lines that
// come; should following stop first, the load fails.
func TestFollowStreamWaits(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent()) // other tests' programs may linger
	path := writeLeanFile(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lm := newLoadingModel(followInput(ctx, path, loaders.Options{}), true)
	lm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	loaded := make(chan tea.Msg, 1)
	go func() { loaded <- lm.load() }()
	for !lm.read.waiting.Load() {
		time.Sleep(time.Millisecond)
	}
	testfile.Append(t, path, leanLines(0, 32, "t"))
	next, _ := lm.Update(<-loaded)
	app, ok := next.(*Model)
	if !ok {
		t.Fatalf("the load gave %T: %v", next, lm.err)
	}
	if n := app.Session().Trajectories.Len(); n != 32 {
		t.Errorf("%d trajectories, want 32", n)
	}
	checkLean(t, app.Session())
	cancel()
	drain(app)

	stopped, stop := context.WithCancel(context.Background())
	_, _, _, err := followInput(stopped, writeLeanFile(t, ""), loaders.Options{}).followedSession(func(int64, int64) {}, func([]loaders.Unended) { stop() })
	if !errors.Is(err, errNoTrajectory) {
		t.Errorf("following stopped before any trajectory: %v, want %v", err, errNoTrajectory)
	}
}
