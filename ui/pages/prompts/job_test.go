package prompts

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// stepsSession is one prompt p answered twice at each of steps 0 to n-1,
// one completion passing.
func stepsSession(t *testing.T, n int) *session.Session {
	t.Helper()
	var b strings.Builder
	for step := range n {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"%d-%d","group":"p","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", step, c, step, c, step)
		}
	}
	return uitest.TextSession(t, b.String())
}

// TestPromptsAnalysisOffTheEventLoop: the session's change starts the
// analysis as a command and the tab says it is under way; the analysis
// is shown once its message comes back.
func TestPromptsAnalysisOffTheEventLoop(t *testing.T) {
	c := &common.Common{Width: 100, Height: 30, Styles: common.NewStyles(true, true), Session: stepsSession(t, 3)}
	tab := New(c).(*promptsTab)
	tab.SetSize(100, 30)
	_, cmd := tab.Update(common.SessionChangedMsg{})
	if cmd == nil {
		t.Fatal("the session's change started no analysis")
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "analysing the prompts") {
		t.Errorf("before the analysis lands the tab shows:\n%s", v)
	}
	if _, again := tab.Update(common.SessionChangedMsg{}); again != nil {
		t.Error("a second change of nothing started a second analysis")
	}
	tab.Update(cmd())
	if v := uitest.Plain(tab); !strings.HasPrefix(v, "1 prompt ") || !strings.Contains(v, "solved at  mean") {
		t.Errorf("the analysis landed, the tab shows:\n%s", v)
	}
	if _, again := tab.Update(common.SessionChangedMsg{}); again != nil {
		t.Error("the session did not change, yet an analysis started")
	}
}

// TestPromptsStaleAnalysisIsDropped: an analysis that lands after a newer
// one started (the run grew meanwhile) is not shown; the newer one is.
func TestPromptsStaleAnalysisIsDropped(t *testing.T) {
	c := &common.Common{Width: 100, Height: 30, Styles: common.NewStyles(true, true), Session: stepsSession(t, 2)}
	tab := New(c).(*promptsTab)
	tab.SetSize(100, 30)
	_, old := tab.Update(common.SessionChangedMsg{})
	c.Session = stepsSession(t, 5)
	_, current := tab.Update(common.SessionChangedMsg{})
	if old == nil || current == nil {
		t.Fatal("no analysis started")
	}
	stale := old()
	tab.Update(stale)
	if v := uitest.Plain(tab); !strings.Contains(v, "analysing the prompts") {
		t.Errorf("the stale analysis of 2 steps was shown:\n%s", v)
	}
	tab.Update(current())
	if got := tab.steps; len(got) != 5 {
		t.Errorf("steps %v, want the 5 of the newer session", got)
	}
	tab.Update(stale)
	if got := tab.steps; len(got) != 5 {
		t.Errorf("a stale analysis landing late replaced the newer: steps %v", got)
	}
}

// TestPromptsAnalysisLandedElsewhere: an analysis whose message went to
// another tab (the user switched) is shown when the tab is drawn.
func TestPromptsAnalysisLandedElsewhere(t *testing.T) {
	c := &common.Common{Width: 100, Height: 30, Styles: common.NewStyles(true, true), Session: stepsSession(t, 3)}
	tab := New(c).(*promptsTab)
	tab.SetSize(100, 30)
	_, cmd := tab.Update(common.SessionChangedMsg{})
	cmd() // its message goes to another tab
	if v := uitest.Plain(tab); !strings.HasPrefix(v, "1 prompt ") {
		t.Errorf("the analysis done is not drawn:\n%s", v)
	}
}

// BenchmarkAnalysisJob1M runs the tab's analysis job, what the first visit
// waits for unless it was made when idle, on 1M trajectories in one batch,
// groups of 8 (125,000 prompts): the analysis, the means, the statuses
// and their counts, the prompts by name.
func BenchmarkAnalysisJob1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	c := &common.Common{Width: 140, Height: 45, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c).(*promptsTab)
	tab.SetSize(140, 43)
	b.ReportAllocs()
	for b.Loop() {
		tab.of, tab.job = analysisOf{}, nil
		tab.refresh()
		tab.job.run(nil)
	}
}

// TestPromptsOrderChangedWhileAnalysing: the analysis lists the rows in
// the order the tab had when it started; a sort chosen meanwhile lists
// them again when it lands.
func TestPromptsOrderChangedWhileAnalysing(t *testing.T) {
	_, s := handBuilt(t)
	tab := uitest.TabOn(s, New).(*promptsTab)
	if tab.job == nil {
		t.Fatal("no analysis under way")
	}
	uitest.PressKeys(tab, "s") // by first solved
	tab.Settle()
	if got, want := tab.listed(), []string{"always", "forgotten", "learned", "never"}; !slices.Equal(got, want) {
		t.Errorf("sorted by first solved while analysing: %v, want %v", got, want)
	}
}
