package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
)

// deadSignalStep returns a step of three groups of two, with acc, the task
// metric, and a score: groups a and b pass or fail alike with equal
// scores, c mixed; phantom makes a's scores differ (a phantom group).
func deadSignalStep(step string, phantom bool) string {
	aScore := "1"
	if phantom {
		aScore = "0.5"
	}
	return strings.NewReplacer("S", step, "A", aScore).Replace(`{"step":S,"group":"a","metadata":{"acc":1,"score":A}}
{"step":S,"group":"a","metadata":{"acc":1,"score":1}}
{"step":S,"group":"b","metadata":{"acc":0,"score":0}}
{"step":S,"group":"b","metadata":{"acc":0,"score":0}}
{"step":S,"group":"c","metadata":{"acc":1,"score":1}}
{"step":S,"group":"c","metadata":{"acc":0,"score":0}}
`)
}

// TestFollowDeadSignalAfterRereading: a followed file read again from its
// start (a run resumed from a checkpoint rewrites a step's file) keeps
// the task metric read of the records, in the order of the rows left: the
// health checks that read it (phantom_signal) go on for the steps after,
// where they went silent, the badge saying healthy.
func TestFollowDeadSignalAfterRereading(t *testing.T) {
	dir := t.TempDir()
	step0 := filepath.Join(dir, "0.jsonl")
	if err := os.WriteFile(step0, []byte(deadSignalStep("0", false)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{Source: dir, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		fo := loaders.FollowOptions{Poll: 10 * time.Millisecond, Each: hooks.Each}
		fo.Progress, fo.Pick = hooks.Progress, hooks.Pick
		return loaders.Follow(ctx, []string{dir}, fo)
	}}
	in.Config = setup.Config{Method: "grpo", BatchBy: "step", TaskMetric: "metadata.acc", Objectives: []setup.ObjectiveConfig{{Name: "score", Expr: "metadata.score"}}}
	app := loadModel(t, in, 120)
	runHealth(app.Session())
	// The step written again, its groups renamed: the file is read
	// again.
	if err := os.WriteFile(step0, []byte(strings.ReplaceAll(deadSignalStep("0", false), `"group":"`, `"group":"0`)), 0o644); err != nil {
		t.Fatal(err)
	}
	for app.Session().Reloads == 0 {
		app.Update(app.live.wait()())
	}
	if err := os.WriteFile(filepath.Join(dir, "1.jsonl"), []byte(deadSignalStep("1", true)), 0o644); err != nil {
		t.Fatal(err)
	}
	for app.Session().Trajectories.Len() < 12 {
		app.Update(app.live.wait()())
	}
	s := app.Session()
	if !s.HealthReady() {
		runHealth(s)
	}
	if s.Prompts == nil || len(s.Prompts.Task) != 12 {
		t.Fatalf("prompts %v (%v): want the task metric of 12 rows", s.Prompts, s.PromptsErr)
	}
	phantom := slices.ContainsFunc(s.Findings(), func(f health.Finding) bool {
		return f.Check == health.CheckPhantomSignal && f.Step == 1 && f.Level == health.Alert
	})
	if !phantom {
		t.Errorf("no phantom_signal ALERT at step 1: findings %+v", s.Findings())
	}
	cancel()
	drain(app)
}
