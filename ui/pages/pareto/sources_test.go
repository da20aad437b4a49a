package pareto

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// sourcesSession is a step of a math source, ranked on accuracy and
// length (and format, when mathFormat), and of a chat source ranked on
// safety alone, as --source-by and [sources.NAME] give them: the chat
// trajectories have no accuracy or length to draw.
func sourcesSession(t *testing.T, mathFormat bool) *session.Session {
	t.Helper()
	var text strings.Builder
	for g := range 2 {
		for c := range 4 {
			fmt.Fprintf(&text, `{"id":"m%d-%d","batch":1,"group":"math %d","metadata":{"task":"math","accuracy":%d,"length":%d,"format":%d}}`+"\n", g, c, g, (g+c)%2, 100+37*c+11*g, c%2)
		}
	}
	for c := range 5 {
		fmt.Fprintf(&text, `{"id":"c-%d","batch":1,"group":"chat 0","metadata":{"task":"chat","safety":%g}}`+"\n", c, 0.5+0.1*float64(c))
	}
	objective := func(name, goal string) setup.ObjectiveConfig {
		return setup.ObjectiveConfig{Name: name, Expr: "metadata." + name, Goal: goal}
	}
	math := []setup.ObjectiveConfig{objective("accuracy", ""), objective("length", "min")}
	if mathFormat {
		math = append(math, objective("format", ""))
	}
	return uitest.TextSessionWith(t, text.String(), setup.Config{
		Method:   "grpo",
		SourceBy: "metadata.task",
		Sources: map[string]setup.SourceConfig{
			"math": {Objectives: math},
			"chat": {Objectives: []setup.ObjectiveConfig{objective("safety", "")}},
		},
	})
}

// sourcesTab is the Pareto tab on s in a terminal of width x height: the
// tab has its lines but the header's, the tab bar's, the status line's
// and the help's.
func sourcesTab(s *session.Session, width, height int) *paretoTab {
	c := &common.Common{Width: width, Height: height - 4, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c)
	tab.SetSize(width, height-4)
	uitest.Refresh(tab, s)
	return tab.(*paretoTab)
}

var terminalSizes = [][2]int{{80, 24}, {100, 30}, {140, 45}}

// TestGoldenParetoSources: the chat trajectories left out of the plot of
// accuracy and length are counted at every size, in short under the
// legend's first lines when the panel is short.
func TestGoldenParetoSources(t *testing.T) {
	s := sourcesSession(t, false)
	for _, size := range terminalSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			golden.RequireEqual(t, uitest.Plain(sourcesTab(s, size[0], size[1])))
		})
	}
}

// TestParetoSourcesNotes: the count of the trajectories not drawn is
// always whole on screen, and the note that ranks are over more
// objectives than the axes is said only when a drawn trajectory's source
// ranks on more: not of the math source's accuracy and length (the axes)
// beside chat's safety, which is not drawn, but of math's accuracy,
// length and format.
func TestParetoSourcesNotes(t *testing.T) {
	for _, mathFormat := range []bool{false, true} {
		s := sourcesSession(t, mathFormat)
		for _, size := range terminalSizes {
			tab := sourcesTab(s, size[0], size[1])
			if x, y := s.Result.Objectives[tab.points.xObj].Name, s.Result.Objectives[tab.points.yObj].Name; x != "accuracy" || y != "length" {
				t.Fatalf("axes %s, %s: the test wants accuracy and length", x, y)
			}
			view := uitest.Plain(tab)
			if !strings.Contains(view, "5 trajectories not drawn: their") && !strings.Contains(view, "5 not drawn (no accuracy/length)") {
				t.Errorf("format %v, %dx%d: the chat trajectories not drawn are not counted whole:\n%s", mathFormat, size[0], size[1], view)
			}
			projects := strings.Contains(view, "ranks are over 3 objectives") || strings.Contains(view, "ranked on 3 objectives")
			if projects != mathFormat {
				t.Errorf("format %v, %dx%d: says ranks are over 3 objectives %v:\n%s", mathFormat, size[0], size[1], projects, view)
			}
			if strings.Contains(view, "over 2 objectives") || strings.Contains(view, "on 2 objectives") {
				t.Errorf("format %v, %dx%d: a note of 2 objectives:\n%s", mathFormat, size[0], size[1], view)
			}
		}
	}
}
