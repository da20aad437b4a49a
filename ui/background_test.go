package ui

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// headerLine returns the screen's first line.
func headerLine(m *Model) string { return strings.SplitN(screen(m), "\n", 2)[0] }

// TestSwitchShowsTheBatchFirst drives a method switch on the sample's 40
// batches by messages: the recompute's result shows the new method in the
// header with the batch on screen computed, while the other batches and
// the health wait, the badge saying it is updating; then the background
// job lands and brings the other batches, the trends and the badge.
func TestSwitchShowsTheBatchFirst(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "]", "]")
	s := m.Session()
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	if h := headerLine(m); !strings.Contains(h, "method: pareto-crowding") || !strings.Contains(h, "health updating") {
		t.Fatalf("after the recompute landed, the header is %q; want the new method and the health updating", h)
	}
	if s.Result.Finished() {
		t.Fatal("every batch was computed before the screen changed")
	}
	want := s.Evaluation.Compute(s.Options)
	for _, i := range s.CurrentBatch().Members {
		if s.Result.Rewards[i] != want.Rewards[i] {
			t.Fatalf("trajectory %d of the batch shown: reward %v, want %v", i, s.Result.Rewards[i], want.Rewards[i])
		}
	}
	if !strings.Contains(screen(m), "Rewards: pareto-crowding") {
		t.Errorf("the Rewards tab does not show the new method:\n%s", screen(m))
	}

	j := s.HealthJob()
	if !s.HealthJobCurrent(j) || j.Claim() {
		t.Fatal("no background job was started for the result shown")
	}
	j.Run()
	m.Update(healthDoneMsg{j})
	if h := headerLine(m); strings.Contains(h, "updating") || !strings.Contains(h, "alert") && !strings.Contains(h, "healthy") {
		t.Errorf("after the background job, the header is %q; want the health badge", h)
	}
	if !s.Result.Finished() || !s.HealthReady() {
		t.Fatal("the background job did not finish the result and its health")
	}
	trends := diagnose.Trends(want, s.HVRef)
	for bi, tr := range s.Trends() {
		if tr.Reward != trends[bi].Reward || tr.Score != trends[bi].Score {
			t.Fatalf("batch %d's trend point %+v, want %+v", bi, tr, trends[bi])
		}
	}
}

// TestStaleHealthIsDropped lands a health job for a result that another
// switch replaced: the badge keeps saying it is updating.
func TestStaleHealthIsDropped(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	old := m.Session().HealthJob()
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	old.Run()
	m.Update(healthDoneMsg{old})
	if h := headerLine(m); !strings.Contains(h, "method: gdpo") || !strings.Contains(h, "health updating") {
		t.Errorf("a stale health job changed the header: %q", h)
	}
	if m.Session().HealthReady() {
		t.Error("the stale job's health was kept")
	}
}

// TestStepsTabWaitsForTheJob shows the Steps tab while the health is
// being computed: it takes the job's trends rather than computing its own.
func TestStepsTabWaitsForTheJob(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	j := m.Session().HealthJob()
	press(m, "6") // Steps
	if !m.Session().HealthReady() {
		t.Fatal("the Steps tab did not run the result's health job")
	}
	if m.Session().HealthJob() != j {
		t.Error("the Steps tab's trends are not the job's")
	}
}

// spyTab counts what the root asks of the tab it wraps.
type spyTab struct {
	common.Tab
	sized, changed int
}

func (t *spyTab) SetSize(width, height int) {
	t.sized++
	t.Tab.SetSize(width, height)
}

func (t *spyTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if _, ok := msg.(common.SessionChangedMsg); ok {
		t.changed++
	}
	_, cmd := t.Tab.Update(msg)
	return t, cmd
}

// TestHiddenTabsAreBuiltWhenShown checks that the Trajectories tab, whose
// rows are sorted when built, is not built at start but when shown.
func TestHiddenTabsAreBuiltWhenShown(t *testing.T) {
	m := NewModel(uitest.SampleSession(t), true)
	spy := &spyTab{Tab: m.tabs[4]}
	m.tabs[4] = spy
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Settle()
	if spy.sized != 0 || spy.changed != 0 {
		t.Fatalf("the Trajectories tab was built at start: sized %d times, told of the session %d times", spy.sized, spy.changed)
	}
	press(m, "5")
	if spy.sized != 1 || spy.changed != 1 {
		t.Fatalf("the Trajectories tab shown was sized %d times, told of the session %d times", spy.sized, spy.changed)
	}
	if v := screen(m); !strings.Contains(v, "[5 Trajectories]") || !strings.Contains(v, "reward") {
		t.Errorf("the Trajectories tab is not drawn:\n%s", v)
	}
}

// TestSwitchesReuseArrays switches method many times: the rewards live in
// two arrays taken in turn, and what a switch allocates does not grow with
// the batch (the charts' canvases, the size of the terminal, are most of
// it): no array of the batch (rewards, a sort's keys, a column of values)
// is made per switch.
func TestSwitchesReuseArrays(t *testing.T) {
	if testing.Short() {
		t.Skip("100k trajectories")
	}
	small, arrays := switchAllocs(t, 20_000)
	if arrays > 2 {
		t.Errorf("14 switches used %d rewards arrays, want 2 taken in turn", arrays)
	}
	if raceEnabled {
		return // its sync.Pool drops arrays at random
	}
	// A pool emptied by a garbage collection makes an array again now and
	// then, hence half an array's difference, and the lesser of two runs:
	// on a loaded machine one run in a few remade arrays beyond that.
	large, _ := switchAllocs(t, 100_000)
	if large > small {
		again, _ := switchAllocs(t, 100_000)
		large = min(large, again)
	}
	if grew, array := int64(large)-int64(small), int64(80_000*8); grew > array/2 {
		t.Errorf("a switch allocates %d bytes at 100k trajectories, %d at 20k: %d more; an array of the difference is %d", large, small, grew, array)
	}
}

// switchAllocs switches method 14 times on n trajectories, after a few
// switches to warm up, and returns the bytes allocated per switch and the
// number of rewards arrays the results used.
func switchAllocs(t *testing.T, n int) (perSwitch uint64, arrays int) {
	m := NewModel(uitest.SyntheticSession(t, n), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m.Settle()
	for range 4 { // the first switches make the second array
		press(m, "m")
	}
	seen := map[*float64]bool{}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const switches = 14
	for range switches {
		press(m, "m")
		seen[unsafe.SliceData(m.Session().Result.Rewards)] = true
	}
	runtime.ReadMemStats(&after)
	// 18 switches from pareto, the fifth of the seven methods.
	if got, want := m.Session().Result.Options.Method, engine.Methods[(4+18)%len(engine.Methods)]; got != want {
		t.Errorf("ended on method %s, want %s", got, want)
	}
	return (after.TotalAlloc - before.TotalAlloc) / switches, len(seen)
}
