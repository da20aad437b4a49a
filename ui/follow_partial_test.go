package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// TestFollowPartialStepBadge: following verl's dumps, a step read while
// its file is written line by line (its first 3 lines: three groups of
// one, without signal under --group-of-one zero, TRL's convention, which
// the test sets: verl's own gives them signal) is probably read in part
// (follow.Partial): its findings are provisional, as stats --follow
// grades them, dead_signal's ALERT and variance_collapse's (the step out
// of the baseline, graded against the steps before) counted at WARN by
// the header's badge, beside zero_spread's WARN that groups of one row
// cannot be judged; once the rest of its lines come, the badge is the
// whole step's, those findings gone, as stats --follow's updated line
// withdraws them.
func TestFollowPartialStepBadge(t *testing.T) {
	verl := filepath.Join("..", "sample_data", "verl")
	dir := t.TempDir()
	var step3 []string
	for _, name := range []string{"1.jsonl", "2.jsonl", "3.jsonl"} {
		data, err := os.ReadFile(filepath.Join(verl, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "3.jsonl" {
			step3 = strings.SplitAfter(string(data), "\n")
			data = []byte(strings.Join(step3[:3], ""))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := sampletest.VerlConfig()
	cfg.GroupOfOne = string(engine.GroupOfOneZero)
	fields, err := scoring.NewRecordFields(cfg.GroupBy, cfg.BatchBy, cfg.IDBy)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Source: dir, Config: cfg, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		opts := loaders.Options{Pick: hooks.Pick, Fields: fields}
		return loaders.Follow(ctx, []string{dir}, loaders.FollowOptions{Options: opts, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	app := loadModel(t, in, 160)
	badge := func() string {
		app.Settle()
		h := headerOf(app)
		return h[strings.Index(h, "valid"):]
	}
	if got := badge(); !strings.Contains(got, "⚠ 3 checks warn") || strings.Contains(got, "alert") {
		t.Fatalf("step 3 in part: header %q, want dead_signal's and variance_collapse's provisional ALERTs and zero_spread's WARN (groups of one row) counted at WARN", got)
	}
	const why = "fewer rows than step 2's 12, 3 of its 3 groups short of that step's 4: its run is probably still writing it"
	for _, f := range app.Session().Findings() {
		if f.Step == 3 && f.Provisional != why {
			t.Errorf("step 3 in part: %s provisional %q, want %q", f.Check, f.Provisional, why)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, "3.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Join(step3[3:], ""))
	f.Close()
	for app.Session().Trajectories.Len() < 34 {
		app.Update(app.live.wait()())
	}
	if got := badge(); strings.Contains(got, "alert") || !strings.Contains(got, "healthy") {
		t.Errorf("step 3 whole: header %q, want healthy", got)
	}
	cancel()
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}
