package trajectories

import (
	"os"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// finishRun is a batch whose records say how their completions ended
// (open-instruct's finish_reason): one cut at the length limit, one whose
// value holds a control character, one without the field.
const finishRun = `{"id":"t0","group":"g","metadata":{"a":1,"b":0,"finish_reason":"stop"}}
{"id":"t1","group":"g","metadata":{"a":0,"b":1,"finish_reason":"length"}}
{"id":"t2","group":"g","metadata":{"a":0.5,"b":0.5,"finish_reason":"x\u001b[2Jy"}}
{"id":"t3","group":"g","metadata":{"a":0.2,"b":0.2}}
`

// fileSession opens a session on text written to a file, with objectives
// a and b and method grpo: the session keeps the trajectories lean, their
// metadata read again from the file.
func fileSession(t *testing.T, text string) *session.Session {
	t.Helper()
	return uitest.FileSessionWith(t, text, setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}})
}

// TestTrajectoriesFinishColumn: records that say how their completions
// ended get a column of it, titled by their field, before the
// objectives, read of the records the session keeps lean, escaped, empty
// for a record without it. Records without one have none.
func TestTrajectoriesFinishColumn(t *testing.T) {
	s := fileSession(t, finishRun)
	if !s.Trajectories.At(1).Lean {
		t.Fatal("the trajectories are not lean: the test reads nothing again")
	}
	tab := uitest.TabOn(s, New)
	titles := columnTitles(tab.(*trajectoriesTab))
	if want := []string{"id", "group", "score", "grpo", "pareto", "rank", "crowding", "finish_reason", "a", "b"}; !slices.Equal(titles, want) {
		t.Fatalf("columns %v, want %v", titles, want)
	}
	view := tab.View()
	rows := map[string]string{}
	for _, line := range strings.Split(uitest.Plain(tab), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "t") && len(f[0]) == 2 {
			rows[f[0]] = line
		}
	}
	if !strings.Contains(uitest.Plain(tab), "finish_reason") || !strings.Contains(rows["t0"], " stop ") || !strings.Contains(rows["t1"], " length ") ||
		!strings.Contains(rows["t2"], `x\x1b[2Jy`) && !strings.Contains(rows["t2"], `x\x1b[…`) || strings.Contains(view, "\x1b[2J") {
		t.Errorf("rows %q:\n%s", rows, uitest.Plain(tab))
	}

	plain := fileSession(t, strings.ReplaceAll(finishRun, "finish_reason", "reason"))
	if titles := columnTitles(uitest.TabOn(plain, New).(*trajectoriesTab)); slices.Contains(titles, "finish_reason") || slices.Contains(titles, "reason") {
		t.Errorf("without a finish field the columns are %v", titles)
	}
}

// TestTrajectoryDetailFinishReason: the opened trajectory says how its
// completion ended beside done, a cut one marked so.
func TestTrajectoryDetailFinishReason(t *testing.T) {
	tab := uitest.TabOn(fileSession(t, finishRun), New)
	uitest.PressKeys(tab, "/")
	for _, k := range "t1" {
		uitest.PressKeys(tab, string(k))
	}
	uitest.PressKeys(tab, "enter", "enter")
	if view := uitest.Plain(tab); !strings.Contains(view, "finish_reason  length (cut at the length limit)") {
		t.Errorf("detail:\n%s", view)
	}
}

// TestTrajectoriesFinishCellsKept: a follow update that adds trajectories
// keeps the finish cells read: the rows on screen are not read again. One
// that reads files again (Session.Reloads) reads them again.
func TestTrajectoriesFinishCellsKept(t *testing.T) {
	s := fileSession(t, finishRun)
	tab := uitest.TabOn(s, New)
	tab.View()
	path := s.Trajectories.At(0).Source
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	added := *s.Trajectories.At(3)
	added.ID = "t4"
	s.Trajectories.Append(added)
	uitest.Refresh(tab, s)
	if view := uitest.Plain(tab); !strings.Contains(view, " stop ") || !strings.Contains(view, " length ") || strings.Contains(view, " ? ") {
		t.Errorf("the cells were read again after a follow update:\n%s", view)
	}

	// The same records at the same offsets, other finish reasons.
	if err := os.WriteFile(path, []byte(strings.NewReplacer("stop", "STOP", "length", "LENGTH").Replace(finishRun)), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Reloads++
	uitest.Refresh(tab, s)
	if view := uitest.Plain(tab); !strings.Contains(view, " STOP ") || !strings.Contains(view, " LENGTH ") {
		t.Errorf("the cells were not read again after the file was:\n%s", view)
	}
}

// TestTrajectoriesFinishUnread: records that can no longer be read (the
// file truncated) show ? and the status line says why, naming the file.
func TestTrajectoriesFinishUnread(t *testing.T) {
	s := fileSession(t, finishRun)
	path := s.Trajectories.At(0).Source
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	view := uitest.Plain(tab)
	status, _, _ := strings.Cut(view, "\n")
	if !strings.Contains(view, " ? ") || !strings.Contains(status, "? in finish_reason: "+path) {
		t.Errorf("a truncated file's rows:\n%s", view)
	}
}

// update hands msg to tab and returns its command with its job's, as the
// root takes them (common.Worker).
func update(tab *trajectoriesTab, msg tea.Msg) tea.Cmd {
	_, cmd := tab.Update(msg)
	return tea.Batch(cmd, jobCmd(tab))
}

// jobCmd returns the command that runs tab's job, nil when it has none.
func jobCmd(tab *trajectoriesTab) tea.Cmd {
	if run := tab.Job(); run != nil {
		return func() tea.Msg { return run() }
	}
	return nil
}

// runCmds runs cmd, and the commands of a batch, handing their messages
// to tab as the root does, and returns them.
func runCmds(tab *trajectoriesTab, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var msgs []tea.Msg
		for _, c := range batch {
			msgs = append(msgs, runCmds(tab, c)...)
		}
		return msgs
	}
	return append([]tea.Msg{msg}, runCmds(tab, update(tab, msg))...)
}

// listedIDs returns the ids of the tab's rows, in table order.
func listedIDs(tab *trajectoriesTab) []string {
	var ids []string
	for j := range tab.rows.len() {
		ids = append(ids, tab.common.Session.Trajectories.At(tab.rows.row(j)).ID)
	}
	return ids
}

// TestTrajectoriesSortByFinish: s reaches the finish column, whose sort
// reads every listed record: the key leaves the rows in their order and
// the status line says it is sorting, without the column's arrow; the
// command it returns reads the records off the event loop and puts the
// rows in order of their finish reasons (descending: the escaped
// "x\x1b[2Jy", "stop", "length", then t3 without one), the column
// titled with the arrow; S sorts the other way.
func TestTrajectoriesSortByFinish(t *testing.T) {
	s := fileSession(t, finishRun)
	tab := uitest.TabOn(s, New).(*trajectoriesTab)
	for range slices.Index(columnTitles(tab), "finish_reason") - sortByReward - 1 {
		uitest.PressKeys(tab, "s")
	}
	before := listedIDs(tab) // by crowding, the column before
	cmd := update(tab, uitest.KeyPress("s"))
	if cmd == nil {
		t.Fatal("s onto finish_reason returns no command to sort by it")
	}
	view := uitest.Plain(tab)
	status, _, _ := strings.Cut(view, "\n")
	if !strings.Contains(status, "sorting by finish_reason ▼…") || strings.Contains(view, "finish_reason ▼ ") || !slices.Equal(listedIDs(tab), before) {
		t.Errorf("while the records are read, the rows %v (before %v):\n%s", listedIDs(tab), before, view)
	}
	runCmds(tab, cmd)
	if got, want := listedIDs(tab), []string{"t2", "t0", "t1", "t3"}; !slices.Equal(got, want) {
		t.Errorf("sorted by finish_reason ▼: %v, want %v", got, want)
	}
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by finish_reason ▼") || !strings.Contains(view, "finish_reason ▼") {
		t.Errorf("the sort landed, the view:\n%s", view)
	}
	cmd = update(tab, uitest.KeyPress("S"))
	runCmds(tab, cmd)
	if got, want := listedIDs(tab), []string{"t3", "t1", "t0", "t2"}; !slices.Equal(got, want) {
		t.Errorf("sorted by finish_reason ▲: %v, want %v", got, want)
	}
}

// TestTrajectoriesFinishSortDropped: a sort by the finish column that
// lands after the rows were sorted by another column is dropped, and
// stopped: the order stays the other column's.
func TestTrajectoriesFinishSortDropped(t *testing.T) {
	s := fileSession(t, finishRun)
	tab := uitest.TabOn(s, New).(*trajectoriesTab)
	var cmd tea.Cmd
	for range slices.Index(columnTitles(tab), "finish_reason") - sortByReward {
		cmd = update(tab, uitest.KeyPress("s"))
	}
	sort := tab.rows.finishSort
	uitest.PressKeys(tab, "s") // a, before the records are read
	byA := listedIDs(tab)
	runCmds(tab, cmd)
	if !sort.stopped.Load() {
		t.Error("the sort left behind was not stopped")
	}
	if got := listedIDs(tab); !slices.Equal(got, byA) || !strings.Contains(uitest.Plain(tab), "sorted by a ▼") {
		t.Errorf("the stale sort moved the rows: %v, want a's order %v:\n%s", got, byA, uitest.Plain(tab))
	}
}

// TestTrajectoriesFinishSortKeptByRefresh: with a filter on, a refresh
// lists the same rows in a new slice; the sort by the finish column under
// way is kept, and lands.
func TestTrajectoriesFinishSortKeptByRefresh(t *testing.T) {
	s := fileSession(t, finishRun)
	tab := uitest.TabOn(s, New).(*trajectoriesTab)
	uitest.PressKeys(tab, "/", "t", "enter")
	var cmd tea.Cmd
	for range slices.Index(columnTitles(tab), "finish_reason") - sortByReward {
		cmd = update(tab, uitest.KeyPress("s"))
	}
	cmd = tea.Batch(cmd, update(tab, common.SessionChangedMsg{}))
	runCmds(tab, cmd)
	if got, want := listedIDs(tab), []string{"t2", "t0", "t1", "t3"}; !slices.Equal(got, want) || !strings.Contains(uitest.Plain(tab), "sorted by finish_reason ▼") {
		t.Errorf("after a refresh, the sort by finish_reason gave %v, want %v:\n%s", got, want, uitest.Plain(tab))
	}
}

// TestTrajectoriesFinishSortKeepsTheOrder: sorted by the finish column,
// rows that come to the list (a follow update, a filter cleared) come
// after those listed, which keep their order while the records of them
// all are read again.
func TestTrajectoriesFinishSortKeepsTheOrder(t *testing.T) {
	s := fileSession(t, finishRun)
	tab := uitest.TabOn(s, New).(*trajectoriesTab)
	uitest.PressKeys(tab, "/", "t", "1", "enter")
	var cmd tea.Cmd
	for range slices.Index(columnTitles(tab), "finish_reason") - sortByReward {
		cmd = update(tab, uitest.KeyPress("s"))
	}
	runCmds(tab, cmd)
	if got, want := listedIDs(tab), []string{"t1"}; !slices.Equal(got, want) {
		t.Fatalf("filter t1 sorted by finish_reason ▼: %v, want %v", got, want)
	}
	cmd = update(tab, uitest.KeyPress("esc")) // the filter cleared: t0 and t3 come
	if got, want := listedIDs(tab), []string{"t1", "t0", "t2", "t3"}; !slices.Equal(got, want) || !strings.Contains(uitest.Plain(tab), "sorting by finish_reason") {
		t.Errorf("while the records are read again, the rows %v, want %v:\n%s", got, want, uitest.Plain(tab))
	}
	runCmds(tab, cmd)
	if got, want := listedIDs(tab), []string{"t2", "t0", "t1", "t3"}; !slices.Equal(got, want) {
		t.Errorf("sorted by finish_reason ▼: %v, want %v", got, want)
	}
}

// TestTrajectoriesFinishEditedInPlace: a record edited in place after the
// load (t0 rescored: a and b swapped, the same size) is not shown with
// the finish reason of its new text beside its old objectives: its cell
// is ? and the status line says it changed; a sort by the column reads
// it as ? too (descending: t2's escaped text, length, ?, then t3 without
// one).
func TestTrajectoriesFinishEditedInPlace(t *testing.T) {
	s := uitest.FileSessionHere(t, finishRun, setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}})
	edited := strings.Replace(finishRun, `"a":1,"b":0`, `"a":0,"b":1`, 1)
	if err := os.WriteFile(s.Trajectories.At(0).Source, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New).(*trajectoriesTab)
	view := uitest.Plain(tab)
	status, _, _ := strings.Cut(view, "\n")
	if !strings.Contains(status, `? in finish_reason: run.jsonl:1: trajectory "t0" changed since it was loaded`) || strings.Contains(view, " stop ") {
		t.Errorf("the edited record's finish reason:\n%s", view)
	}
	golden.RequireEqual(t, view)

	sorting := uitest.TabOn(s, New).(*trajectoriesTab)
	var cmd tea.Cmd
	for range slices.Index(columnTitles(sorting), "finish_reason") - sortByReward {
		cmd = update(sorting, uitest.KeyPress("s"))
	}
	runCmds(sorting, cmd)
	if got, want := listedIDs(sorting), []string{"t2", "t1", "t0", "t3"}; !slices.Equal(got, want) {
		t.Errorf("sorted by finish_reason ▼: %v, want %v", got, want)
	}
}
