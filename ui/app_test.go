package ui

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newTestModel returns the dashboard on the sample at width x height,
// without colour so that views are plain text.
func newTestModel(tb testing.TB, width, height int) *Model {
	tb.Helper()
	return openModel(uitest.SampleSession(tb), width, height)
}

// openModel returns the dashboard on s at width x height, without colour,
// its first result shown and its health computed (Settle).
func openModel(s *session.Session, width, height int) *Model {
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m.Settle()
	return m
}

// press sends the keys to m, as a terminal would: "down", "esc" and
// "shift+tab" by name, anything else rune by rune. It waits for the
// recomputes each key starts (see settle).
func press(m tea.Model, keys ...string) {
	for _, k := range keys {
		m.Update(uitest.KeyPress(k))
		settle(m)
	}
}

// screen returns what m shows, as plain text: the no-colour styles still
// use bold and reverse video, which golden files need not hold.
func screen(m tea.Model) string {
	return ansi.Strip(m.View().Content)
}

func TestGoldenWeightEdit(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "w", "down", "+")
	golden.RequireEqual(t, screen(m))
}

func TestGoldenTooSmall(t *testing.T) {
	golden.RequireEqual(t, screen(newTestModel(t, 50, 12)))
}

// TestTooSmallNeverCutsAWord: at a terminal too small for the dashboard
// the message is wrapped at its words, or said shorter, never cut
// mid-word; it says the size needed while there is room for it.
func TestTooSmallNeverCutsAWord(t *testing.T) {
	for _, c := range []struct {
		width, height int
		wants         []string
	}{
		{20, 6, []string{"Terminal too small", "rewardlens", "60x16"}},
		{59, 15, []string{"Terminal too small", "59x15; rewardlens needs at least 60x16.", "Enlarge the window, or press q to quit."}},
		{30, 3, []string{"Terminal too small", "60x16"}},
		{15, 3, []string{"needs 60x16"}},
		{12, 1, []string{"too small"}},
	} {
		m := newTestModel(t, c.width, c.height)
		v := screen(m)
		words := strings.Fields(fmt.Sprintf("Terminal too small %dx%d; rewardlens needs at least 60x16. Enlarge the window, or press q to quit. 60x16", c.width, c.height))
		for _, w := range strings.Fields(v) {
			if !slices.Contains(words, w) {
				t.Errorf("at %dx%d the screen shows %q, not a word of the message:\n%s", c.width, c.height, w, v)
			}
		}
		checkScreen(t, fmt.Sprintf("the screen at %dx%d", c.width, c.height), v, c.wants, nil)
	}
}

// setMethod presses m until the method is method.
func setMethod(t *testing.T, m *Model, method engine.Method) {
	t.Helper()
	for range engine.Methods {
		if m.Session().Options.Method == method {
			return
		}
		press(m, "m")
	}
	t.Fatalf("m never reached method %s", method)
}

func TestMethodSwitch(t *testing.T) {
	m := newTestModel(t, 120, 40)
	before := slices.Clone(m.Session().Result.Rewards)
	// From pareto, M goes back through rloo and grpo to relative.
	press(m, "M", "M", "M")
	if got := m.Session().Options.Method; got != engine.Relative {
		t.Fatalf("after M M M from pareto: method %s, want relative", got)
	}
	if slices.Equal(m.Session().Result.Rewards, before) {
		t.Error("the rewards did not change with the method")
	}
	if v := screen(m); !strings.Contains(v, "method: relative") {
		t.Errorf("the header does not say method: relative:\n%s", v)
	}
	press(m, "m")
	if got := m.Session().Options.Method; got != engine.GRPO {
		t.Errorf("after m from relative: method %s, want grpo", got)
	}
}

func TestMethodsCycleThroughAllSeven(t *testing.T) {
	m := newTestModel(t, 120, 40)
	seen := map[engine.Method]bool{}
	for range engine.Methods {
		press(m, "m")
		seen[m.Session().Options.Method] = true
		if m.Session().Result.Options.Method != m.Session().Options.Method {
			t.Fatalf("result computed with %s, options say %s", m.Session().Result.Options.Method, m.Session().Options.Method)
		}
	}
	if len(seen) != len(engine.Methods) {
		t.Errorf("m visited %d methods, want %d", len(seen), len(engine.Methods))
	}
}

func TestBatchNavigation(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "]", "]")
	if got := m.Session().Batch; got != 2 {
		t.Fatalf("after ] ]: batch %d, want 2", got)
	}
	if v := screen(m); !strings.Contains(v, "batch 3/40 step 2") {
		t.Errorf("the header does not say batch 3/40 step 2:\n%s", v)
	}
	press(m, "[", "[", "[")
	if v := screen(m); m.Session().Batch != 0 || !strings.Contains(v, "batch 1/40 step 0") {
		t.Errorf("[ did not stop at the first batch: batch %d\n%s", m.Session().Batch, v)
	}
}

func TestWeightEdit(t *testing.T) {
	m := newTestModel(t, 120, 40)
	// pareto ranks ignore the weights: absolute rewards the score itself.
	setMethod(t, m, engine.Absolute)
	before := slices.Clone(m.Session().Result.Rewards)
	press(m, "w", "down", "+")
	if got := m.Session().Weights(); !slices.Equal(got, []float64{0.6, 0.35, 0.1}) {
		t.Errorf("after w down +: weights %v, want safety's 0.3 raised to 0.35", got)
	}
	if slices.Equal(m.Session().Result.Rewards, before) {
		t.Error("the rewards did not change with the weight")
	}
	if v := screen(m); !strings.Contains(v, "[safety 0.35]") {
		t.Errorf("the weights line does not show safety selected at 0.35:\n%s", v)
	}
	press(m, "-", "-", "esc")
	if got := m.Session().Weights()[1]; got != 0.25 {
		t.Errorf("after - -: safety's weight %v, want 0.25", got)
	}
	if v := screen(m); strings.Contains(v, "[safety") {
		t.Errorf("esc did not leave weight editing:\n%s", v)
	}
	// Outside weight editing, + is not a weight key.
	press(m, "+")
	if got := m.Session().Weights()[1]; got != 0.25 {
		t.Errorf("+ outside weight editing changed the weight to %v", got)
	}
}

// TestWeightsCrossZero: + and - step a weight by 0.05 across 0 and below
// it, as --weight sets it (TRL's reward_weights may be negative): they
// were clamped at 0, and a run's -1 became 0 at the first +, for good.
func TestWeightsCrossZero(t *testing.T) {
	m := newTestModel(t, 120, 40)
	setMethod(t, m, engine.Absolute)
	press(m, "w", "up") // wraps to the last objective, length (0.1)
	press(m, "-", "-", "-")
	if got := m.Session().Weights()[2]; got != -0.05 {
		t.Errorf("length's weight after three -0.05 from 0.1: %v, want -0.05", got)
	}
	if v := screen(m); !strings.Contains(v, "[length -0.05]") {
		t.Errorf("the weights line does not show length at -0.05:\n%s", v)
	}
	if got := m.Session().Result.Options.Weights[2]; got != -0.05 {
		t.Errorf("the result was computed with length's weight %v, want -0.05", got)
	}
	press(m, "+")
	if v := screen(m); m.Session().Weights()[2] != 0 || !strings.Contains(v, "[length 0.00]") {
		t.Errorf("back to 0: weight %v, and the line:\n%s", m.Session().Weights()[2], v)
	}
}

// TestNegativeWeightKeptByTheEditor: a session opened with a weight of -1
// (--weight format_reward=-1) steps to -0.95 and back to -1.
func TestNegativeWeightKeptByTheEditor(t *testing.T) {
	minusOne := -1.0
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) {
		cfg.Weights = map[string]float64{cfg.Objectives[1].Name: minusOne}
	})
	m := openModel(s, 120, 40)
	name := s.Evaluation.Objectives[1].Name
	press(m, "w", "down")
	if v := screen(m); !strings.Contains(v, "["+name+" -1.00]") {
		t.Fatalf("the weights line does not show %s at -1.00:\n%s", name, v)
	}
	press(m, "+")
	if got := m.Session().Weights()[1]; got != -0.95 {
		t.Errorf("after +: %s's weight %v, want -0.95", name, got)
	}
	press(m, "-")
	if got := m.Session().Weights()[1]; got != -1 {
		t.Errorf("after + -: %s's weight %v, want -1", name, got)
	}
}

// TestNormalizeStepsThroughTRLScales: under grpo, n steps through TRL's
// scale_rewards, the group's std, the batch's, none, which the header
// names, and the result is computed with each.
func TestNormalizeStepsThroughTRLScales(t *testing.T) {
	m := newTestModel(t, 160, 40)
	setMethod(t, m, engine.GRPO)
	for _, want := range []struct {
		normalize bool
		scale     engine.Scale
		text      string
	}{
		{true, engine.ScaleBatch, "normalize: batch"},
		{false, engine.ScaleGroup, "normalize: off"},
		{true, engine.ScaleGroup, "normalize: on"},
	} {
		press(m, "n")
		o := m.Session().Result.Options
		if v := screen(m); o.Normalize != want.normalize || o.Scale != want.scale || !strings.Contains(v, want.text) {
			t.Errorf("n: result normalize %v scale %s, want %v %s, and %q on screen:\n%s", o.Normalize, o.Scale, want.normalize, want.scale, want.text, v)
		}
	}
	// At 80 cells the header gives its room to the goals: the status
	// line says the settings a key chose.
	narrow := newTestModel(t, 80, 24)
	setMethod(t, narrow, engine.GRPO)
	press(narrow, "n")
	if v := screen(narrow); !strings.Contains(v, "scope: group · normalize: batch") {
		t.Errorf("at 80 cells nothing says the batch scale n chose:\n%s", v)
	}
	press(narrow, "g")
	if v := screen(narrow); !strings.Contains(v, "scope: batch · normalize: on") {
		t.Errorf("at 80 cells nothing says the scope g chose:\n%s", v)
	}
	// Another method toggles, and leaves the scale alone.
	setMethod(t, m, engine.Pareto)
	press(m, "n")
	if o := m.Session().Result.Options; o.Normalize || o.Scale != engine.ScaleGroup {
		t.Errorf("n under pareto: normalize %v scale %s, want off, group", o.Normalize, o.Scale)
	}
}

// TestGDPOTitleUnderScopeBatch: g under gdpo makes the batch the group,
// so the Rewards title says the objectives are z-scored over the batch,
// not per group, as the values are.
func TestGDPOTitleUnderScopeBatch(t *testing.T) {
	m := newTestModel(t, 160, 40)
	setMethod(t, m, engine.GDPO)
	press(m, "g")
	title := strings.SplitN(screen(m), "\n", 4)[2]
	if !strings.Contains(title, "Rewards: gdpo, per batch, objectives z-scored, then their weighted sum z-scored") || strings.Contains(title, "per group") {
		t.Errorf("gdpo under scope batch: the Rewards title is %q; want the objectives and their sum z-scored over the batch", title)
	}
}

// TestNormalizeUnderScopeBatch: under scope batch the group is the batch,
// so grpo's n steps through on and off only (the batch's std would give
// the rewards of on), and the Rewards title names the batch's std; the
// batch scale reached by g is on, as the header and the notice say.
func TestNormalizeUnderScopeBatch(t *testing.T) {
	m := newTestModel(t, 160, 40)
	setMethod(t, m, engine.GRPO)
	press(m, "g")
	if v := screen(m); !strings.Contains(v, "per batch, centred, scaled by the batch std") {
		t.Errorf("scope batch, normalize on: the title does not name the batch std:\n%s", v)
	}
	for _, want := range []struct {
		normalize bool
		text      string
	}{
		{false, "normalize: off"},
		{true, "normalize: on"},
	} {
		press(m, "n")
		if o, v := m.Session().Result.Options, screen(m); o.Normalize != want.normalize || o.Scale != engine.ScaleGroup || !strings.Contains(v, want.text) {
			t.Errorf("n under scope batch: normalize %v scale %s, want %v group, and %q on screen:\n%s", o.Normalize, o.Scale, want.normalize, want.text, v)
		}
	}
	press(m, "g", "n", "g") // scale batch, then scope batch
	v := screen(m)
	if !strings.Contains(v, "scope: batch · normalize: on (the group is the batch: its std is the batch's)") {
		t.Errorf("scale batch under scope batch: the notice does not say it is on:\n%s", v)
	}
	// The header says what the engine computed with (MethodSettings):
	// the group's std, the group being the batch, not the batch scale
	// set before g.
	header := strings.Split(v, "\n")[0]
	if o := m.Session().Result.Options; o.MethodSettings().Scale != engine.ScaleGroup || !strings.Contains(header, "normalize: on") || strings.Contains(header, "normalize: batch") {
		t.Errorf("scale batch under scope batch: the engine's scale %s, the header %q: want group and normalize: on", o.MethodSettings().Scale, header)
	}
	press(m, "g") // scope group: the batch scale again
	if header := strings.Split(screen(m), "\n")[0]; !strings.Contains(header, "normalize: batch") {
		t.Errorf("back to scope group: the header %q, want normalize: batch", header)
	}
}

// TestNormalizeUnderRLOO: rloo has no normalisation: n leaves the
// options and the rewards as they are and says why in the status line,
// and the header shows no normalize field, as stats' settings do not.
func TestNormalizeUnderRLOO(t *testing.T) {
	m := newTestModel(t, 200, 40)
	setMethod(t, m, engine.RLOO)
	before := slices.Clone(m.Session().Result.Rewards)
	if v := screen(m); strings.Contains(v, "normalize:") {
		t.Errorf("the header shows a normalize field under rloo:\n%s", v)
	}
	press(m, "n")
	v := screen(m)
	if o := m.Session().Result.Options; !o.Normalize || !slices.Equal(m.Session().Result.Rewards, before) {
		t.Errorf("n under rloo changed the options (normalize %v) or the rewards", o.Normalize)
	}
	if !strings.Contains(v, "rloo has no normalisation: its reward is s minus the others' mean") {
		t.Errorf("n under rloo does not say why it does nothing:\n%s", v)
	}
	press(m, "g")
	if v := screen(m); !strings.Contains(v, "scope: batch") || strings.Contains(v, "normalize:") {
		t.Errorf("g under rloo: the notice or header shows a normalize field:\n%s", v)
	}
}

func TestToggles(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "n")
	if v := screen(m); m.Session().Options.Normalize || !strings.Contains(v, "normalize: off") {
		t.Errorf("n did not turn normalisation off:\n%s", v)
	}
	press(m, "g")
	if v := screen(m); m.Session().Options.Scope != engine.ScopeBatch || !strings.Contains(v, "scope: batch") {
		t.Errorf("g did not switch to scope batch:\n%s", v)
	}
	press(m, "n", "g")
	if o := m.Session().Options; !o.Normalize || o.Scope != engine.ScopeGroup {
		t.Errorf("n g again: normalize %v, scope %s; want on, group", o.Normalize, o.Scope)
	}
}

func TestTabSelection(t *testing.T) {
	m := newTestModel(t, 120, 40)
	last := len(m.tabs) - 1
	for _, tc := range []struct {
		keys []string
		want int
	}{
		{[]string{"5"}, 4},
		{[]string{"tab"}, 5},
		{[]string{"shift+tab"}, 4},
		{[]string{"1", "shift+tab"}, last}, // round to the last
		{[]string{"tab"}, 0},               // and back to the first
	} {
		press(m, tc.keys...)
		if m.active != tc.want {
			t.Errorf("after %v: tab %d, want %d", tc.keys, m.active+1, tc.want+1)
		}
	}
	// " 1 Rewards  2 Groups  3 Objectives  4 Pareto ": column 38 is in
	// "4 Pareto".
	m.Update(tea.MouseClickMsg{X: 38, Y: 1, Button: tea.MouseLeft})
	if m.active != 3 {
		t.Errorf("a click on 4 Pareto selected tab %d", m.active+1)
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m := newTestModel(t, 120, 40)
		if _, cmd := m.Update(uitest.KeyPress(k)); cmd == nil || cmd() != tea.Quit() {
			t.Errorf("%s does not quit", k)
		}
	}
}

// TestResizeStorm sends hundreds of sizes, 0x0 and 1x1 among them, on
// every tab: no size may panic, and no view may be wider or taller than
// the screen.
func TestResizeStorm(t *testing.T) {
	m := newTestModel(t, 120, 40)
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []tea.WindowSizeMsg{{}, {Width: 1, Height: 1}, {Width: 59, Height: 15}, {Width: 60, Height: 16}}
	for range 300 {
		sizes = append(sizes, tea.WindowSizeMsg{Width: rng.IntN(260), Height: rng.IntN(90)})
	}
	for i, size := range sizes {
		press(m, strconv.Itoa(i%len(m.tabs)+1))
		m.Update(size)
		v := screen(m)
		if h := strings.Count(v, "\n") + 1; v != "" && h > max(size.Height, 1) {
			t.Fatalf("%dx%d, tab %d: the view is %d lines high", size.Width, size.Height, m.active+1, h)
		}
		for _, line := range strings.Split(v, "\n") {
			if w := ansi.StringWidth(line); w > size.Width {
				t.Fatalf("%dx%d, tab %d: a line is %d wide: %q", size.Width, size.Height, m.active+1, w, line)
			}
		}
	}
}

// sgr matches the Select Graphic Rendition sequences, which set colours
// and text attributes.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// TestNoColor checks every tab for colours when NO_COLOR is set: text
// attributes (bold, reverse) are allowed, colours are not.
func TestNoColor(t *testing.T) {
	m := newTestModel(t, 120, 40)
	for tab := range m.tabs {
		press(m, strconv.Itoa(tab+1))
		for _, seq := range sgr.FindAllStringSubmatch(m.View().Content, -1) {
			for _, p := range strings.FieldsFunc(seq[1], func(r rune) bool { return r == ';' || r == ':' }) {
				if n, _ := strconv.Atoi(p); (n >= 30 && n <= 49) || (n >= 90 && n <= 107) {
					t.Fatalf("tab %d sets a colour with NO_COLOR: %q", tab+1, seq[0])
				}
			}
		}
	}
}

// TestTypingGoesToTheTab types into the Trajectories filter: q and m are
// text there, not quit and method.
func TestTypingGoesToTheTab(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "5", "/")
	for _, k := range []string{"q", "m", "1"} {
		if _, cmd := m.Update(uitest.KeyPress(k)); cmd != nil && cmd() == tea.Quit() {
			t.Fatalf("%q quit while typing a filter", k)
		}
	}
	if m.active != 4 || m.Session().Options.Method != engine.Pareto {
		t.Errorf("typing q m 1 in the filter changed the tab (%d) or the method (%s)", m.active+1, m.Session().Options.Method)
	}
	if _, cmd := m.Update(uitest.KeyPress("ctrl+c")); cmd == nil || cmd() != tea.Quit() {
		t.Error("ctrl+c does not quit while typing a filter")
	}
}

func TestLightBackground(t *testing.T) {
	m := NewModel(uitest.SampleSession(t), false)
	styles := m.common.Styles
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
	if m.common.Styles != styles {
		t.Fatal("the styles were replaced, not rebuilt in place: the tabs hold the old ones")
	}
	if got, want := m.common.Styles.Title.GetForeground(), common.NewStyles(false, false).Title.GetForeground(); got != want {
		t.Errorf("on a light background the title colour is %v, want the light one %v", got, want)
	}
}

// TestLightBackgroundEveryTab turns the background light on each tab, once
// it was drawn on a dark one, and checks the screen against a dashboard
// opened on the light background: no tab keeps what it drew in the dark
// styles (the Pareto tab keeps its plot across switches that change
// neither objectives nor ranks).
func TestLightBackgroundEveryTab(t *testing.T) {
	open := func(light bool, tab string) *Model {
		m := NewModel(uitest.SampleSession(t), false)
		m.Init()
		if light {
			m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Settle()
		press(m, tab)
		return m
	}
	for tab := 1; tab <= 7; tab++ {
		key := strconv.Itoa(tab)
		m := open(false, key)
		m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
		settle(m)
		if got, want := m.View().Content, open(true, key).View().Content; got != want {
			t.Errorf("tab %d turned light is not the tab opened light:\n%s\nwant:\n%s", tab, got, want)
		}
	}
}

// TestSVRLWeights edits the svrl computer's verification weight, which is
// an objective's weight like any other.
func TestSVRLWeights(t *testing.T) {
	_, res := sampletest.Read(t)
	s, err := session.Open("sample", setup.Config{Computer: "svrl", Method: "grpo"}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	before := slices.Clone(s.Result.Rewards)
	press(m, "w", "down", "+")
	if got, want := s.Weights(), []float64{1, setup.DefaultVerificationWeight + weightStep, setup.DefaultEfficiencyWeight}; !slices.Equal(got, want) {
		t.Errorf("weights %v, want %v", got, want)
	}
	if slices.Equal(s.Result.Rewards, before) {
		t.Error("the grpo rewards did not change with the verification weight")
	}
	if v := screen(m); !strings.Contains(v, "[verification_cost 0.15]") || !strings.Contains(v, "task 1.00") {
		t.Errorf("the screen does not show the svrl weight being edited:\n%s", v)
	}
}
