package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestTypeWeight: = opens a text input on the selected weight; enter sets
// it to the number typed, of either sign and any decimals (0.33 could not
// be reached by steps of 0.05, 2 took 20 presses), and esc or nothing
// typed leaves it.
// TestTypeWeightLettersShown: while the weight's input is open, m, M, g
// and n are text and show at once (they keep the frame elsewhere, until
// their recompute lands).
func TestTypeWeightLettersShown(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "w", "=")
	for _, k := range []string{"1", "n", "g"} {
		_ = screen(m)                // the frame drawn before the key
		m.Update(uitest.KeyPress(k)) // nothing else between: the frame as the key left it
	}
	if v := screen(m); !strings.Contains(v, "> 1ng") {
		t.Errorf("the letters typed do not show:\n%s", v)
	}
}

func TestTypeWeight(t *testing.T) {
	m := newTestModel(t, 120, 40)
	setMethod(t, m, engine.Absolute)
	press(m, "w", "down", "=")
	if v := screen(m); !strings.Contains(v, "weight of safety> 0.30") {
		t.Fatalf("= did not open the weight's input with the weight it keeps (0.30) as its placeholder:\n%s", v)
	}
	typeText(m, "0.33")
	press(m, "enter")
	if got := m.Session().Weights()[1]; got != 0.33 {
		t.Errorf("typed 0.33: safety's weight %v", got)
	}
	if got := m.Session().Result.Options.Weights[1]; got != 0.33 {
		t.Errorf("typed 0.33: the result was computed with %v", got)
	}
	if v := screen(m); !strings.Contains(v, "[safety 0.33]") {
		t.Errorf("the weights line does not show safety at 0.33:\n%s", v)
	}
	for _, c := range []struct {
		typed string
		want  float64
		shown string
	}{
		{"2", 2, "[safety 2.00]"},
		{"-1.5", -1.5, "[safety -1.50]"},
		{"0.333", 0.333, "[safety 0.333]"},
		{"-0", 0, "[safety 0.00]"},
	} {
		press(m, "=")
		typeText(m, c.typed)
		press(m, "enter")
		if got := m.Session().Weights()[1]; got != c.want || got == 0 && math.Signbit(got) {
			t.Errorf("typed %s: weight %v, want %v", c.typed, got, c.want)
		}
		if v := screen(m); !strings.Contains(v, c.shown) {
			t.Errorf("typed %s: the line does not show %s:\n%s", c.typed, c.shown, v)
		}
	}
	// esc, or enter on nothing, keeps the weight; q and + are typed.
	press(m, "=")
	typeText(m, "q+5")
	press(m, "esc")
	press(m, "=", "enter")
	if got := m.Session().Weights()[1]; got != 0 {
		t.Errorf("esc and an empty enter changed the weight to %v", got)
	}
	if v := screen(m); strings.Contains(v, "weight of safety> ") || !strings.Contains(v, "[safety 0.00]") {
		t.Errorf("the input is still open:\n%s", v)
	}
}

// TestTypeWeightRefused: a value that is not a finite number is refused
// with why, under the input, which stays open with the text for fixing;
// the weight is unchanged.
func TestTypeWeightRefused(t *testing.T) {
	for _, c := range []struct{ typed, why string }{
		{"abc", `weight "abc": not a number; type digits, "." and "-"`},
		{"1.2.3", `weight "1.2.3": not a number`},
		{"1e999", `weight "1e999": too large`},
		{"inf", `weight "inf": too large`},
		{"nan", `weight "nan": not a number`},
	} {
		m := newTestModel(t, 120, 40)
		press(m, "w", "down", "=")
		typeText(m, c.typed)
		press(m, "enter")
		v := screen(m)
		if !strings.Contains(v, c.why) || !strings.Contains(v, "weight of safety> "+c.typed) {
			t.Errorf("%s: the editor does not say %q, the text kept:\n%s", c.typed, c.why, v)
		}
		if got := m.Session().Weights()[1]; got != 0.3 {
			t.Errorf("%s: the weight changed to %v", c.typed, got)
		}
		press(m, "esc")
		if v := screen(m); strings.Contains(v, c.why) {
			t.Errorf("%s: esc left the error:\n%s", c.typed, v)
		}
	}
}

// TestWeightKeysInTheHelp: the footer while editing weights and the ?
// help list = (type the weight); while typing, the footer lists enter and
// esc.
func TestWeightKeysInTheHelp(t *testing.T) {
	m := newTestModel(t, 200, 60)
	press(m, "w")
	if v := screen(m); !strings.Contains(v, "= type") {
		t.Errorf("the footer while editing weights does not list =:\n%s", v)
	}
	press(m, "?")
	if v := screen(m); !strings.Contains(v, "type the weight") {
		t.Errorf("the help does not list =:\n%s", v)
	}
	press(m, "?", "=")
	if v := screen(m); !strings.Contains(v, "enter apply") || !strings.Contains(v, "esc cancel") {
		t.Errorf("the footer while typing a weight:\n%s", v)
	}
}

// TestGoldenWeightTyping keeps the weight's input open, and refusing a
// value, at 80x24 and 120x40.
func TestGoldenWeightTyping(t *testing.T) {
	for _, v := range []struct{ name, text, then string }{
		{"input", "-0.5", ""},
		{"refused", "0,5", "enter"},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, size[0], size[1]), func(t *testing.T) {
				m := newTestModel(t, size[0], size[1])
				press(m, "w", "down", "=")
				typeText(m, v.text)
				if v.then != "" {
					press(m, v.then)
				}
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

func TestParseWeight(t *testing.T) {
	for text, want := range map[string]float64{"0.33": 0.33, "-1": -1, "2": 2, ".5": 0.5, "-.05": -0.05, "1e-3": 0.001} {
		if got, err := parseWeight(text); err != nil || got != want {
			t.Errorf("parseWeight(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
}

// TestPasteWeight: a weight pasted into the text input is typed, not
// handed to the tab under it.
func TestPasteWeight(t *testing.T) {
	m := newTestModel(t, 120, 40)
	setMethod(t, m, engine.Absolute)
	press(m, "w", "down", "=")
	m.Update(tea.PasteMsg{Content: "0.333"})
	settle(m)
	if v := screen(m); !strings.Contains(v, "weight of safety> 0.333") {
		t.Errorf("the paste is not in the weight's input:\n%s", v)
	}
	press(m, "enter")
	if got := m.Session().Weights()[1]; got != 0.333 {
		t.Errorf("pasted 0.333: safety's weight %v", got)
	}
}

// TestWeightCursorBlinks: the blinks that the weight's text input asks
// for when it opens reach it, and turn its cursor off and on.
func TestWeightCursorBlinks(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "w", "down")
	_, cmd := m.Update(uitest.KeyPress("="))
	blink := findMsg[cursor.BlinkMsg](t, cmd)
	before := m.View().Content
	m.Update(blink)
	if m.View().Content == before {
		t.Error("the cursor's blink did not reach the weight's input: the screen is the same")
	}
}

// findMsg runs cmd and the commands of the batches it returns, each for
// up to 2 s, and returns the first message of type T.
func findMsg[T tea.Msg](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	cmds := []tea.Cmd{cmd}
	for len(cmds) > 0 {
		c := cmds[0]
		cmds = cmds[1:]
		if c == nil {
			continue
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- c() }()
		select {
		case msg := <-got:
			switch msg := msg.(type) {
			case T:
				return msg
			case tea.BatchMsg:
				cmds = append(cmds, msg...)
			}
		case <-time.After(2 * time.Second):
		}
	}
	var zero T
	t.Fatalf("no %T among the messages", zero)
	return zero
}

// TestWeightsScrollToTheSelected: at 80 cells, where the weights do not
// all fit, the line scrolls to show the selected one, saying how many are
// left out on either side; at 160 all of them show.
func TestWeightsScrollToTheSelected(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		m := fourWeightsModel(t, size[0], size[1])
		press(m, "w")
		objectives := m.Session().Evaluation.Objectives
		for k, o := range objectives {
			line := weightsLineOf(t, screen(m))
			if !strings.Contains(line, "["+o.Name+" ") {
				t.Errorf("at %dx%d, %s selected, the line does not show it: %q", size[0], size[1], o.Name, line)
			}
			hidden := 0
			for _, other := range objectives {
				if !strings.Contains(line, other.Name+" ") {
					hidden++
				}
			}
			if hidden > 0 && !strings.Contains(line, "→") && !strings.Contains(line, "←") {
				t.Errorf("at %dx%d, %d weights left out unsaid: %q", size[0], size[1], hidden, line)
			}
			if size[0] == 160 && hidden > 0 {
				t.Errorf("at 160 cells %d weights left out: %q", hidden, line)
			}
			if size[0] == 80 && k == len(objectives)-1 && !strings.Contains(line, "←") {
				t.Errorf("at 80 cells, the last selected, no weight is left out on the left: %q", line)
			}
			press(m, "down")
		}
	}
}

// weightsLineOf returns the screen's line of weights.
func weightsLineOf(t *testing.T, view string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "weights") {
			return l
		}
	}
	t.Fatalf("no line of weights:\n%s", view)
	return ""
}

// TestGoldenWeightEditScrolled: the last weight selected and raised, at
// 80x24 (scrolled) and 160x40.
func TestGoldenWeightEditScrolled(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := fourWeightsModel(t, size[0], size[1])
			press(m, "w", "up", "+")
			golden.RequireEqual(t, screen(m))
		})
	}
}

// fourWeightsModel returns the dashboard at width x height, without
// colour, on a run of four objectives whose weights do not all fit on a
// line of 80 cells under pareto.
func fourWeightsModel(t *testing.T, width, height int) *Model {
	t.Helper()
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","metadata":{"correctness":%d,"length":%d,"format":%d,"safety":%d}}`+"\n", i, i%2, i%3, 100+i, i%2, i%4)
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	objective := func(name, goal string, weight float64) setup.ObjectiveConfig {
		return setup.ObjectiveConfig{Name: name, Expr: "metadata." + name, Goal: goal, Weight: &weight}
	}
	cfg := setup.Config{Method: "pareto", Objectives: []setup.ObjectiveConfig{
		objective("correctness", "max", 0.5), objective("length", "min", 0.1), objective("format", "max", 0.2), objective("safety", "max", 0.2)}}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m.Settle()
	return m
}

// TestWeightsWindowFitsExactly: the weights shown are as many as fit the
// room in cells, the arrows measured as the one cell each is.
func TestWeightsWindowFitsExactly(t *testing.T) {
	st := common.NewStyles(true, true)
	parts := []string{"aaaa 1", "bbbb 2", "cccc 3"}
	for _, c := range []struct {
		room, leftOut int
		want          string
	}{
		{20, 0, "aaaa 1 bbbb 2 cccc 3"},
		{16, 1, "←1 bbbb 2 cccc 3"},
		{15, 2, "←2 cccc 3"},
	} {
		window, leftOut, _ := common.ScrollLine(st, parts, " ", 2, c.room, nil)
		if got := ansi.Strip(window); got != c.want || ansi.StringWidth(got) > c.room || leftOut != c.leftOut {
			t.Errorf("room %d: %q, %d left out, want %q, %d", c.room, got, leftOut, c.want, c.leftOut)
		}
	}
}

// TestGoldenWeightNorm: w, then o, on the sample: the line keeps the
// objectives' normalisation in sight at 80 columns (the title in fewer
// words) as at 100, and ends in no "…" while every weight is shown.
func TestGoldenWeightNorm(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestModel(t, size[0], size[1])
			press(m, "w", "o")
			line := weightsLineOf(t, screen(m))
			if norm := m.Session().Options.NormalizeObjectives; !strings.Contains(line, "norm (o) "+string(norm)) || strings.Contains(line, "…") {
				t.Errorf("the line of weights %q does not show norm (o) %s, or ends cut", line, norm)
			}
			golden.RequireEqual(t, screen(m))
		})
	}
}

// TestWeightsRefusedWithSources: with sources each source's trajectories
// are scored with its own weights, so +, - and = in the weights editor are
// refused with where the weights come from, and the weights and rewards
// stay as they were. The editor changed the stored weights, which scored
// nothing: the rewards did not move.
func TestWeightsRefusedWithSources(t *testing.T) {
	s := uitest.NoDefaultTaskSession(t)
	m := openModel(s, 400, 30)
	settle(m)
	weights, result := slices.Clone(s.Weights()), s.Result
	for _, k := range []string{"+", "-", "="} {
		press(m, "w", k)
		settle(m)
		if v := screen(m); !strings.Contains(v, "weights come from its [sources.NAME] table") {
			t.Errorf("%s: the editor does not say where the weights come from:\n%s", k, v)
		}
		if m.weights.typing || !slices.Equal(s.Weights(), weights) || s.Result != result {
			t.Errorf("%s: typing %v, weights %v (were %v), result changed %v", k, m.weights.typing, s.Weights(), weights, s.Result != result)
		}
		press(m, "esc")
	}
}
