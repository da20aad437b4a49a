package trajectories

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// pendingTab returns the tab on s shown as the root shows it (told of
// the session, then sized) without running the command it returned: the
// first rows selected, the whole order pending.
func pendingTab(t *testing.T, s *session.Session) (*trajectoriesTab, tea.Cmd) {
	t.Helper()
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := New(c).(*trajectoriesTab)
	tab.Update(common.SessionChangedMsg{})
	tab.SetSize(120, 40)
	cmd := jobCmd(tab)
	if tab.rows.pending == nil || len(tab.rows.rows) != firstRows || cmd == nil {
		t.Fatalf("%d rows: %d sorted at once, want the first %d and the rest pending, sorted by a command", tab.rows.len(), len(tab.rows.rows), firstRows)
	}
	return tab, cmd
}

// runSort runs the tab's command that sorts the whole order and hands it
// its message.
func runSort(t *testing.T, tab *trajectoriesTab, cmd tea.Cmd) {
	t.Helper()
	msg, ok := cmd().(orderedMsg)
	if !ok {
		t.Fatalf("the tab's command sends %T, want orderedMsg", msg)
	}
	tab.Update(msg)
}

// Past pendingMin rows, the first rows are shown before the whole order
// is sorted, and the tab shows what it shows once sorted: the same rows,
// the same widths. The tab's command puts the whole order in place; a
// row past the first needed before it (end) sorts it on the spot.
func TestTrajectoriesFirstRowsBeforeTheWholeOrder(t *testing.T) {
	s := uitest.SyntheticSession(t, pendingMin+3000)
	uitest.Refresh(uitest.TabOn(s, New), s) // the health and B's result
	sorted := uitest.TabOn(s, New).(*trajectoriesTab)
	if sorted.rows.pending != nil {
		t.Fatal("the tab's refresh left the order pending")
	}
	want := sorted.rows.rows
	if !slices.IsSortedFunc(want, func(a, b int) int { return -compareFloats(s.Result.Rewards[a], s.Result.Rewards[b]) }) {
		t.Fatal("the whole order is not by descending reward")
	}

	tab, cmd := pendingTab(t, s)
	if got, want := uitest.Plain(tab), uitest.Plain(sorted); got != want {
		t.Errorf("the first rows show\n%s\nthe whole order\n%s", got, want)
	}
	if tab.rows.pending == nil {
		t.Error("drawing the first screen sorted the whole order")
	}
	if !slices.Equal(tab.rows.rows[:firstRows], want[:firstRows]) {
		t.Errorf("first rows %v, want %v", tab.rows.rows[:10], want[:10])
	}
	runSort(t, tab, cmd)
	if tab.rows.pending != nil || !slices.Equal(tab.rows.rows, want) {
		t.Error("the command did not put the whole order in place")
	}

	tab, cmd = pendingTab(t, s)
	uitest.PressKeys(tab, "end")
	uitest.PressKeys(sorted, "end")
	if got, want := uitest.Plain(tab), uitest.Plain(sorted); got != want {
		t.Errorf("end before the command shows\n%s\nwant\n%s", got, want)
	}
	// The command run after the loop sorted finds it done.
	runSort(t, tab, cmd)
	if !slices.Equal(tab.rows.rows, want) {
		t.Error("the order sorted on the spot is not the whole order")
	}

	// The command on its own goroutine, as the program runs it, while the
	// loop needs the order (go test -race).
	tab, cmd = pendingTab(t, s)
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	uitest.PressKeys(tab, "end")
	tab.Update(<-done)
	if got, want := uitest.Plain(tab), uitest.Plain(sorted); got != want || !slices.Equal(tab.rows.rows, sorted.rows.rows) {
		t.Errorf("end while the command sorts shows\n%s\nwant\n%s", got, want)
	}
}

// A method switch keeps the rows' order, waiting for the whole order
// when it is still pending.
func TestTrajectoriesSwitchWhilePending(t *testing.T) {
	s := uitest.SyntheticSession(t, pendingMin+3000)
	uitest.Refresh(uitest.TabOn(s, New), s)
	tab, _ := pendingTab(t, s)
	before := slices.Clone(tab.rows.rows[:firstRows])
	s.Options.Method = "relative"
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	if tab.rows.pending != nil || !slices.Equal(tab.rows.rows[:firstRows], before) {
		t.Errorf("the switch did not keep the whole order: %v, want %v first", tab.rows.rows[:5], before[:5])
	}
}
