package tabbar

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// titled is a tab of a title alone; short one with a short title too.
type (
	titled struct {
		common.Tab
		title string
	}
	short struct {
		titled
		shortTitle string
	}
)

func (t titled) Title() string     { return t.title }
func (t short) ShortTitle() string { return t.shortTitle }

// dashboardTabs are the dashboard's titles, the long two with short ones.
func dashboardTabs() []common.Tab {
	return []common.Tab{
		titled{title: "Rewards"}, titled{title: "Groups"}, short{titled{title: "Objectives"}, "Objs"},
		titled{title: "Pareto"}, short{titled{title: "Trajectories"}, "Trajs"}, titled{title: "Steps"},
		titled{title: "Compare"}, titled{title: "Prompts"},
	}
}

// TestBarNeverCutsATitle: at every width from the dashboard's narrowest,
// with each tab active, the bar fits, shows the active tab's title whole
// and every other tab's title whole, its short title or its number alone
// (the same for all, the first of these that fits), never a title cut,
// and a click on a label selects its tab. At 80 columns the short titles
// fit.
func TestBarNeverCutsATitle(t *testing.T) {
	tabs := dashboardTabs()
	b := New(tabs)
	st := common.NewStyles(true, true)
	for width := 60; width <= 120; width++ {
		for active := range tabs {
			view := ansi.Strip(b.View(st, active, width))
			if w := ansi.StringWidth(view); w > width || strings.Contains(view, "…") {
				t.Fatalf("width %d, tab %d: %q (%d cells) is cut", width, active+1, view, w)
			}
			fields := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(view))
			kinds := map[string]bool{}
			for i, tab := range tabs {
				number := strconv.Itoa(i + 1)
				at := indexOf(fields, number)
				if at < 0 {
					t.Fatalf("width %d, tab %d: no tab %s in %q", width, active+1, number, view)
				}
				next := ""
				if at+1 < len(fields) {
					next = fields[at+1]
				}
				kind := "number"
				switch {
				case next == tab.Title():
					kind = "title"
				case next != "" && next == shortOf(tab):
					kind = "short"
				}
				if i == active {
					if kind != "title" {
						t.Fatalf("width %d: the active tab %d is not whole in %q", width, active+1, view)
					}
				} else if tab.Title() != shortOf(tab) || kind != "title" {
					kinds[kind] = true
				}
				// The label's first cell is the tab's.
				x := strings.Index(view, number+" "+next)
				if kind == "number" {
					x = strings.Index(view, " "+number+" ") + 1
				}
				if got := b.TabAt(x, active, width); got != i {
					t.Fatalf("width %d, tab %d: a click at %d of %q selects %d, want %d", width, active+1, x, view, got, i)
				}
			}
			if len(kinds) > 1 {
				t.Fatalf("width %d, tab %d: the inactive tabs are shown as %v at once in %q", width, active+1, kinds, view)
			}
			if width == 80 && !kinds["short"] {
				t.Errorf("tab %d at 80 columns: %q, want the short titles", active+1, view)
			}
		}
	}
}

// shortOf returns tab's short title, its title without one.
func shortOf(tab common.Tab) string {
	if s, ok := tab.(short); ok {
		return s.shortTitle
	}
	return tab.Title()
}

func indexOf(fields []string, s string) int {
	for i, f := range fields {
		if f == s {
			return i
		}
	}
	return -1
}

// ExampleBar shows the bar at 80 columns, the Groups tab active.
func ExampleBar() {
	fmt.Println(ansi.Strip(New(dashboardTabs()).View(common.NewStyles(true, true), 1, 80)))
	// Output: 1 Rewards 2 Groups 3 Objs 4 Pareto 5 Trajs 6 Steps 7 Compare 8 Prompts
}
