package pareto

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestParetoPanelShowsTheWholeID: the selected point's id, longer than
// the panel's row, wraps over its lines whole (not cut at its end,
// which would hide the part that tells ids apart).
func TestParetoPanelShowsTheWholeID(t *testing.T) {
	var b strings.Builder
	for j := range 8 {
		fmt.Fprintf(&b, `{"id":"run-2026-11-27-experiment-very-long-identifier-s00-p%02d-c7-suffix-xyz","group":"g%d","metadata":{"a":%d,"b":%d}}`+"\n", j, j/4, j, j%3)
	}
	s := uitest.TextSession(t, b.String())
	p := uitest.TabOn(s, New).(*paretoTab)
	p.SetSize(200, 50)
	want := s.Trajectories.At(p.selectedTrajectory()).ID
	id, k := "", -1 // k: the first cell of the id's value
lines:
	for _, l := range strings.Split(uitest.Plain(p), "\n") {
		switch {
		case k < 0:
			if b := strings.Index(l, "id         "); b >= 0 {
				k = ansi.StringWidth(l[:b]) + len("id         ")
				id = strings.TrimSpace(l[b+len("id         "):])
			}
		case strings.Contains(l, "group  "): // the row after the id's
			break lines
		case k <= ansi.StringWidth(l):
			id += strings.TrimSpace(ansi.Cut(l, k, k+paretoPanelWidth))
		}
	}
	if id != want {
		t.Errorf("the panel shows the id %q, want %q", id, want)
	}
}
