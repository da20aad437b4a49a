package ui

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestFollowKeepsTheLoggedAdvantage: following a run with logged
// advantages, lines appended keep the logged values of the trajectories
// before them and bring their own, so that the Trajectories tab's logged
// column and the Compare tab's comparison with the log stay the
// trainer's. They were dropped by the append: the logged column showed
// the computed rewards, and Compare compared nothing.
func TestFollowKeepsTheLoggedAdvantage(t *testing.T) {
	line := func(i int) string {
		return fmt.Sprintf(`{"id":"t%d","group":"g%d","batch":%d,"metadata":{"x":%d,"adv":%g}}`+"\n", i, i/4, i/8, i%4, 0.25*float64(i%4)-0.375)
	}
	var text strings.Builder
	for i := range 8 {
		text.WriteString(line(i))
	}
	app, path, stop := followLogged(t, text.String(), 120)
	var more strings.Builder
	for i := 8; i < 16; i++ {
		more.WriteString(line(i))
	}
	appendLogged(t, app, path, more.String(), 16)
	s := app.Session()
	if len(s.Evaluation.Logged) != 16 {
		t.Fatalf("logged advantages of %d trajectories, want 16", len(s.Evaluation.Logged))
	}
	for i, got := range s.Evaluation.Logged {
		if want := 0.25*float64(i%4) - 0.375; got != want || math.IsNaN(got) {
			t.Errorf("trajectory %d: logged %v, want %v", i, got, want)
		}
	}
	press(app, "7", "b") // B: rloo, ..., then logged (methodsB)
	for s.CompareMethod != session.LoggedMethod {
		press(app, "b")
	}
	if v := screen(app); !strings.Contains(v, "compared      8 trajectories") {
		t.Errorf("Compare against the log on the batch shown:\n%s", v)
	}
	stop()
}

// TestFollowLoggedWarningFollowsTheRun: the warning that the logged
// advantages differ from the rewards counts the rows of the whole run as
// it grows, names the settings that reproduce them, as compute does, and
// goes once the settings on screen reproduce the log. It stayed the first
// batch's count, under the settings of the open, whatever the user set,
// then named the steps but not the settings.
func TestFollowLoggedWarningFollowsTheRun(t *testing.T) {
	// The log is Dr. GRPO's, x - mean(x) unscaled: grpo scale none.
	line := func(i int) string {
		return fmt.Sprintf(`{"id":"t%d","group":"g%d","batch":%d,"metadata":{"x":%d,"adv":%g}}`+"\n", i, i/4, i/8, i%4, float64(i%4)-1.5)
	}
	var text strings.Builder
	for i := range 8 {
		text.WriteString(line(i))
	}
	app, path, stop := followLogged(t, text.String(), 200)
	// The health known: an update computes it, with no job.
	app.Settle()
	// The warnings the help lists.
	help := func() string {
		return strings.Join(app.status.Warnings(), "\n")
	}
	if v := help(); !strings.Contains(v, "8 of 8 rows differ from the logged advantage") || !strings.Contains(v, "--scale none") {
		t.Errorf("at the open, the help does not give the check of the first batch:\n%s", v)
	}
	var more strings.Builder
	for i := 8; i < 16; i++ {
		more.WriteString(line(i))
	}
	appendLogged(t, app, path, more.String(), 16)
	app.Settle() // the health job, which counts the rows again
	const run = "16 of 16 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.338) under grpo, scale group, epsilon 0.0001; `--scale none` reproduces it to 0 (--match-logged applies it)"
	if v := help(); !strings.Contains(v, run) {
		t.Errorf("after step 1 came, the help does not say %q:\n%s", run, v)
	}
	press(app, "n", "n") // scale batch, then off: the log's setting
	if v := help(); strings.Contains(v, "logged advantage") {
		t.Errorf("under the log's settings, a warning stays:\n%s", v)
	}
	stop()
}

// TestFollowCountsLoggedNotCompared: following, the status line's count of
// the logged advantages that are NaN or infinite grows with the lines
// appended, as the evaluation's does.
func TestFollowCountsLoggedNotCompared(t *testing.T) {
	line := func(i int, adv string) string {
		return fmt.Sprintf(`{"id":"t%d","group":"g","batch":%d,"metadata":{"x":%d,"adv":%s}}`+"\n", i, i/4, i%4, adv)
	}
	text := line(0, "NaN") + line(1, "0.5") + line(2, "-0.5") + line(3, "0")
	app, path, stop := followLogged(t, text, 120)
	want := "1 row's logged advantage is NaN or infinite (the first: " + path + ":1: NaN)"
	if !slices.ContainsFunc(app.status.Warnings(), func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("warnings %q, want one starting %q", app.status.Warnings(), want)
	}
	appendLogged(t, app, path, line(4, "Infinity")+line(5, "1"), 6)
	want = "2 rows' logged advantage is NaN or infinite (the first: " + path + ":1: NaN)"
	if !slices.ContainsFunc(app.status.Warnings(), func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("after the append: warnings %q, want one starting %q", app.status.Warnings(), want)
	}
	stop()
}

// followLogged returns the dashboard, width cells wide, following a new
// file holding text under grpo, the records' logged advantage adv, the
// file's path, and stop, which ends following and drains its updates.
func followLogged(t *testing.T, text string, width int) (app *Model, path string, stop func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	in := Input{Source: path, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	in.Config.LoggedAdvantage = "adv"
	in.Config.Method = "grpo"
	app = loadModel(t, in, width)
	return app, path, func() {
		cancel()
		for msg := app.live.wait()(); msg.(liveMsg).ok; msg = app.live.wait()() {
		}
	}
}

// appendLogged appends text to the file at path that app follows, and
// takes its updates until the session holds n trajectories.
func appendLogged(t *testing.T, app *Model, path, text string, n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for app.Session().Trajectories.Len() < n {
		app.Update(app.live.wait()())
	}
}

// TestFollowLoggedCountOffTheLoop: following, the rows that differ from
// the log are counted again over the whole run after each update by a
// command, off the event loop: the update's handling leaves the warning as
// it was, and once the count lands it is the warning counted from
// scratch. A count that lands after a newer update is shown, said to be
// of the rows it counted, and that update's count follows.
func TestFollowLoggedCountOffTheLoop(t *testing.T) {
	// The log is Dr. GRPO's, x - mean(x) unscaled: grpo scale none.
	line := func(i int) string {
		return fmt.Sprintf(`{"id":"t%d","group":"g%d","batch":%d,"metadata":{"x":%d,"adv":%g}}`+"\n", i, i/4, i/8, i%4, float64(i%4)-1.5)
	}
	lines := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	app, path, stop := followLogged(t, lines(0, 8), 200)
	app.Settle() // the health known: an update computes it, with no job
	s := app.Session()
	fromScratch := func() string {
		return agreement.MatchLogged(s.Result.Evaluation, s.Result.Options).Warning()
	}
	opened := s.LoggedWarning()
	appendLogged(t, app, path, lines(8, 16), 16)
	if got := s.LoggedWarning(); got != opened {
		t.Errorf("the update counted the rows on the event loop: %q, was %q", got, opened)
	}
	stale := app.live.counting
	if stale == nil {
		t.Fatal("no count of the rows after the update")
	}
	appendLogged(t, app, path, lines(16, 24), 24)
	app.Update(stale())
	const behind = "16 of 16 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.338) under grpo, scale group, epsilon 0.0001; `--scale none` reproduces it to 0 (--match-logged applies it) (as of 16 rows; counting again)"
	if w := strings.Join(app.status.Warnings(), "\n"); !strings.Contains(w, behind) {
		t.Errorf("the count of the update before, landed after the next, not shown as of its rows: %q", w)
	}
	if app.live.counting == nil {
		t.Fatal("no count for the last update once the stale one landed")
	}
	app.Settle()
	if got, want := s.LoggedWarning(), fromScratch(); got != want || got == opened || !strings.Contains(got, "24 of 24 rows differ") {
		t.Errorf("after the count: %q, want %q (at the open %q)", got, want, opened)
	}
	if w := strings.Join(app.status.Warnings(), "\n"); !strings.Contains(w, fromScratch()) {
		t.Errorf("the status line does not say the count:\n%s", w)
	}
	stop()
}
