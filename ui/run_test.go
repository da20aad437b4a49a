package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// newTestLoading returns the loading screen on load, at 120x40, without
// colour.
func newTestLoading(t *testing.T, load func(progress func(done, total int64)) (*loaders.Result, error)) *loadingModel {
	t.Helper()
	cfg, _ := sampletest.Read(t)
	m := newLoadingModel(Input{Source: "sample", Config: cfg, Load: load, Warnings: []string{"from the caller"}}, true)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

func TestLoadingOpensTheDashboard(t *testing.T) {
	_, res := sampletest.Read(t)
	m := newTestLoading(t, func(progress func(done, total int64)) (*loaders.Result, error) {
		progress(100, 100)
		return res, nil
	})
	next, _ := m.Update(m.load())
	app, ok := next.(*Model)
	if !ok {
		t.Fatalf("after the load the model is a %T, want the dashboard", next)
	}
	v := screen(app)
	for _, want := range []string{"method: pareto", "frac_zero_std_groups", "from the caller", "3 invalid trajectories"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dashboard does not show %q at the loading screen's size:\n%s", want, v)
		}
	}
}

// TestLoadingCallsOpened: Input.Opened (where cmd paces the collector) is
// called once the session is built, not before.
func TestLoadingCallsOpened(t *testing.T) {
	_, res := sampletest.Read(t)
	m := newTestLoading(t, func(progress func(done, total int64)) (*loaders.Result, error) { return res, nil })
	opened := 0
	m.in.Opened = func() { opened++ }
	msg := m.load()
	if opened != 0 {
		t.Fatalf("Opened called %d times while loading", opened)
	}
	if next, _ := m.Update(msg); opened != 1 {
		t.Errorf("Opened called %d times once the dashboard (%T) opened, want 1", opened, next)
	}
}

// TestLoadingShowsProgress holds the load midway: the screen shows the
// bytes read, and q still quits.
func TestLoadingShowsProgress(t *testing.T) {
	midway, release := make(chan struct{}), make(chan struct{})
	m := newTestLoading(t, func(progress func(done, total int64)) (*loaders.Result, error) {
		progress(512, 2048)
		close(midway)
		<-release
		return nil, errors.New("cancelled")
	})
	done := make(chan tea.Msg)
	go func() { done <- m.load() }()
	<-midway
	if v := screen(m); !strings.Contains(v, "read 512 B of 2.0 KiB") || !strings.Contains(v, "25%") {
		t.Errorf("the loading screen does not show 512 B of 2 KiB read:\n%s", v)
	}
	if _, cmd := m.Update(uitest.KeyPress("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit during the load")
	}
	close(release)
	<-done
}

// TestLoadingError shows the error sanitised: a file name or a message
// quoting data must not reach the terminal's escape sequences.
func TestLoadingError(t *testing.T) {
	m := newTestLoading(t, func(func(done, total int64)) (*loaders.Result, error) {
		return nil, errors.New("bad.jsonl:3: unexpected \x1b]52;c;cHduZWQ=\x07 in input")
	})
	m.Update(m.load())
	if m.err == nil {
		t.Fatal("the load error is lost")
	}
	v := m.View().Content
	if strings.Contains(v, "\x1b]52") || !strings.Contains(v, `\x1b]52;c;cHduZWQ=\x07`) {
		t.Errorf("the error is not shown escaped:\n%q", v)
	}
	if _, cmd := m.Update(uitest.KeyPress("x")); cmd == nil || cmd() != tea.Quit() {
		t.Error("a key does not quit after an error")
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNoColorLoadingScreenHasNoEscapes(t *testing.T) {
	m := newTestLoading(t, nil)
	m.read.done.Store(1024)
	m.read.total.Store(4096)
	if v := m.View().Content; strings.Contains(v, "\x1b[3") || strings.Contains(v, "\x1b[4") {
		t.Errorf("colours with NO_COLOR:\n%q", v)
	}
}

// TestDashboardSaysInferredObjectives: opened without objectives, the
// dashboard's status line says in a few words that objectives were
// inferred, leaving the line to the warnings, and ? says which and their
// goals whole, as compute says them on stderr; at 80 and 120 columns.
func TestDashboardSaysInferredObjectives(t *testing.T) {
	cfg, res := sampletest.Read(t)
	cfg.Objectives, cfg.Minimize, cfg.Weights = nil, []string{"response_length"}, nil
	const whole = "objectives inferred from the first record: accuracy, initial_budget, max_steps, response_length (min), safety, verification_spent (the others max: --objective or --minimize to choose)"
	for _, width := range []int{80, 120} {
		m := newLoadingModel(Input{Source: "sample", Config: cfg, Load: func(func(done, total int64)) (*loaders.Result, error) { return res, nil }}, true)
		m.Update(tea.WindowSizeMsg{Width: width, Height: 40})
		next, _ := m.Update(m.load())
		app, ok := next.(*Model)
		if !ok {
			t.Fatalf("after the load the model is a %T, want the dashboard:\n%s", next, ansi.Strip(next.View().Content))
		}
		line := app.status.View(app.common.Styles, width)
		if !strings.HasPrefix(line, "6 objectives inferred (? says which) · ") || strings.Contains(line, "from the first record") {
			t.Errorf("at %d columns the status line %q does not say the objectives inferred in few words", width, line)
		}
		if layout := app.status.Layout(); !strings.Contains(layout, whole) {
			t.Errorf("? is given %q, which lacks %q", layout, whole)
		}
		press(app, "?")
		var words []string
		for _, l := range strings.Split(screen(app), "\n") {
			words = append(words, strings.Fields(strings.Trim(l, "│ "))...)
		}
		if v := strings.Join(words, " "); !strings.Contains(v, whole) {
			t.Errorf("at %d columns ? does not say the objectives inferred whole:\n%s", width, screen(app))
		}
	}
}

// TestLoadingKeepsTabAndMethodKeys: the keys that choose a tab or a
// method, pressed while loading, apply once the dashboard opens, in
// order (7 then 3: the Objectives tab; m: the next method; b on the
// Compare tab: the next method B, on another tab: nothing); the others
// are dropped, and the screen says that the keys will apply.
func TestLoadingKeepsTabAndMethodKeys(t *testing.T) {
	_, res := sampletest.Read(t)
	m := newTestLoading(t, func(func(done, total int64)) (*loaders.Result, error) { return res, nil })
	if v := screen(m); !strings.Contains(v, "apply once it opens") {
		t.Errorf("the loading screen does not say that keys will apply:\n%s", v)
	}
	for _, k := range []string{"b", "7", "b", "b", "enter", "3", "m", "down", "b"} {
		if _, cmd := m.Update(uitest.KeyPress(k)); cmd != nil {
			t.Errorf("%s while loading asks for a command", k)
		}
	}
	next, cmd := m.Update(m.load())
	app, ok := next.(*Model)
	if !ok {
		t.Fatalf("after the load the model is a %T, want the dashboard", next)
	}
	runCmds(app, cmd)
	settle(app)
	// b, b on the Compare tab, b elsewhere nothing: B as a dashboard
	// opened on the same run gets it from 7 b b.
	ref := newTestLoading(t, func(func(done, total int64)) (*loaders.Result, error) { return res, nil })
	opened, cmd := ref.Update(ref.load())
	want := opened.(*Model)
	runCmds(want, cmd)
	for _, k := range []string{"7", "b", "b"} {
		_, cmd := want.Update(uitest.KeyPress(k))
		runCmds(want, cmd)
	}
	if got, want := app.Session().CompareMethod, want.Session().CompareMethod; got != want || got == engine.GRPO {
		t.Errorf("method B %s, want %s, after b b on the Compare tab while loading", got, want)
	}
	if app.active != 2 {
		t.Errorf("tab %d shown, want 3, the last chosen while loading", app.active+1)
	}
	if got := app.Session().Result.Options.Method; got != engine.ParetoCrowding {
		t.Errorf("method %s, want pareto-crowding, after m while loading", got)
	}
}
