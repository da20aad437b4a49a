package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// sampleSteps returns the sample's config and its trajectories of steps
// [from, to).
func sampleSteps(tb testing.TB, from, to int64) (setup.Config, []scoring.Trajectory) {
	tb.Helper()
	cfg, res := sampletest.Read(tb)
	var out []scoring.Trajectory
	for _, t := range res.Trajectories {
		if t.Batch >= from && t.Batch < to {
			out = append(out, t)
		}
	}
	return cfg, out
}

// newLiveModel returns the dashboard in follow mode on the sample's first
// 20 steps, at 120x40, and the channel it follows.
func newLiveModel(t *testing.T) (*Model, chan loaders.Update) {
	t.Helper()
	cfg, ts := sampleSteps(t, 0, 20)
	s := uitest.FollowedSession(t, "run.jsonl", cfg, &loaders.Result{Trajectories: ts})
	m := NewModel(s, true)
	m.Init()
	updates := make(chan loaders.Update)
	m.follow(updates, waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, updates
}

// headerOf returns the first line of the screen.
func headerOf(m *Model) string {
	return strings.SplitN(screen(m), "\n", 2)[0]
}

// checkComputedAsWhole fails t unless the session's result is what
// computing all its trajectories from scratch gives.
func checkComputedAsWhole(t *testing.T, s *session.Session) {
	t.Helper()
	want := engine.Evaluate(s.Computer.Scorer, wholeTrajectories(t, s)).Compute(s.Result.Options)
	if !slices.Equal(s.Result.Rewards, want.Rewards) || len(s.Result.Ranking.Batches) != len(want.Ranking.Batches) {
		t.Fatalf("the live result differs from computing everything (%d batches, want %d)", len(s.Result.Ranking.Batches), len(want.Ranking.Batches))
	}
}

// TestLiveFollowsTheNewestBatch: new batches appear as they arrive and
// the view follows the newest, marked LIVE, until the user moves to
// another batch; it then stays there as batches come, and F returns to
// the newest.
func TestLiveFollowsTheNewestBatch(t *testing.T) {
	m, _ := newLiveModel(t)
	if h := headerOf(m); !strings.Contains(h, "● LIVE batch 20/20 step 19") {
		t.Fatalf("header %q", h)
	}
	_, more := sampleSteps(t, 20, 25)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if h := headerOf(m); !strings.Contains(h, "● LIVE batch 25/25 step 24") {
		t.Fatalf("after 5 batches, header %q", h)
	}
	checkComputedAsWhole(t, m.Session())

	press(m, "[")
	if h := headerOf(m); !strings.Contains(h, "paused, F follows · batch 24/25 step 23") {
		t.Fatalf("after [, header %q", h)
	}
	_, more = sampleSteps(t, 25, 30)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if h := headerOf(m); !strings.Contains(h, "batch 24/30 step 23") {
		t.Fatalf("paused, new batches moved the view: %q", h)
	}
	press(m, "F")
	if h := headerOf(m); !strings.Contains(h, "● LIVE batch 30/30 step 29") {
		t.Fatalf("after F, header %q", h)
	}
	checkComputedAsWhole(t, m.Session())
}

// TestLiveReloadDropsItsError: the error about a malformed line of a
// followed file goes when the file is read again from the start without
// it, and stays when the new content has it too.
func TestLiveReloadDropsItsError(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	source := s.Trajectories.At(0).Source
	lineErr := fmt.Errorf("%s:4:17: invalid JSON", source)
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: lineErr}}}, true})
	if v := screen(m); !strings.Contains(v, "following: "+source+":4:17: invalid JSON") {
		t.Fatalf("the malformed line is not said:\n%s", v)
	}
	_, again := sampleSteps(t, 0, 5)
	m.Update(liveMsg{loaders.Update{Trajectories: again, Reloaded: []string{source}, Errs: []loaders.FileError{{Path: source, Err: lineErr}}}, true})
	if v := screen(m); !strings.Contains(v, "following: "+source+":4:17") {
		t.Errorf("read again with the malformed line still in it, the error went:\n%s", v)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: again, Reloaded: []string{source}}, true})
	if v := screen(m); strings.Contains(v, "invalid JSON") || !strings.Contains(v, "read again from the start: "+source) {
		t.Errorf("read again without the malformed line, its error stays:\n%s", v)
	}
	// The error is known to be the file's by the update's FileErrs, not by
	// its text starting with the file's name.
	reworded := fmt.Errorf("invalid JSON in line 4 of %s", source)
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: reworded}}}, true})
	m.Update(liveMsg{loaders.Update{Trajectories: again, Reloaded: []string{source}}, true})
	if v := screen(m); strings.Contains(v, "invalid JSON") {
		t.Errorf("read again without the malformed line, its error worded otherwise stays:\n%s", v)
	}
}

// TestLiveSaysEveryFilesError: an update with errors in several files
// says each file's (its first line), not the first file's alone; a file
// read again from the start loses its own, the others' stay; a later
// update's error of one file replaces that file's alone: another, still
// failing and not said again (the follower says an error once), stays.
func TestLiveSaysEveryFilesError(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	source := s.Trajectories.At(0).Source
	lineErr := fmt.Errorf("%s:4:17: invalid JSON", source)
	otherErr := errors.Join(errors.New("other.jsonl: permission denied"), errors.New("other.jsonl.1: permission denied"))
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: lineErr}, {Path: "other.jsonl", Err: otherErr}}}, true})
	warnings := func() string { return strings.Join(m.status.Warnings(), "\n") }
	for _, want := range []string{"following: " + source + ":4:17: invalid JSON", "following: other.jsonl: permission denied"} {
		if w := warnings(); !strings.Contains(w, want) {
			t.Errorf("%q is not said:\n%s", want, w)
		}
	}
	_, again := sampleSteps(t, 0, 5)
	m.Update(liveMsg{loaders.Update{Trajectories: again, Reloaded: []string{source}}, true})
	if w := warnings(); strings.Contains(w, "invalid JSON") || !strings.Contains(w, "following: other.jsonl: permission denied") {
		t.Errorf("%s read again: want its error gone and other.jsonl's kept:\n%s", source, w)
	}
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: lineErr}}}, true})
	if w := warnings(); !strings.Contains(w, "following: other.jsonl: permission denied") || !strings.Contains(w, "invalid JSON") {
		t.Errorf("another file's error replaces other.jsonl's, still failing:\n%s", w)
	}
	badRow := fmt.Errorf("%s:9:2: invalid JSON", source)
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: badRow}}}, true})
	if w := warnings(); strings.Contains(w, ":4:17:") || strings.Count(w, "following: "+source) != 1 {
		t.Errorf("a file's new error does not replace its own:\n%s", w)
	}
	m.Update(liveMsg{loaders.Update{Gone: []string{"other.jsonl"}}, true})
	if w := warnings(); strings.Contains(w, "permission denied") {
		t.Errorf("other.jsonl gone, its error stays:\n%s", w)
	}
}

// TestLiveErrorGoesWhenRecovered: a file's "not read: it changed ..."
// error goes once the file is read well (Recovered), its rows coming as
// growth, not as a reload; another file's stays.
func TestLiveErrorGoesWhenRecovered(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	source := s.Trajectories.At(0).Source
	notRead := fmt.Errorf("%s: not read: it changed while each of its last 10 readings read it, the last failing (EOF); read again at each check until one finds it unchanged", source)
	denied := errors.New("other.jsonl: permission denied")
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: source, Err: notRead}, {Path: "other.jsonl", Err: denied}}}, true})
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more, Recovered: []string{source}}, true})
	if w := strings.Join(m.status.Warnings(), "\n"); strings.Contains(w, "not read") || !strings.Contains(w, "permission denied") {
		t.Errorf("%s read well: want its error gone, other.jsonl's kept:\n%s", source, w)
	}
}

// TestLiveReloadAndGone: a file read again replaces its trajectories (and
// says so), a file gone is reported in the status line, and what was
// loaded stays.
func TestLiveReloadAndGone(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	source := s.Trajectories.At(0).Source
	_, again := sampleSteps(t, 0, 5)
	m.Update(liveMsg{loaders.Update{Trajectories: again, Reloaded: []string{source}}, true})
	if s.Trajectories.Len() != len(again) || len(s.Result.Ranking.Batches) != 5 {
		t.Fatalf("after the reload: %d trajectories in %d batches, want the %d read again", s.Trajectories.Len(), len(s.Result.Ranking.Batches), len(again))
	}
	checkComputedAsWhole(t, s)
	if v := screen(m); !strings.Contains(v, "read again from the start: "+source) {
		t.Errorf("the reload is not in the status line:\n%s", v)
	}
	m.Update(liveMsg{loaders.Update{Gone: []string{source}}, true})
	if v := screen(m); !strings.Contains(v, source+" is gone; what was loaded from it stays") || s.Trajectories.Len() != len(again) {
		t.Errorf("the vanished file is not reported, or its trajectories went:\n%s", v)
	}
	m.Update(liveMsg{ok: false})
	if h := headerOf(m); strings.Contains(h, "LIVE") {
		t.Errorf("the follower stopped, but the header says %q", h)
	}
}

// TestLiveEmptiedFile: a followed file read again empty (logrotate's
// copytruncate) leaves nothing to show: its trajectories stay on every tab,
// said to be stale, until new lines come and replace them; the notice of
// the reload then goes.
func TestLiveEmptiedFile(t *testing.T) {
	m, _ := newLiveModel(t)
	s := m.Session()
	source := s.Trajectories.At(0).Source
	before := s.Trajectories.Len()
	m.Update(liveMsg{loaders.Update{Reloaded: []string{source}}, true})
	for _, tab := range []string{"1", "2", "3", "4", "5", "6"} {
		press(m, tab)
		if v := screen(m); !strings.Contains(v, source+" emptied; its old lines stay until new ones come") {
			t.Fatalf("tab %s after the file was emptied:\n%s", tab, v)
		}
	}
	if s.Trajectories.Len() != before || !strings.Contains(headerOf(m), "● LIVE batch 20/20 step 19") {
		t.Fatalf("emptied: %d trajectories (want the %d shown before), header %q", s.Trajectories.Len(), before, headerOf(m))
	}

	_, fresh := sampleSteps(t, 30, 32)
	m.Update(liveMsg{loaders.Update{Trajectories: fresh[:10]}, true})
	if s.Trajectories.Len() != 10 || !strings.Contains(headerOf(m), "● LIVE batch 1/1 step 30") {
		t.Fatalf("new lines after the emptying: %d trajectories, header %q; want only the 10 new", s.Trajectories.Len(), headerOf(m))
	}
	checkComputedAsWhole(t, s)
	if v := screen(m); strings.Contains(v, "emptied") || !strings.Contains(v, "read again from the start") {
		t.Fatalf("after the first new lines, the status line should keep the reload notice only:\n%s", v)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: fresh[10:]}, true})
	if v := screen(m); strings.Contains(v, "read again from the start") || s.Trajectories.Len() != len(fresh) {
		t.Fatalf("lines only: the reload notice should go (and %d trajectories be %d):\n%s", s.Trajectories.Len(), len(fresh), v)
	}
	checkComputedAsWhole(t, s)
}

// TestLiveEmptiedFileAmongOthers: a followed file read again empty
// beside others keeps its steps on the dashboard, said to be stale (not
// a notice that it was read again), until new lines of it come and
// replace them; it took them off at once, the newest step with them.
func TestLiveEmptiedFileAmongOthers(t *testing.T) {
	cfg, ts := sampleSteps(t, 0, 20)
	for i := range ts {
		ts[i].Source = "a.jsonl"
		if ts[i].Batch >= 10 {
			ts[i].Source = "b.jsonl"
		}
	}
	s := uitest.FollowedSession(t, "run", cfg, &loaders.Result{Trajectories: ts})
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(liveMsg{loaders.Update{Reloaded: []string{"b.jsonl"}}, true})
	v := screen(m)
	if s.Trajectories.Len() != len(ts) || !strings.Contains(headerOf(m), "● LIVE batch 20/20 step 19") {
		t.Fatalf("b.jsonl emptied: %d trajectories (want the %d shown before), header %q", s.Trajectories.Len(), len(ts), headerOf(m))
	}
	if !strings.Contains(v, "b.jsonl emptied; its old lines stay until new ones come") || strings.Contains(v, "read again from the start") {
		t.Fatalf("the status line does not say b.jsonl's lines are stale:\n%s", v)
	}
	_, fresh := sampleSteps(t, 30, 32)
	for i := range fresh {
		fresh[i].Source = "b.jsonl"
	}
	m.Update(liveMsg{loaders.Update{Trajectories: fresh}, true})
	if len(s.Result.Ranking.Batches) != 12 || !strings.Contains(headerOf(m), "● LIVE batch 12/12 step 31") {
		t.Fatalf("new lines of b.jsonl: %d batches, header %q; want a.jsonl's 10 and the 2 new", len(s.Result.Ranking.Batches), headerOf(m))
	}
	checkComputedAsWhole(t, s)
	if v := screen(m); strings.Contains(v, "emptied") {
		t.Fatalf("the new lines came, the status line still says emptied:\n%s", v)
	}
}

// TestLivePartialStep: a step of which fewer rows than the step before
// came while following is said, in the status line, to be maybe read
// in part, its findings (the badge's) provisional, until the rest comes,
// or until nothing has come for follow.Quiet: a short step complete (its
// file written whole) is then taken as such. The note stayed for good on
// a complete short last step.
func TestLivePartialStep(t *testing.T) {
	m, _ := newLiveModel(t)
	_, step20 := sampleSteps(t, 20, 21)
	m.Update(liveMsg{loaders.Update{Trajectories: step20[:40]}, true})
	const note = "step 20 may be read in part (fewer rows than the step before; taken as complete"
	if v := screen(m); !strings.Contains(v, note) {
		t.Fatalf("40 rows of step 20's 128:\n%s", v)
	}
	m.Update(liveMsg{loaders.Update{Trajectories: step20[40:]}, true})
	if v := screen(m); strings.Contains(v, "step 20 may be read in part") {
		t.Fatalf("the rest of step 20 came:\n%s", v)
	}

	// The quiet timers of two updates land: the first's, which the
	// second overtook, changes nothing.
	m, _ = newLiveModel(t)
	m.Update(liveMsg{loaders.Update{Trajectories: step20[:40]}, true})
	overtaken := quietMsg{m.live.received}
	m.Update(liveMsg{loaders.Update{Trajectories: step20[40:60]}, true})
	m.Update(overtaken)
	if v := screen(m); !strings.Contains(v, note) {
		t.Fatalf("rows came after the quiet timer started, the note went:\n%s", v)
	}
	m.Update(quietMsg{m.live.received})
	if v := screen(m); strings.Contains(v, "step 20 may be read in part") {
		t.Fatalf("nothing came for the quiet interval, the note stays:\n%s", v)
	}
	// Rows come to it again: a guess again.
	m.Update(liveMsg{loaders.Update{Trajectories: step20[60:70]}, true})
	if v := screen(m); !strings.Contains(v, note) {
		t.Fatalf("more rows of step 20 came, not said maybe read in part:\n%s", v)
	}
}

// TestLivePartialStepProvisional: the findings of a followed step
// probably read in part are provisional, as stats --follow grades them:
// marked with follow.Partial's why, its ALERT counted at WARN by the
// header's badge; once nothing has come for follow.Quiet the step is
// taken as complete and graded again, its ALERT the badge's. The
// badge counted the ALERT of a step read in part as any other.
func TestLivePartialStepProvisional(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "6") // the Steps tab, whose findings ? lists
	_, step20 := sampleSteps(t, 20, 21)
	for i := range step20 {
		step20[i].StepCount = 1000 // length_drift's ALERT, far past the baseline's
	}
	m.Update(liveMsg{loaders.Update{Trajectories: step20[:40]}, true})
	m.Settle()
	s := m.common.Session
	const why = "fewer rows than step 19's 128, rows of it having come while following: its run is probably still writing it"
	drift := func() *health.Finding {
		i := slices.IndexFunc(s.Findings(), func(f health.Finding) bool {
			return f.Step == 20 && f.Check == health.CheckLengthDrift && f.Level == health.Alert
		})
		if i < 0 {
			t.Fatalf("no length_drift ALERT at step 20: %+v", s.Findings())
		}
		return &s.Findings()[i]
	}
	if f := drift(); f.Provisional != why {
		t.Errorf("step 20 read in part: its ALERT provisional %q, want %q", f.Provisional, why)
	}
	if h := headerOf(m); strings.Contains(h, "alert") || strings.Contains(h, "✖") {
		t.Errorf("the header's badge counts the ALERT of a step read in part: %q", h)
	}
	if texts := m.findingTexts(); !slices.ContainsFunc(texts, func(x string) bool { return strings.HasSuffix(x, "; provisional: "+why) }) {
		t.Errorf("? does not say why step 20's findings are provisional: %q", texts)
	}
	if v := screen(m); !strings.Contains(v, "length_drift (provisional):") {
		t.Errorf("the Steps tab does not mark step 20's ALERT provisional:\n%s", v)
	}

	m.Update(quietMsg{m.live.received})
	if s.HealthReady() {
		t.Fatal("step 20 taken as complete: the health graded provisionally is still the current one")
	}
	m.Settle()
	if f := drift(); f.Provisional != "" {
		t.Errorf("step 20 taken as complete: its ALERT still provisional %q", f.Provisional)
	}
	if h := headerOf(m); !strings.Contains(h, "alert") {
		t.Errorf("step 20 taken as complete: no ALERT in the header's badge: %q", h)
	}
}

// TestLivePartialStepBaseline: in a run of as many steps as the
// baseline's setting, the newest read in part, the Steps tab says the
// baseline the health used (health.BaselineLen), the steps before it;
// it said the setting's.
func TestLivePartialStepBaseline(t *testing.T) {
	cfg, ts := sampleSteps(t, 0, 2)
	s := uitest.FollowedSession(t, "run.jsonl", cfg, &loaders.Result{Trajectories: ts})
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "6")
	_, step2 := sampleSteps(t, 2, 3)
	m.Update(liveMsg{loaders.Update{Trajectories: step2[:40]}, true})
	m.Settle()
	if v := screen(m); !strings.Contains(v, "health against the first 2 batches") {
		t.Errorf("step 2 read in part, out of the baseline of 3: the Steps tab does not say the 2 batches before it:\n%s", v)
	}
	m.Update(quietMsg{m.live.received})
	m.Settle()
	if v := screen(m); !strings.Contains(v, "health against the first 3 batches") {
		t.Errorf("step 2 taken as complete: the Steps tab does not say a baseline of 3 batches:\n%s", v)
	}
}

// TestLiveAfterOptionChange: an update that lands while a recompute for
// new options is in flight is shown at once, and the recompute, made for
// the evaluation it replaced, is made again on the new one.
func TestLiveAfterOptionChange(t *testing.T) {
	m, _ := newLiveModel(t)
	_, recompute := m.Update(uitest.KeyPress("m")) // next method: a recompute in flight
	// It runs on its own goroutine, as in a program, while the update is
	// applied (the race detector watches).
	landed := make(chan tea.Msg, 1)
	go func() { landed <- recompute() }()
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	recompute = func() tea.Msg { return <-landed }
	s := m.Session()
	if len(s.Result.Ranking.Batches) != 22 {
		t.Fatalf("the update is not shown at once: %d batches", len(s.Result.Ranking.Batches))
	}
	runCommands(m, recompute, func() bool { return s.Result.Options.Method == s.Options.Method })
	if s.Result.Options.Method != s.Options.Method || len(s.Result.Ranking.Batches) != 22 {
		t.Fatalf("shown: %s over %d batches, want %s over 22", s.Result.Options.Method, len(s.Result.Ranking.Batches), s.Options.Method)
	}
	checkComputedAsWhole(t, s)
}

// runCommands runs cmd and the commands its messages lead to, as a
// program would, until done holds or none is left.
func runCommands(m *Model, cmd tea.Cmd, done func() bool) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 && !done() {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if batch, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, batch...)
			continue
		}
		_, next := m.Update(msg)
		queue = append(queue, next)
	}
}

// TestLiveEndToEnd follows a real file from the loading screen: the
// dashboard opens on what is there, shows the batches appended to it, and
// no goroutine outlives the follower once its context ends.
func TestLiveEndToEnd(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent()) // other tests' programs may linger
	cfg, first := sampleSteps(t, 0, 3)
	_, later := sampleSteps(t, 3, 5)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, jsonLines(t, first), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{Source: path, Config: cfg, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Progress: hooks.Progress, Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	lm := newLoadingModel(in, true)
	lm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	next, _ := lm.Update(lm.load())
	app, ok := next.(*Model)
	if !ok {
		t.Fatalf("the load gave %T: %v", next, lm.err)
	}
	if h := headerOf(app); !strings.Contains(h, "LIVE batch 3/3") {
		t.Fatalf("header %q", h)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(jsonLines(t, later))
	f.Close()
	for len(app.Session().Result.Ranking.Batches) < 5 {
		app.Update(app.live.wait()())
	}
	if h := headerOf(app); !strings.Contains(h, "LIVE batch 5/5 step 4") {
		t.Fatalf("header %q", h)
	}
	checkComputedAsWhole(t, app.Session())
	cancel()
	for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
	}
}

// jsonLines writes trajectories back as JSONL (the fields the sample
// uses).
func jsonLines(t *testing.T, ts []scoring.Trajectory) []byte {
	t.Helper()
	var b []byte
	for _, tr := range ts {
		line, err := json.Marshal(map[string]any{"id": tr.ID, "batch": tr.Batch, "group": tr.Group, "step_count": tr.StepCount, "metadata": tr.Metadata})
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	return b
}

// TestLiveRelogged: a TRL table that appeared while following and was
// left out as repeating the one before it (loaders.Update.Relogged) is
// said in the status line, as the first reading's are.
func TestLiveRelogged(t *testing.T) {
	m, _ := newLiveModel(t)
	m.Update(liveMsg{loaders.Update{Relogged: []loaders.Relogged{{Path: "run/completions_00004.parquet", Step: 4, OfStep: 3}}}, true})
	want := "following: step 4 repeats the rollouts logged at step 3: TRL logs a generation again until the next one (num_iterations / steps_per_generation); left out (run/completions_00004.parquet)"
	if w := m.status.Warnings(); !slices.Contains(w, want) {
		t.Errorf("warnings %q, want %q among them", w, want)
	}
}

// TestLiveReloggedWhileWaiting: a run followed from no trajectory, whose
// first update leaves a re-logged table out, says so as a first reading
// that left it out would: the wait for the first trajectories kept the
// update's trajectories but dropped its re-logged tables.
func TestLiveReloggedWhileWaiting(t *testing.T) {
	first, err := loaders.Read(strings.NewReader(`{"id":"a","group":"g","batch":1,"metadata":{"x":1}}`+"\n"+`{"id":"b","group":"g","batch":1,"metadata":{"x":0}}`+"\n"), "run/completions_00001.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	updates := make(chan loaders.Update, 1)
	updates <- loaders.Update{Trajectories: first.Trajectories, Relogged: []loaders.Relogged{{Path: "run/completions_00002.jsonl", Step: 2, OfStep: 1}}}
	in := Input{Source: "run", Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return &loaders.Result{}, updates, nil
	}}
	s, _, _, err := in.followedSession(func(int64, int64) {}, func([]loaders.Unended) {})
	if err != nil {
		t.Fatal(err)
	}
	want := "step 2 repeats the rollouts logged at step 1: "
	if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("warnings %q, want one starting %q", s.Warnings, want)
	}
}

// TestLiveBadgeSaysAnUnreadFile: a followed file that cannot be read is
// said by the header's health badge, and by the Steps tab's health
// title, in place of "✓ healthy", until it is read (Recovered); a
// malformed line leaves no file unread.
func TestLiveBadgeSaysAnUnreadFile(t *testing.T) {
	m, _ := newLiveModel(t)
	denied := errors.New("open run/a_1.jsonl: permission denied")
	malformed := &loaders.MalformedError{Path: "run.jsonl", Skipped: 1}
	m.Update(liveMsg{loaders.Update{Errs: []loaders.FileError{{Path: "run/a_1.jsonl", Err: denied}, {Path: "run.jsonl", Err: malformed}}}, true})
	m.Settle()
	// At 120 columns the mark is short beside the method's label
	// (TestGoldenHeaderUnread); the Steps tab names the file.
	if h := headerOf(m); !strings.HasSuffix(strings.TrimRight(h, " "), "  ⚠ 1 unread") || !strings.Contains(h, "method: ") {
		t.Errorf("a file not read: header %q", h)
	}
	m.Update(uitest.KeyPress("6"))
	m.Settle()
	if v := screen(m); !strings.Contains(v, "⚠ a_1.jsonl unread") || strings.Count(v, "unread") != 2 {
		t.Errorf("the Steps tab's health title does not say the file not read:\n%s", v)
	}
	_, more := sampleSteps(t, 20, 21)
	m.Update(liveMsg{loaders.Update{Trajectories: more, Recovered: []string{"run/a_1.jsonl"}}, true})
	m.Settle()
	if h := headerOf(m); strings.Contains(h, "unread") || !strings.Contains(h, "✓ healthy") {
		t.Errorf("the file read at last: header %q", h)
	}
}

// TestLiveSaysFilesLeftOut: files that appeared while following and are
// not read (loaders.Update.LeftOut) are said in the status line, in the
// words of the note on those there at the start, those of later updates
// joining them (and those of the wait for the first trajectories:
// TestFollowLeftOutWhileWaitingJoinsLater).
func TestLiveSaysFilesLeftOut(t *testing.T) {
	m, _ := newLiveModel(t)
	bz2 := loaders.LeftOutFile{Path: "run/step_3.jsonl.bz2", Why: "compressed with bzip2, which is not read: decompress it, or gzip it"}
	rotated := loaders.LeftOutFile{Path: "run/step_3.jsonl.1", Why: "a rotated log, not read"}
	m.Update(liveMsg{loaders.Update{LeftOut: []loaders.LeftOutFile{bz2}}, true})
	m.Update(liveMsg{loaders.Update{LeftOut: []loaders.LeftOutFile{rotated}}, true})
	want := "following: left out run/step_3.jsonl.bz2 (compressed with bzip2, which is not read: decompress it, or gzip it), run/step_3.jsonl.1 (a rotated log, not read)"
	if w := m.status.Warnings(); !slices.Contains(w, want) {
		t.Errorf("warnings %q, want %q among them", w, want)
	}
}
