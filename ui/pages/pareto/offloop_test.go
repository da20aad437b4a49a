package pareto

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// A batch at or above projectOnLoopBelow is projected by the tab's job:
// meanwhile the tab says it is computing and ignores keys; the job's
// plot is the one drawn on the loop, and the message of a projection no
// longer wanted (the axes changed since it was asked) is dropped.
func TestParetoProjectsALargeBatchOffTheLoop(t *testing.T) {
	onLoop, _ := uitest.SampleTab(t, New)
	o := onLoop.(*paretoTab)
	third := 3 - o.points.xObj - o.points.yObj // the sample's objectives are 0, 1, 2
	o.points.yObj = third
	onLoop.Update(common.SessionChangedMsg{})
	want := uitest.Plain(onLoop)

	defer func(n int) { projectOnLoopBelow = n }(projectOnLoopBelow)
	projectOnLoopBelow = 0
	tab, _ := uitest.SampleTab(t, New) // projected by its job (uitest.Jobs)
	p := tab.(*paretoTab)
	x, y := p.points.xObj, p.points.yObj
	// Other axes, set as the keys set them, ask another projection.
	p.points.xObj, p.points.yObj = y, x
	tab.Update(common.SessionChangedMsg{})
	if v := uitest.Plain(tab); !strings.Contains(v, "computing the projection…") {
		t.Fatalf("while the job runs, the tab does not say so:\n%s", v)
	}
	tab.Update(uitest.KeyPress("x"))
	if p.points.xObj != y || p.points.yObj != x {
		t.Errorf("a key moved the axes while computing: x %d, y %d", p.points.xObj, p.points.yObj)
	}
	first := p.Job()
	if first == nil {
		t.Fatal("no job for the projection")
	}
	if p.Job() != nil {
		t.Error("the job was handed out twice")
	}
	tab.Update(common.SessionChangedMsg{})
	if p.Job() != nil {
		t.Error("the same projection was asked again while its job runs")
	}
	// Other axes again: the first job's message is stale.
	p.points.xObj, p.points.yObj = x, third
	tab.Update(common.SessionChangedMsg{})
	second := p.Job()
	if second == nil {
		t.Fatal("no job for the new axes")
	}
	tab.Update(first())
	if !p.computing {
		t.Fatal("the stale projection was shown")
	}
	tab.Update(second())
	if got := uitest.Plain(tab); got != want {
		t.Errorf("the job's plot differs from the loop's:\n%s\nwant:\n%s", got, want)
	}
}

// With scope batch (a group larger than sortAlone), the projection's job
// sorts its points by (x, y) too: the message brings them, and the tab
// shows the same as when it sorts them itself, on the loop.
func TestParetoJobSortsTheBatchByXY(t *testing.T) {
	_, onLoop := batchScopeTab(t) // 20,000 points: projected on the loop
	want := uitest.Plain(onLoop)

	defer func(n int) { projectOnLoopBelow = n }(projectOnLoopBelow)
	projectOnLoopBelow = 0
	tab, p := batchScopeTab(t)
	msg, ok := p.Job()().(projectedMsg)
	if !ok || len(msg.byXY) != len(msg.proj.X) || len(msg.byXY) == 0 {
		t.Fatalf("the job's message brings %d points by (x, y), of %d", len(msg.byXY), len(msg.proj.X))
	}
	tab.Update(msg)
	if &p.points.byXY[0] != &msg.byXY[0] {
		t.Error("the tab sorted the points by (x, y) again rather than take the job's")
	}
	if got := uitest.Plain(tab); got != want {
		t.Errorf("projected off the loop, the tab draws\n%s\nwant\n%s", got, want)
	}
}

// On a large batch, the same points under another ranking (scope group,
// then scope batch) are indexed again by the tab's job too, not on the
// event loop: the tab says it is computing, keeps its view, and then
// shows what it shows when indexed on the loop.
func TestParetoReindexesOffTheLoop(t *testing.T) {
	_, onLoop := batchScopeTab(t)
	want := uitest.Plain(onLoop)

	tab, p, s := groupScopeOffLoop(t)
	if p.points.ranking != s.Result.Ranking || len(p.points.start) != len(s.CurrentBatch().Groups)+1 {
		t.Fatalf("scope group: the points are indexed under another ranking, or %d groups", len(p.points.start)-1)
	}
	key := p.points.key
	setScope(tab, s, engine.ScopeBatch)
	if !p.computing || p.points.ranking == s.Result.Ranking {
		t.Fatalf("scope batch: indexed on the loop (computing %v)", p.computing)
	}
	msg, ok := p.Job()().(projectedMsg)
	if !ok || msg.key != key || &msg.proj.X[0] != &p.points.proj.X[0] {
		t.Fatal("the job projected the points again rather than index those shown")
	}
	tab.Update(msg)
	if got := uitest.Plain(tab); got != want {
		t.Errorf("indexed off the loop, the tab draws\n%s\nwant\n%s", got, want)
	}
}

// groupScopeOffLoop returns batchScopeTab's tab with every batch
// projected by its job (until the test ends), switched to scope group and
// its points indexed, and its session.
func groupScopeOffLoop(t *testing.T) (common.Tab, *paretoTab, *session.Session) {
	n := projectOnLoopBelow
	t.Cleanup(func() { projectOnLoopBelow = n })
	projectOnLoopBelow = 0
	tab, p := batchScopeTab(t)
	s := p.common.Session
	setScope(tab, s, engine.ScopeGroup)
	uitest.Jobs(tab)
	return tab, p, s
}

// setScope recomputes s with scope and tells tab.
func setScope(tab common.Tab, s *session.Session, scope engine.Scope) {
	s.Options.Scope = scope
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
}

// Back to the ranking shown before a re-index job landed (scope group,
// batch, then group again: the engine keeps each scope's ranking), the
// tab shows its points as a tab new to the session shows them, though it
// was resized or wheeled meanwhile, and drops the job's message; while a
// re-index is pending, a switch of method asks no other.
func TestParetoReindexJobNoLongerWanted(t *testing.T) {
	tab, p, s := groupScopeOffLoop(t)
	group := s.Result.Ranking
	setScope(tab, s, engine.ScopeBatch)
	gen := p.gen
	s.Options.Method = engine.Absolute
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	if p.gen != gen || !p.computing {
		t.Errorf("a switch of method asked the pending re-index again (gen %d, was %d) or ended it", p.gen, gen)
	}
	job := p.Job()
	if job == nil {
		t.Fatal("no re-index job for scope batch")
	}
	tab.SetSize(120, 40)
	tab.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	setScope(tab, s, engine.ScopeGroup)
	if s.Result.Ranking != group {
		t.Fatal("the engine made another ranking for scope group")
	}
	if p.computing {
		t.Error("back to the ranking shown, the tab still computes")
	}
	tab.Update(job())
	if p.points.ranking != group || len(p.points.start) != len(s.CurrentBatch().Groups)+1 {
		t.Errorf("the dropped job's index was installed: %d groups, want %d", len(p.points.start)-1, len(s.CurrentBatch().Groups))
	}
	fresh := uitest.TabOn(s, New)
	if got, want := uitest.Plain(tab), uitest.Plain(fresh); got != want {
		t.Errorf("back to scope group, the tab shows\n%s\nwant\n%s", got, want)
	}
}

// A trajectory open stays open while its points are indexed again: the
// reader is shown, and esc goes back to the plot, computing until the
// job lands.
func TestParetoReadsWhileIndexing(t *testing.T) {
	defer func(n int) { projectOnLoopBelow = n }(projectOnLoopBelow)
	projectOnLoopBelow = 0
	tab, p := batchScopeTab(t)
	uitest.Jobs(tab)
	tab.Update(uitest.KeyPress("enter"))
	if !p.reader.reading {
		t.Fatal("enter opened no trajectory")
	}
	id := p.reader.Opened.Full.ID
	setScope(tab, p.common.Session, engine.ScopeGroup)
	if v := uitest.Plain(tab); !p.computing || !strings.Contains(v, id) || strings.Contains(v, "computing the projection") {
		t.Errorf("while indexing (%v), the open trajectory %q is not shown:\n%s", p.computing, id, v)
	}
	tab.Update(uitest.KeyPress("esc"))
	if p.reader.reading {
		t.Error("esc while indexing left the trajectory open")
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "computing the projection") {
		t.Errorf("back to the plot while indexing, the tab does not say so:\n%s", v)
	}
	uitest.Jobs(tab)
	if p.computing {
		t.Error("the re-index did not land")
	}
}

// The job counts its points in the grid they are drawn in when it lands,
// at the tab's size: the full view of new points, the view shown (zoomed)
// of points indexed again. The tab draws those counts without counting
// on the loop, and they are the counts of the frame drawn; resized while
// the job ran, it counts them again in its new grid.
func TestParetoCountsDensityOffTheLoop(t *testing.T) {
	defer func(n int) { projectOnLoopBelow = n }(projectOnLoopBelow)
	projectOnLoopBelow = 0
	tab, p := batchScopeTab(t)
	s := p.common.Session
	landed := func(resize bool) projectedMsg {
		t.Helper()
		msg, ok := p.Job()().(projectedMsg)
		if !ok || msg.density.counts == nil {
			t.Fatal("the job counted no density")
		}
		if resize {
			tab.SetSize(100, 30)
		}
		tab.Update(msg)
		g := p.drawn.frame.Grid
		counts, best := make([]int32, g.X.Cells*g.Y.Cells), make([]int32, g.X.Cells*g.Y.Cells)
		chart.Density(counts, best, g, p.points.proj.X, p.points.proj.Y, p.points.rank, nil)
		if !slices.Equal(p.drawn.counts, counts) || !slices.Equal(p.drawn.best, best) {
			t.Error("the counts drawn are not the frame's points")
		}
		// The tab counts only in a grid other than its counts' own: the
		// job's arrays are drawn as they came, or counted again.
		expected := msg.density.of == p.drawn.density.of
		taken := &msg.density.counts[0] == &p.drawn.counts[0]
		if expected == resize || taken == resize {
			t.Errorf("resized %v: the job counted in the grid drawn %v, its counts drawn %v", resize, expected, taken)
		}
		return msg
	}
	landed(false)
	tab.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if !p.zoomed() {
		t.Fatal("the wheel did not zoom")
	}
	setScope(tab, s, engine.ScopeGroup)
	landed(false)
	if !p.zoomed() {
		t.Error("indexed again, the view is no longer zoomed")
	}
	setScope(tab, s, engine.ScopeBatch)
	landed(true)
}
