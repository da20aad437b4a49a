package ui

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestFollowTRLStartedEmpty: the dashboard following, --from trl, a TRL
// completions directory that holds no file yet resolves its config as the
// CLI does (layouts.Apply with an Awaiting): it waits for the first file
// and takes the layout's defaults from it, so that the dashboard is the
// one opened on the files, not followed. Read at once, the defaults were
// those of no file: the objectives inferred from every float column
// (TRL's advantage among them, each weighing 1/m), no logged advantage,
// nothing for Compare's B to compare with the log.
func TestFollowTRLStartedEmpty(t *testing.T) {
	src := filepath.Join("..", "sample_data", "trl", "completions")
	files, err := filepath.Glob(filepath.Join(src, "*.parquet"))
	if err != nil || len(files) != 3 {
		t.Fatalf("%v: %v", files, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wholeCfg, wholeSentence, _, err := layouts.Apply(ctx, setup.Config{From: "trl"}, []string{src}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := loadModel(t, streamedInput(t, wholeCfg, wholeSentence, src), 120)

	dir := t.TempDir()
	put := func(file string) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		tmp := filepath.Join(t.TempDir(), filepath.Base(file))
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, filepath.Base(file))); err != nil {
			t.Fatal(err)
		}
	}
	type applied struct {
		cfg      setup.Config
		sentence string
		err      error
	}
	done := make(chan applied, 1)
	var waited atomic.Bool
	go func() {
		await := &layouts.Awaiting{Poll: 10 * time.Millisecond, Waiting: func([]string) { waited.Store(true) }}
		cfg, sentence, _, err := layouts.Apply(ctx, setup.Config{From: "trl"}, []string{dir}, loaders.Options{}, nil, await)
		done <- applied{cfg, sentence, err}
	}()
	time.Sleep(100 * time.Millisecond)
	put(files[0])
	got := <-done
	if got.err != nil || !waited.Load() || !reflect.DeepEqual(got.cfg, wholeCfg) || got.sentence != wholeSentence {
		t.Fatalf("followed from empty: %+v, %q, %v (waited %v)\nwant %+v, %q", got.cfg, got.sentence, got.err, waited.Load(), wholeCfg, wholeSentence)
	}
	fields, err := scoring.NewRecordFields(got.cfg.GroupBy, got.cfg.BatchBy, got.cfg.IDBy)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Source: dir, Config: got.cfg, Layout: got.sentence, LayoutWarnings: func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
		return layouts.Warnings(got.cfg, rowCap, linesLeftOut)
	},
		Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			fo := loaders.FollowOptions{Options: loaders.Options{Fields: fields}, Poll: 10 * time.Millisecond, Each: hooks.Each}
			fo.Progress, fo.Pick = hooks.Progress, hooks.Pick
			return loaders.Follow(ctx, []string{dir}, fo)
		}}
	app := loadModel(t, in, 120)
	for _, file := range files[1:] {
		put(file)
	}
	for app.Session().Trajectories.Len() < whole.Session().Trajectories.Len() {
		app.Update(app.live.wait()())
	}
	app.Settle()

	s, w := app.Session(), whole.Session()
	names := func(s *session.Session) []string {
		var out []string
		for _, o := range s.Evaluation.Objectives {
			out = append(out, o.Name)
		}
		return out
	}
	if !slices.Equal(names(s), []string{"accuracy_reward", "think_format_reward"}) || !slices.Equal(s.Weights(), []float64{1, 1}) ||
		!slices.Equal(names(s), names(w)) || !slices.Equal(s.Weights(), w.Weights()) {
		t.Errorf("objectives %v weights %v; not followed %v weights %v", names(s), s.Weights(), names(w), w.Weights())
	}
	if len(s.Evaluation.Logged) != len(w.Evaluation.Logged) || !slices.Equal(s.Evaluation.Logged, w.Evaluation.Logged) || len(s.Evaluation.Logged) == 0 {
		t.Errorf("logged advantages %v; not followed %v", s.Evaluation.Logged, w.Evaluation.Logged)
	}
	if !slices.Equal(s.Evaluation.Valid, w.Evaluation.Valid) || !slices.Equal(s.Result.Rewards, w.Result.Rewards) {
		t.Errorf("valid %v rewards %v; not followed %v, %v", s.Evaluation.Valid, s.Result.Rewards, w.Evaluation.Valid, w.Result.Rewards)
	}
	selectTabTitled(t, app, "Objectives")
	tab := strings.Join(strings.Fields(screen(app)), " ")
	if !strings.Contains(tab, "accuracy_reward max 1.00 ") || !strings.Contains(tab, "think_format_reward max 1.00 ") || strings.Contains(tab, "advantage") {
		t.Errorf("the Objectives tab does not show TRL's rewards, weight 1 each, alone:\n%s", screen(app))
	}
	press(app, "?") // how the inputs were read, whole (the status line cuts it)
	view := strings.Join(strings.Fields(strings.ReplaceAll(screen(app), "│", " ")), " ")
	if !strings.Contains(view, "objectives accuracy_reward, think_format_reward, a null reward adds nothing, logged advantage = advantage") {
		t.Errorf("? does not say the objectives and the logged advantage:\n%s", screen(app))
	}
	press(app, "esc")
	selectTabTitled(t, app, "Compare")
	if s.CompareMethod != session.LoggedMethod {
		t.Errorf("B is %s, want the logged advantage", s.CompareMethod)
	}
	cancel()
	drain(app)
}
