package ui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestFooterKeepsHelpAndQuit: on every tab, and inside Groups, at 80 and
// 120 columns, the footer ends with "? help • q quit", the lesser hints
// dropped instead.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := newTestModel(t, size[0], size[1])
		for i, tab := range m.tabs {
			for _, keys := range [][]string{{strconv.Itoa(i + 1)}, {strconv.Itoa(i + 1), "enter"}} {
				t.Run(fmt.Sprintf("%dx%d/%s/%s", size[0], size[1], tab.Title(), strings.Join(keys, "+")), func(t *testing.T) {
					press(m, keys...)
					lines := strings.Split(screen(m), "\n")
					footer := strings.TrimRight(lines[len(lines)-1], " ")
					if !strings.HasSuffix(footer, "? help • q quit") {
						t.Errorf("the footer lost ? help or q quit: %q", footer)
					}
					press(m, "esc")
				})
			}
		}
	}
}

// TestFooterKeys checks footerKeys' choice: the kept keys always, the
// others in order while they fit, a long one skipped for a shorter after.
func TestFooterKeys(t *testing.T) {
	m := newTestModel(t, 120, 40)
	keys := m.keys.ShortHelp()
	// "1-7 tab • ? help • q quit" is 25 cells: at 25 only the tab key fits
	// (the weight keys before it are disabled).
	got := footerKeys(m.help, keys, []key.Binding{m.keys.Help, m.keys.Quit}, 25)
	var names []string
	for _, k := range got {
		names = append(names, k.Help().Key)
	}
	if want := m.keys.Tab.Help().Key + " ? q"; strings.Join(names, " ") != want {
		t.Errorf("footerKeys at 25 cells chose %v, want %s", names, want)
	}
	got = footerKeys(m.help, keys, []key.Binding{m.keys.Help, m.keys.Quit}, 5)
	if len(got) != 2 {
		t.Errorf("footerKeys at 5 cells chose %d keys, want help and quit only", len(got))
	}
}

// TestParetoFooterZoomAsOne: at 120 columns the Pareto footer shows the
// zoom as one hint, "+/- zoom", never zoom out without zoom in.
func TestParetoFooterZoomAsOne(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "4")
	lines := strings.Split(screen(m), "\n")
	footer := lines[len(lines)-1]
	if !strings.Contains(footer, "+/- zoom") || strings.Contains(footer, "zoom out") {
		t.Errorf("the Pareto footer does not show +/- zoom as one hint: %q", footer)
	}
}

// TestFooterWhileTyping: while a filter, the find or a constraint is
// typed, every key but ctrl+c is text, so the footer lists only the keys
// that work then (enter, esc, ctrl+c), not the global ones; once done, the
// footer is back.
func TestFooterWhileTyping(t *testing.T) {
	cases := []struct {
		name string
		keys []string // to start typing
		want string   // the footer then
	}{
		{"Groups filter", []string{"2", "/"}, "enter keep • esc clear • ctrl+c quit"},
		{"Trajectories filter", []string{"5", "/"}, "enter keep filter • esc clear filter • ctrl+c quit"},
		{"find from Rewards", []string{"1", "/"}, "enter keep filter • esc clear filter • ctrl+c quit"},
		{"Prompts filter", []string{"8", "/"}, "enter keep the filter • esc clear the filter • ctrl+c quit"},
		{"a constraint", []string{"1", "w", "c"}, "enter apply • esc cancel • ctrl+c quit"},
		{"lambda", []string{"1", "w", "p"}, "enter apply • esc cancel • ctrl+c quit"},
	}
	footer := func(m *Model) string {
		lines := strings.Split(screen(m), "\n")
		return strings.TrimRight(lines[len(lines)-1], " ")
	}
	for _, c := range cases {
		m := newTestModel(t, 120, 40)
		press(m, c.keys...)
		press(m, "m", "1") // text, not a method or a tab
		if got := footer(m); got != c.want {
			t.Errorf("%s: typing, the footer is %q, want %q", c.name, got, c.want)
		}
		press(m, "esc")
		if got := footer(m); !strings.HasSuffix(got, "? help • q quit") {
			t.Errorf("%s: done typing, the footer is %q", c.name, got)
		}
	}
}

// freshFooter is the footer drawn anew for m as it is, m's kept one left
// as it was.
func freshFooter(m *Model) string {
	kept := m.footer
	m.footer.drawn = false
	v := m.helpView()
	m.footer = kept
	return v
}

// TestFooterDrawnWhenItsKeysChange: a frame whose footer's inputs are
// unchanged keeps the footer drawn; after a change of each (another tab,
// a group opened and its keys, a filter typed, the full help, the
// weights editor, another width, another background) the footer is
// drawn again and equals one drawn anew.
func TestFooterDrawnWhenItsKeysChange(t *testing.T) {
	m := newTestModel(t, 120, 40)
	_ = screen(m)
	m.footer.view = "kept"
	if got := m.helpView(); got != "kept" {
		t.Errorf("the footer was drawn again with nothing of it changed: %q", got)
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"tab 2", func() { press(m, "2") }},
		{"group opened", func() { press(m, "enter") }},
		{"group closed", func() { press(m, "esc") }},
		{"filter typed", func() { press(m, "/") }},
		{"filter left", func() { press(m, "esc") }},
		{"full help", func() { press(m, "?") }},
		{"full help closed", func() { press(m, "esc") }},
		{"weights", func() { press(m, "w") }},
		{"80 columns", func() { m.Update(tea.WindowSizeMsg{Width: 80, Height: 24}); settle(m) }},
		{"light background", func() { m.Update(tea.BackgroundColorMsg{Color: color.White}); settle(m) }},
	} {
		m.footer.view = "stale"
		step.change()
		got, want := m.helpView(), freshFooter(m)
		if got == "stale" || got != want {
			t.Errorf("%s: the footer is %q, want %q", step.name, got, want)
		}
	}
}
