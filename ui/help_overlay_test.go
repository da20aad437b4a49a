package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/components/helpoverlay"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestHelpOverlayScrollsAndCloses opens the help at 80x24, where it does
// not fit: it scrolls down to the methods' formulas, and ? and esc close
// it, leaving the tab as it was.
func TestHelpOverlayScrollsAndCloses(t *testing.T) {
	for _, closeKey := range []string{"?", "esc"} {
		m := newTestModel(t, 80, 24)
		press(m, "2")
		before := screen(m)
		press(m, "?")
		v := screen(m)
		if !strings.Contains(v, "Help: Groups") || !strings.Contains(v, "open the group") {
			t.Fatalf("? does not open the Groups tab's help:\n%s", v)
		}
		if strings.Contains(v, "gdpo") {
			t.Fatalf("the whole help fits at 80x24, nothing to scroll:\n%s", v)
		}
		press(m, "end")
		atEnd := screen(m)
		press(m, "home")
		if screen(m) != v {
			t.Errorf("home did not go back to the help's top:\n%s", screen(m))
		}
		for range 200 {
			press(m, "down")
		}
		if v = screen(m); v != atEnd {
			t.Errorf("end did not show the help's end:\n%s", atEnd)
		}
		for _, want := range []string{"rank", "(avgrank(x) - 1)", "100%"} {
			if !strings.Contains(v, want) {
				t.Errorf("scrolled to the end, the help does not show %q:\n%s", want, v)
			}
		}
		// Keys go to the help while it is open: m does not change the method.
		press(m, "m")
		if m.Session().Options.Method != engine.Pareto {
			t.Errorf("m changed the method under the help")
		}
		press(m, closeKey)
		if v := screen(m); v != before {
			t.Errorf("%s did not close the help back to the tab:\n%s", closeKey, v)
		}
	}
}

// TestHelpOverlayListsEveryMethodAndGlobalKey checks the help's content
// at 200x70, where it fits whole.
func TestHelpOverlayListsEveryMethodAndGlobalKey(t *testing.T) {
	m := newTestModel(t, 200, 70)
	press(m, "5", "?")
	v := screen(m)
	for _, want := range []string{"Help: Trajectories", "Trajectories tab", "Everywhere", "export the batch's rewards",
		"find a trajectory by id", "previous batch", "quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("the help does not list %q:\n%s", want, v)
		}
	}
	for _, method := range engine.Methods {
		formula := engine.Spec(method).Formula(m.Session().Result.Options)
		if formula == "" {
			t.Errorf("method %s has no formula", method)
			continue
		}
		if !strings.Contains(v, string(method)+"  ") || !strings.Contains(v, formula) {
			t.Errorf("the help does not give %s's formula on one line: %q\n%s", method, formula, v)
		}
	}
	// A click on the tab bar closes it and selects the tab.
	m.Update(tea.MouseClickMsg{X: 3, Y: 1, Button: tea.MouseLeft})
	if m.overlay.Open || m.active != 0 {
		t.Errorf("a click on 1 Rewards left the help open (%v) or selected tab %d", m.overlay.Open, m.active+1)
	}
}

// TestHelpOverlayUsesTheEpsilon: the grpo and gdpo formulas add the
// session's epsilon (--epsilon), not the default (which the methods whose
// trainer fixes it keep).
func TestHelpOverlayUsesTheEpsilon(t *testing.T) {
	v := withoutFixedDivisors(helpUnder(t, func(o *engine.Options) { o.Epsilon = 1e-6 }))
	for _, want := range []string{"(std1(s) + 1e-6)", "(std1 + 1e-6) per objective", "(std1(R) + 1e-6)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the help does not give %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "1e-4") {
		t.Errorf("the help gives the default epsilon 1e-4 under --epsilon 1e-6:\n%s", v)
	}
}

// TestHelpOverlayUsesTheStd: under --std population the grpo and gdpo
// formulas divide by std0, the population std, not std1 (which the
// methods whose trainer fixes it keep).
func TestHelpOverlayUsesTheStd(t *testing.T) {
	v := withoutFixedDivisors(helpUnder(t, func(o *engine.Options) { o.Std = engine.StdPopulation }))
	for _, want := range []string{"(std0(s) + 1e-4), std0 the population std", "(std0 + 1e-4) per objective", "(std0(R) + 1e-4)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the help does not give %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "std1") || strings.Contains(v, "sample std") {
		t.Errorf("the help gives the sample std under --std population:\n%s", v)
	}
}

// TestHelpGivesEveryFormula: the help's text gives, each on its line
// after its name, every method's formula (lexicographic's too, though m
// does not cycle to it without priorities) and every formula of constraints, gates and
// objective normalisation.
func TestHelpGivesEveryFormula(t *testing.T) {
	m := newTestModel(t, 120, 40)
	opts := m.Session().Result.Options
	text := ansi.Strip(helpoverlay.Text(m.common.Styles, helpoverlay.Content{Title: m.tabs[0].Title(), Tab: m.tabs[0], Global: m.keys, Options: opts}, 2000))
	lines := strings.Split(text, "\n")
	has := func(name, formula string) bool {
		for _, l := range lines {
			if strings.HasPrefix(l, name+" ") && strings.HasSuffix(strings.TrimRight(l, " "), formula) {
				return true
			}
		}
		return false
	}
	for _, method := range engine.AllMethods() {
		if f := engine.Spec(method).Formula(opts); !has(string(method), f) {
			t.Errorf("the help does not give %s's formula %q", method, f)
		}
	}
	for _, f := range scoring.StructureFormulas {
		if !has(f.Name, f.Formula) {
			t.Errorf("the help does not give %s's formula %q", f.Name, f.Formula)
		}
	}
	if !strings.Contains(text, "Constraints, gates, normalisation") {
		t.Errorf("the help has no section for the structure's formulas:\n%s", text)
	}
}

// TestHelpWhileEditingWeights: while the weights are edited, the help's
// tab section lists only the tab's keys the editor leaves to it: on the
// Pareto tab, y and the pans, not ←/→ (a constraint), a or the zoom keys;
// enter (open) only while no constraint or gate is there to edit.
func TestHelpWhileEditingWeights(t *testing.T) {
	const open = "open the trajectory"
	taken := []string{"previous point by x", "only this group", "zoom in on the selection", "next x objective"}
	left := []string{"next y objective", "pan left", "reset the view"}
	for _, constrained := range []bool{false, true} {
		s := uitest.SampleSession(t)
		if constrained {
			s = uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"safety >= 0.9"} })
		}
		m := NewModel(s, true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		m.Settle()
		press(m, "4", "+", "?") // zoomed in: 0 resets the view
		v := screen(m)
		for _, want := range append(append(taken, left...), open) {
			if !strings.Contains(v, want) {
				t.Fatalf("the help outside the editor does not list %q:\n%s", want, v)
			}
		}
		press(m, "?", "w", "?")
		v = screen(m)
		if !strings.Contains(v, "Pareto tab (what the weights editor leaves to it)") {
			t.Errorf("the tab's section does not say it lists what the editor leaves:\n%s", v)
		}
		wantLeft, wantTaken := append(slices.Clone(left), open), taken
		if constrained { // enter edits the constraint selected
			wantLeft, wantTaken = left, append(slices.Clone(taken), open)
		}
		for _, want := range wantLeft {
			if !strings.Contains(v, want) {
				t.Errorf("constrained %v: the help while editing does not list %q, which the editor leaves to the tab:\n%s", constrained, want, v)
			}
		}
		for _, absent := range wantTaken {
			if strings.Contains(v, absent) {
				t.Errorf("constrained %v: the help while editing lists %q, whose key the editor takes:\n%s", constrained, absent, v)
			}
		}
	}
}

// TestHelpLeavesOutAnEmptyTabSection: a tab without keys of its own (the
// Rewards tab) has no heading in the help, which stood empty.
func TestHelpLeavesOutAnEmptyTabSection(t *testing.T) {
	m := newTestModel(t, 200, 70)
	press(m, "1", "?")
	if v := screen(m); strings.Contains(v, "Rewards tab") || !strings.Contains(v, "Everywhere") {
		t.Errorf("the help on the Rewards tab:\n%s", v)
	}
	press(m, "?", "2", "?")
	if v := screen(m); !strings.Contains(v, "Groups tab") {
		t.Errorf("the help on the Groups tab has no section of its keys:\n%s", v)
	}
}

// TestHelpListsOnlyEnabledKeys: in every tab, browsing and in its other
// modes (a trajectory or a group opened, a chart full screen, zoomed in,
// the weights edited), the help lists the keys enabled, tab's and
// global, and none disabled: the weights' keys only while editing them,
// "esc back to the plot" only while reading, the keyless "click" only
// where a click selects; "0 reset the view" zoomed in or not (the title
// says "0 resets" once zoomed), not while reading.
func TestHelpListsOnlyEnabledKeys(t *testing.T) {
	for _, state := range [][]string{{"1"}, {"2"}, {"2", "enter"}, {"3"}, {"4"}, {"4", "+"}, {"4", "enter"}, {"5"}, {"5", "enter"},
		{"6"}, {"6", "enter"}, {"7"}, {"7", "enter"}, {"8"}, {"4", "w"}, {"5", "w"}} {
		m := newTestModel(t, 200, 70)
		press(m, state...)
		text := ansi.Strip(helpoverlay.Text(m.common.Styles, m.helpContent(), 2000))
		lines := map[string]bool{}
		for _, l := range strings.Split(text, "\n") {
			lines[strings.Join(strings.Fields(l), " ")] = true
		}
		_, tab := m.helpTab()
		global := m.helpContent().Global
		want, wantNot := map[string]bool{}, map[string]bool{}
		for _, group := range append(tab.FullHelp(), global.FullHelp()...) {
			for _, b := range group {
				row := strings.Join(strings.Fields(b.Help().Key+" "+b.Help().Desc), " ")
				switch {
				case b.Help().Key == "":
				case b.Enabled() || len(b.Keys()) == 0:
					want[row] = true
				default:
					wantNot[row] = true
				}
			}
		}
		for row := range want {
			if !lines[row] {
				t.Errorf("after %q: the help does not list %q, enabled:\n%s", state, row, text)
			}
		}
		for row := range wantNot {
			if lines[row] && !want[row] {
				t.Errorf("after %q: the help lists %q, disabled:\n%s", state, row, text)
			}
		}
	}
	// The cases the rule decides, spelt out.
	for _, c := range []struct {
		keys              []string
		listed, notListed []string
	}{
		{[]string{"4"}, []string{"click select the nearest point", "w weights", "0 reset the view"}, []string{"previous objective", "back to the plot", "follow the newest batch"}},
		{[]string{"4", "+"}, []string{"0 reset the view"}, nil},
		{[]string{"4", "enter"}, []string{"esc back to the plot"}, []string{"click select the nearest point", "next x objective", "reset the view"}},
		{[]string{"7", "enter"}, []string{"esc back to the plot"}, []string{"click select the nearest point"}},
		{[]string{"4", "w"}, []string{"↑ previous objective", "esc done"}, []string{"w weights", "edit the constraint or gate"}},
	} {
		m := newTestModel(t, 200, 70)
		press(m, c.keys...)
		text := ansi.Strip(helpoverlay.Text(m.common.Styles, m.helpContent(), 2000))
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range c.listed {
			if !strings.Contains(flat, want) {
				t.Errorf("after %q: the help does not list %q:\n%s", c.keys, want, text)
			}
		}
		for _, absent := range c.notListed {
			if strings.Contains(flat, absent) {
				t.Errorf("after %q: the help lists %q:\n%s", c.keys, absent, text)
			}
		}
	}
}

// TestHelpOverlayFooter: while the help is open it takes every key, so
// the footer lists its keys only, not the tab's it swallows.
func TestHelpOverlayFooter(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "2")
	footer := func() string { v := screen(m); return v[strings.LastIndex(v, "\n")+1:] }
	if f := footer(); !strings.Contains(f, "enter open") {
		t.Fatalf("the Groups footer does not list enter:\n%s", f)
	}
	press(m, "?")
	f := footer()
	for _, want := range []string{"?/esc close the help", "scroll", "ctrl+c quit"} {
		if !strings.Contains(f, want) {
			t.Errorf("with the help open the footer does not list %q: %s", want, f)
		}
	}
	for _, absent := range []string{"enter open", "sort", "m/M method", "q quit"} {
		if strings.Contains(f, absent) {
			t.Errorf("with the help open the footer lists %q, which the help swallows: %s", absent, f)
		}
	}
	press(m, "?")
	if f := footer(); !strings.Contains(f, "enter open") {
		t.Errorf("the help closed, the footer does not list the tab's keys again: %s", f)
	}
}

// TestObjectivesHelpScrollsOnlyWhenItCan: the Objectives help lists ←/→
// only when the table has columns off screen, as the footer does.
func TestObjectivesHelpScrollsOnlyWhenItCan(t *testing.T) {
	for _, c := range []struct {
		width  int
		scroll bool
	}{{200, false}, {60, true}} {
		m := newTestModel(t, c.width, 40)
		press(m, "3")
		v := screen(m)
		footer := strings.Contains(v[strings.LastIndex(v, "\n")+1:], "←/→")
		press(m, "?") // the tab's section is at the top
		help := strings.Contains(screen(m), "scroll columns")
		if footer != c.scroll || help != c.scroll {
			t.Errorf("at %d cells: the footer lists ←/→ %v, the help %v; want %v:\n%s", c.width, footer, help, c.scroll, screen(m))
		}
	}
}

// TestTablesOfferColumnsOnlyWhenTheyScroll: the Groups tab (its list and
// an open group) and the Trajectories tab offer ←/→ in the footer and the
// help only when their table has columns off screen, which its status
// line counts ("3 columns →"): with every column shown they do nothing.
func TestTablesOfferColumnsOnlyWhenTheyScroll(t *testing.T) {
	offScreen := regexp.MustCompile(`columns? →|← \d+ columns?`)
	for _, c := range []struct {
		keys   []string
		width  int
		scroll bool
	}{
		{[]string{"2"}, 160, false}, {[]string{"2"}, 60, true},
		{[]string{"2", "enter"}, 160, false}, {[]string{"2", "enter"}, 60, true},
		{[]string{"5"}, 160, false}, {[]string{"5"}, 60, true},
	} {
		m := newTestModel(t, c.width, 40)
		press(m, c.keys...)
		v := screen(m)
		footer := v[strings.LastIndex(v, "\n")+1:]
		press(m, "?")
		help := strings.Contains(screen(m), "scroll columns")
		if offScreen.MatchString(v) != c.scroll || help != c.scroll || !c.scroll && strings.Contains(footer, "←/→") {
			t.Errorf("%v at %d cells: columns off screen %v, the help lists ←/→ %v, the footer %q; want %v:\n%s", c.keys, c.width, offScreen.MatchString(v), help, footer, c.scroll, v)
		}
	}
}

// helpUnder returns the help overlay at 200x60 on the sample under the
// options set changes.
// withoutFixedDivisors returns the help's screen v without the lines of
// the methods whose std and epsilon their trainer fixes
// (engine.MethodSpec.FixedDivisor), which no option changes.
func withoutFixedDivisors(v string) string {
	lines := strings.Split(v, "\n")
	lines = slices.DeleteFunc(lines, func(line string) bool {
		for _, m := range engine.AllMethods() {
			if engine.Spec(m).FixedDivisor != "" && strings.HasPrefix(strings.TrimLeft(line, "│ "), string(m)+" ") {
				return true
			}
		}
		return false
	})
	return strings.Join(lines, "\n")
}

func helpUnder(t *testing.T, set func(*engine.Options)) string {
	t.Helper()
	s := uitest.SampleSession(t)
	set(&s.Options)
	s.Recompute()
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m.Settle()
	press(m, "?")
	return screen(m)
}
