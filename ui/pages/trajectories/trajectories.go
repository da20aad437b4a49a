package trajectories

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/list"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
)

// trajectoriesMode is what the Trajectories tab is doing with the keys.
type trajectoriesMode int

const (
	browsing  trajectoriesMode = iota // moving in the table
	filtering                         // typing the filter
	reading                           // scrolling one trajectory
)

// trajectoriesKeyMap are the tab's keys beside the list's own.
type trajectoriesKeyMap struct {
	Open, Back   key.Binding
	Move, Scroll key.Binding
	// Ends are the reader's home and end (list.ScrollReader).
	Ends    key.Binding
	Columns key.Binding
}

func newListKeyMap() list.KeyMap {
	return list.KeyMap{
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort column")),
		Reverse:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter id/group")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
	}
}

func newTrajectoriesKeyMap() trajectoriesKeyMap {
	return trajectoriesKeyMap{
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to table")),
		// Move and Scroll only describe the table's and viewport's own keys.
		Move:   key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")),
		Scroll: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓/pgup/pgdn", "scroll")),
		Ends:   common.ReaderEndsKey(),
		// Columns describes the table's left and right.
		Columns: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "scroll columns")),
	}
}

// setKeys enables the keys that work in mode.
func (t *trajectoriesTab) setKeys(mode trajectoriesMode) {
	k, lk := &t.keys, &t.list.Keys
	for _, b := range []*key.Binding{&lk.Sort, &lk.Reverse, &lk.Filter, &k.Open, &k.Move, &k.Columns} {
		b.SetEnabled(mode == browsing)
	}
	lk.ClearFilter.SetEnabled(mode == filtering || (mode == browsing && t.list.Filtered()))
	lk.ApplyFilter.SetEnabled(mode == filtering)
	k.Back.SetEnabled(mode == reading)
	k.Scroll.SetEnabled(mode == reading)
	k.Ends.SetEnabled(mode == reading)
}

// trajectoriesTab lists the current batch's trajectories with what the
// engine computed for them, and opens one to read it whole.
type trajectoriesTab struct {
	common        *common.Common
	keys          trajectoriesKeyMap
	width, height int
	mode          trajectoriesMode

	// list is the table, its filter and sort, and the reader of the
	// opened trajectory; rows what it lists.
	list list.List
	rows trajectoryList
	// cursorAt is the trajectory under the cursor (noteCursor), found
	// again when follow mode read files again.
	cursorAt trajectory.Selection
}

// New returns the Trajectories tab.
func New(c *common.Common) common.Tab {
	t := &trajectoriesTab{common: c, keys: newTrajectoriesKeyMap(), list: list.New(c.Styles, newListKeyMap(), "id or group")}
	t.list.SortColumn = sortByReward
	t.list.Descending = true
	t.setKeys(browsing)
	return t
}

func (t *trajectoriesTab) Title() string { return "Trajectories" }

// ShortTitle is the title on a narrow tab bar.
func (t *trajectoriesTab) ShortTitle() string { return "Trajs" }

// CapturesKeys tells the root to leave every key to the filter being typed.
func (t *trajectoriesTab) CapturesKeys() bool { return t.mode == filtering }

// ShowsCompare implements common.Comparer: a column shows method B's
// rewards.
func (t *trajectoriesTab) ShowsCompare() bool { return true }

// OwnsFind tells the root that / is this tab's own search on the table;
// reading a trajectory, / is the global find, which comes back here.
func (t *trajectoriesTab) OwnsFind() bool { return t.mode != reading }

// Find implements common.TrajectoryFinder: it starts the filter, for /
// pressed on another tab or reading a trajectory.
func (t *trajectoriesTab) Find() tea.Cmd {
	t.setMode(filtering)
	t.list.Filter.Reset()
	t.refresh()
	return t.list.StartFilter()
}

// SetSize lays the table out again; the rows, once listed, stay as they
// are (sorting a million of them again would be for nothing).
func (t *trajectoriesTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.list.SetSize(width, height)
	if t.rows.columns == nil {
		t.refresh()
		return
	}
	t.list.Table.SetSize(t.width, max(t.height-1, 2)) // under the status line
}

func (t *trajectoriesTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	cmd := t.update(msg)
	t.noteCursor()
	return t, tea.Batch(cmd, t.cursorAt.GoneNotice(&t.list.Reading))
}

// noteCursor notes the trajectory under the cursor, for rebuild to find
// it after follow mode read files again; not while the rows are of the
// run before (their indices are no longer the session's).
func (t *trajectoriesTab) noteCursor() {
	t.cursorAt.Note(t.common.Session, t.rows.at(t.list.Table.Cursor()), t.rows.reloads)
}

// Job implements common.Worker: the read of the opened trajectory
// (list.List.Job), the sort by the finish column, or the whole order of
// rows of which only the first were sorted (the table shows them
// meanwhile, and a row past them needed before it is done waits for it).
// Its message comes back to this tab even when another is shown by then.
func (t *trajectoriesTab) Job() func() tea.Msg {
	if job := t.list.Job(); job != nil {
		return job
	}
	return t.rows.job()
}

func (t *trajectoriesTab) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		return t.refreshKeepingOrder()
	case orderedMsg:
		t.rows.ordered(msg)
	case finishSortedMsg:
		t.finishSorted(msg)
	case list.OpenedMsg:
		cmd := t.list.ReadDone(t.common, msg)
		if !t.list.Gone() || t.mode != reading {
			return nil // a read the reader closed by esc lands unsaid
		}
		t.setMode(browsing)
		return cmd
	case tea.KeyPressMsg:
		return t.handleKey(msg)
	case tea.MouseWheelMsg:
		if t.mode == reading {
			t.list.Reader, _ = t.list.Reader.Update(msg)
		} else {
			t.list.Table.Update(msg)
		}
	case tea.MouseClickMsg:
		if t.mode == browsing && msg.Button == tea.MouseLeft {
			t.list.Table.Click(msg.Mouse().Y - 1) // under the status line
		}
	}
	return nil
}

func (t *trajectoriesTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch t.mode {
	case filtering:
		return t.handleFilterKey(msg)
	case reading:
		if key.Matches(msg, t.keys.Back) {
			t.setMode(browsing)
			return nil
		}
		return t.list.ScrollReader(msg)
	}
	return t.handleTableKey(msg)
}

func (t *trajectoriesTab) handleTableKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case t.list.Sorting(msg, len(t.rows.columns)):
		t.list.SortColumn = t.rows.nextSortable(t.list.SortColumn)
		t.refresh()
		t.list.Table.ShowColumn(t.rows.sortColumn)
	case key.Matches(msg, t.list.Keys.Filter):
		t.setMode(filtering)
		return t.list.StartFilter()
	case key.Matches(msg, t.list.Keys.ClearFilter):
		t.list.Filter.Reset()
		t.refresh()
	case key.Matches(msg, t.keys.Open):
		t.open()
	default:
		t.list.Table.Update(msg)
	}
	return nil
}

// handleFilterKey types into the filter, narrowing the table as it goes.
func (t *trajectoriesTab) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, done, kept := t.list.TypeFilter(msg)
	if done {
		t.setMode(browsing)
	}
	t.refresh()
	if kept {
		return t.findElsewhere()
	}
	return cmd
}

// findElsewhere asks the root for the next batch that has a trajectory
// the kept filter matches when the batch on screen has none, saying the
// move, or says that no batch has one: / finds an id wherever it is, not
// only in the batch on screen.
func (t *trajectoriesTab) findElsewhere() tea.Cmd {
	s := t.common.Session
	filter := t.list.FilterText()
	if t.rows.len() > 0 || filter == "" {
		return nil
	}
	typed := `"` + textsafe.Line(t.list.Filter.Value()) + `"`
	b := common.BatchWithMatch(s, filter)
	if b < 0 {
		notice := "no trajectory matches " + typed + " in any batch"
		holds := func() bool { return t.list.FilterText() == filter }
		return func() tea.Msg { return common.NoticeMsg{Text: notice, Holds: holds} }
	}
	notice := typed + " found in " + common.BatchName(s, b)
	return func() tea.Msg { return common.ShowBatchMsg{Batch: b, Notice: notice} }
}

// ShowsWritten implements common.WrittenShower: the batch shown holds a
// trajectory the group filter dropped, which the table lists.
func (t *trajectoriesTab) ShowsWritten() bool { return t.common.Session.DropsInBatch() }

// ShowsDetail implements common.DetailShower: a trajectory is open.
func (t *trajectoriesTab) ShowsDetail() bool { return t.mode == reading }

func (t *trajectoriesTab) setMode(mode trajectoriesMode) {
	t.mode = mode
	if mode != filtering {
		t.list.StopFilter()
	}
	t.setKeys(mode)
}

// refresh rebuilds the rows from the session, sorted, keeping the cursor
// on the same trajectory when it is still listed, and the opened
// trajectory's text.
func (t *trajectoriesTab) refresh() { t.rebuild(false) }

// refreshKeepingOrder is refresh after the session changed: the same rows
// keep their order until the user sorts again. Its command says when the
// opened trajectory was closed, the run read again without it.
func (t *trajectoriesTab) refreshKeepingOrder() tea.Cmd { return t.rebuild(true) }

func (t *trajectoriesTab) rebuild(keepOrder bool) tea.Cmd {
	s := t.common.Session
	if s.Result == nil || s.RewardBPending() {
		return nil // the recompute computing B's rewards changes the session
	}
	table := &t.list.Table
	current := t.cursorAt.Follow(s, t.rows.at(table.Cursor()), t.rows.reloads, s.Reloads)
	t.rows.build(s, t.list.FilterText(), t.list.SortColumn, t.list.Descending, keepOrder)
	t.list.SortColumn = t.rows.sortColumn
	table.SetSize(t.width, max(t.height-1, 2)) // under the status line
	table.SetRows(t.rows.len())
	table.SetColumns(t.rows.dataColumns(s), 1)
	table.SetCursor(max(t.rows.position(current), 0))
	var cmd tea.Cmd
	if t.mode == reading {
		cmd = t.list.Reread(t.common) // found where it is now
		if t.list.Gone() || !slices.Contains(s.CurrentBatch().Members, t.list.Opened.I) {
			t.mode = browsing // it left with its batch, or with its file's lines
			t.list.Close()
		}
	}
	t.setKeys(t.mode)
	t.noteCursor()
	return cmd
}

// finishSorted puts the order of a sort by the finish column in place
// when it is the one under way, the cursor staying on its trajectory, and
// the column titled with the sort's arrow.
func (t *trajectoriesTab) finishSorted(msg finishSortedMsg) {
	table := &t.list.Table
	current := t.rows.at(table.Cursor())
	if !t.rows.finishSorted(msg) {
		return
	}
	table.SetColumns(t.rows.dataColumns(t.common.Session), 1)
	table.SetCursor(max(t.rows.position(current), 0))
}

// open shows the trajectory under the cursor, reading its body again
// when the session keeps it lean.
func (t *trajectoriesTab) open() {
	i := t.rows.at(t.list.Table.Cursor())
	if i < 0 {
		return
	}
	t.list.Open(t.common, i)
	t.setMode(reading)
}

func (t *trajectoriesTab) View() string {
	if t.common.Session.Result == nil || t.width <= 0 {
		return ""
	}
	if s := t.common.Session; s.RewardBPending() {
		return common.FitBox(common.Computing(t.common.Styles, textsafe.Line(string(s.CompareMethod))+"'s rewards", t.width), t.width, t.height)
	}
	if t.mode == reading {
		return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, t.list.ReaderStatus(t.common.Styles, ""), t.list.Reader.View()), t.width, t.height)
	}
	table := t.list.Table.View() // first: drawing its finish cells may fail a read the status line says
	return common.FitBox(t.tableStatus()+"\n"+table, t.width, t.height)
}

// tableStatus is the line over the table: what it lists and how.
func (t *trajectoriesTab) tableStatus() string {
	st := t.common.Styles
	invalid, dropped := "", ""
	if n := t.rows.invalid; n > 0 {
		invalid = st.Invalid.Render(fmt.Sprintf("%d invalid", n))
	}
	if n := t.rows.dropped; n > 0 { // by the group filter: not invalid data
		dropped = fmt.Sprintf("%d dropped", n)
	}
	unread := ""
	if why := t.rows.finish.failure; why != "" {
		unread = st.Invalid.Render(unreadCell + " in " + t.rows.finish.field + ": " + why)
	}
	return t.list.Status(st, t.mode == filtering,
		st.Title.Render(common.Count(t.rows.len(), "trajectory", "trajectories")),
		t.sortPart(),
		unread,
		invalid,
		dropped)
}

// sortPart says how the rows are ordered: "sorted by pareto ▼", or, when
// a change of method kept an order the column no longer gives,
// "order of pareto ▼ (s sorts)", or, while a sort by the finish column
// reads the records, "sorting by finish_reason ▼…".
func (t *trajectoriesTab) sortPart() string {
	st := t.common.Styles
	if t.rows.finishSort != nil {
		return st.Muted.Render("sorting by ") + t.list.SortTitle(t.rows.columns[t.rows.sortColumn].title) + st.Muted.Render("…")
	}
	if t.rows.sorted(t.common.Session) {
		return st.Muted.Render("sorted by ") + t.list.SortTitle(t.rows.columns[t.rows.sortColumn].title)
	}
	// As the Groups tab's group view says it: "order kept from" when no
	// column shown is the one the rows were sorted by any more.
	of := "order kept from "
	for k, c := range t.rows.columns {
		if c.title == t.rows.sortedBy && (k != sortByRewardB || t.common.Session.ShowsRewardB()) {
			of = "order of "
		}
	}
	return st.Muted.Render(of) + t.list.SortTitle(t.rows.sortedBy) + st.Muted.Render(" (s sorts)")
}

// columnsKey is ←/→, offered only when the table has columns off screen:
// with every column shown they would do nothing.
func (t *trajectoriesTab) columnsKey() key.Binding {
	return t.list.Table.OnlyWhenScrolls(t.keys.Columns)
}

func (t *trajectoriesTab) ShortHelp() []key.Binding {
	k, lk := t.keys, t.list.Keys
	k.Columns = t.columnsKey()
	return []key.Binding{k.Move, k.Scroll, k.Open, k.Back, lk.Sort, lk.Reverse, lk.Filter, lk.ApplyFilter, lk.ClearFilter, k.Columns}
}

func (t *trajectoriesTab) FullHelp() [][]key.Binding {
	k, lk := t.keys, t.list.Keys
	k.Columns = t.columnsKey()
	moves := []key.Binding{k.Move}
	if t.mode == browsing {
		tk := t.list.Table.Keys
		moves = append(moves, tk.PageUp, tk.PageDown, tk.Home, tk.End)
	}
	return [][]key.Binding{
		append(moves, k.Columns, k.Open, lk.Sort, lk.Reverse),
		{lk.Filter, lk.ApplyFilter, lk.ClearFilter},
		{k.Scroll, k.Ends, k.Back},
	}
}
