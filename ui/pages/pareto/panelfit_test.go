package pareto

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// panelSizes are the tab sizes the panel is checked at: the narrowest
// dashboard's, the README's screenshots' and a wide terminal's.
var panelSizes = [][2]int{{60, 16}, {80, 24}, {140, 45}}

// TestParetoPanelShownWhole: at every size, under either scope, and with
// the selection in a cell several points share (the batch's points
// share more cells than a group's), each line of the panel
// is on screen whole: the axis' label over the plot no wider than the
// canvas, so that it does not push the panel past the tab's edge (it cut
// "ranked on 3 objectives, 2 dr" and "shared by 16 poin" at 60x16), and
// no line of the panel wider than the panel. The screens are kept as
// golden views.
func TestParetoPanelShownWhole(t *testing.T) {
	for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
		for _, size := range panelSizes {
			t.Run(fmt.Sprintf("%s-%dx%d", scope, size[0], size[1]), func(t *testing.T) {
				tab, s := uitest.SampleTab(t, New)
				s.Options.Scope = scope
				s.Recompute()
				tab.Update(common.SessionChangedMsg{})
				tab.SetSize(size[0], size[1])
				p := tab.(*paretoTab)
				for j := range p.points.proj.X {
					if p.cellShare() > 1 {
						break
					}
					p.selected = j
					p.draw()
				}
				if p.cellShare() < 2 && scope == engine.ScopeBatch {
					t.Fatal("no point of the sample shares its cell: the cell line is not checked")
				}
				view := uitest.Plain(tab)
				for _, line := range strings.Split(ansi.Strip(p.panelView()), "\n") {
					if w := ansi.StringWidth(line); w > paretoPanelWidth {
						t.Errorf("panel line %q is %d cells wide, the panel %d", line, w, paretoPanelWidth)
					}
					if !strings.Contains(view, line) {
						t.Errorf("panel line %q is cut on screen:\n%s", line, view)
					}
				}
				golden.RequireEqual(t, view)
			})
		}
	}
}

// TestParetoPositionNeverCutsANumber: the line over the details says
// the point and the group in words when they fit, in short when not,
// on two lines when even that does not: every number whole (a million
// groups' "group 49478 of 125000" was cut to "of 125…").
func TestParetoPositionNeverCutsANumber(t *testing.T) {
	for _, c := range []struct {
		point, points, group, groups int
		want                         []string
	}{
		{1, 8, 4, 16, []string{"point 1 of 8 · group 4 of 16"}},
		{1, 8, 49478, 125000, []string{"point 1/8 · group 49478/125000"}},
		{123456, 1000000, 123456, 1000000, []string{"point 123456/1000000", "group 123456/1000000"}},
	} {
		got := positionLines(c.point, c.points, c.group, c.groups)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("positionLines(%d, %d, %d, %d) = %q, want %q", c.point, c.points, c.group, c.groups, got, c.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > paretoPanelWidth {
				t.Errorf("%q is wider than the panel", l)
			}
		}
		for _, n := range []int{c.point, c.points, c.group, c.groups} {
			if !strings.Contains(strings.Join(got, " "), strconv.Itoa(n)) {
				t.Errorf("%q lacks %d", got, n)
			}
		}
	}
}

// TestParetoNotesFitThePanel: the notes of what the plot leaves out,
// long (wrapped at spaces) or short (cut at a word), are no wider than
// the panel whatever their numbers, and the long ones whole: a million
// invalid trajectories' note was cut to "1000000 invalid trajectories…".
func TestParetoNotesFitThePanel(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*paretoTab)
	p.points.proj.Ranked, p.points.proj.Hidden, p.points.proj.Dropped = 12, 1000000, 1000000
	long := strings.Join(p.notes(false), " ")
	for _, want := range []string{"ranks are over 12 objectives: this plot projects them on two", "1000000 invalid trajectories hidden", "1000000 dropped by the filter, hidden"} {
		if !strings.Contains(ansi.Strip(long), want) {
			t.Errorf("the long notes lack %q: %q", want, ansi.Strip(long))
		}
	}
	shortNotes := ansi.Strip(strings.Join(p.notes(true), " "))
	for _, want := range []string{"ranked on 12 objectives, 2 drawn", "1000000 invalid hidden", "1000000 dropped by the filter"} {
		if !strings.Contains(shortNotes, want) {
			t.Errorf("the short notes lack %q: %q", want, shortNotes)
		}
	}
	for _, short := range []bool{false, true} {
		for _, l := range p.notes(short) {
			if w := ansi.StringWidth(l); w > paretoPanelWidth {
				t.Errorf("short %v: note %q is %d cells wide, the panel %d", short, ansi.Strip(l), w, paretoPanelWidth)
			}
		}
	}
}
