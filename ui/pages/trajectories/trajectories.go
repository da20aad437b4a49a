package trajectories

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
)

// trajectoriesMode is what the Trajectories tab is doing with the keys.
type trajectoriesMode int

const (
	browsing  trajectoriesMode = iota // moving in the table
	filtering                         // typing the filter
	reading                           // scrolling one trajectory
)

type trajectoriesKeyMap struct {
	Sort, Reverse key.Binding
	Filter, Open  key.Binding
	ClearFilter   key.Binding
	ApplyFilter   key.Binding
	Back          key.Binding
	Move, Scroll  key.Binding
	Columns       key.Binding
}

func newTrajectoriesKeyMap() trajectoriesKeyMap {
	return trajectoriesKeyMap{
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort column")),
		Reverse:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter id/group")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to table")),
		// Move and Scroll only describe the table's and viewport's own keys.
		Move:   key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")),
		Scroll: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓/pgup/pgdn", "scroll")),
		// Columns describes the table's left and right.
		Columns: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "scroll columns")),
	}
}

// setMode enables the keys that work in mode.
func (k *trajectoriesKeyMap) setMode(mode trajectoriesMode, filtered bool) {
	for _, b := range []*key.Binding{&k.Sort, &k.Reverse, &k.Filter, &k.Open, &k.Move, &k.Columns} {
		b.SetEnabled(mode == browsing)
	}
	k.ClearFilter.SetEnabled(mode == filtering || (mode == browsing && filtered))
	k.ApplyFilter.SetEnabled(mode == filtering)
	k.Back.SetEnabled(mode == reading)
	k.Scroll.SetEnabled(mode == reading)
}

// trajectoriesTab lists the current batch's trajectories with what the
// engine computed for them, and opens one to read it whole.
type trajectoriesTab struct {
	common        *common.Common
	keys          trajectoriesKeyMap
	width, height int
	mode          trajectoriesMode

	table  table.Table
	filter textinput.Model
	detail viewport.Model
	list   trajectoryList
	// opened is the trajectory shown in reading mode.
	opened trajectory.Opened
}

// New returns the Trajectories tab.
func New(c *common.Common) common.Tab {
	t := &trajectoriesTab{common: c, keys: newTrajectoriesKeyMap(), table: table.New(c.Styles)}
	t.filter = textinput.New()
	t.filter.Prompt = "/"
	t.filter.Placeholder = "id or group"
	t.detail = viewport.New()
	t.list.sortColumn = sortByReward
	t.list.descending = true
	t.keys.setMode(browsing, false)
	return t
}

func (t *trajectoriesTab) Title() string { return "Trajectories" }

// CapturesKeys tells the root to leave every key to the filter being typed.
func (t *trajectoriesTab) CapturesKeys() bool { return t.mode == filtering }

// OwnsFind tells the root that / is this tab's own search.
func (t *trajectoriesTab) OwnsFind() bool { return true }

// Find implements common.TrajectoryFinder: it starts the filter, for /
// pressed on another tab.
func (t *trajectoriesTab) Find() tea.Cmd {
	t.setMode(filtering)
	t.filter.Reset()
	t.refresh()
	return t.filter.Focus()
}

func (t *trajectoriesTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.filter.SetWidth(max(width-2, 1))
	t.detail.SetWidth(width)
	t.detail.SetHeight(max(height-1, 1))
	t.refresh()
}

func (t *trajectoriesTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		t.refresh()
	case tea.KeyPressMsg:
		return t, t.handleKey(msg)
	case tea.MouseWheelMsg:
		if t.mode == reading {
			t.detail, _ = t.detail.Update(msg)
		} else {
			t.table.Update(msg)
		}
	case tea.MouseClickMsg:
		if t.mode == browsing && msg.Button == tea.MouseLeft {
			t.table.Click(msg.Mouse().Y - 1) // under the status line
		}
	}
	return t, nil
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
		var cmd tea.Cmd
		t.detail, cmd = t.detail.Update(msg)
		return cmd
	}
	return t.handleTableKey(msg)
}

func (t *trajectoriesTab) handleTableKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, t.keys.Sort):
		t.list.sortColumn = (t.list.sortColumn + 1) % len(t.list.columns)
		t.refresh()
	case key.Matches(msg, t.keys.Reverse):
		t.list.descending = !t.list.descending
		t.refresh()
	case key.Matches(msg, t.keys.Filter):
		t.setMode(filtering)
		return t.filter.Focus()
	case key.Matches(msg, t.keys.ClearFilter):
		t.filter.Reset()
		t.refresh()
	case key.Matches(msg, t.keys.Open):
		t.open()
	default:
		t.table.Update(msg)
	}
	return nil
}

// handleFilterKey types into the filter, narrowing the table as it goes.
func (t *trajectoriesTab) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, t.keys.ApplyFilter):
		t.setMode(browsing)
		t.refresh()
		return t.findElsewhere()
	case key.Matches(msg, t.keys.ClearFilter):
		t.filter.Reset()
		t.setMode(browsing)
	default:
		t.filter, cmd = t.filter.Update(msg)
	}
	t.refresh()
	return cmd
}

// findElsewhere asks the root for the next batch that has a trajectory
// the kept filter matches when the batch on screen has none: / finds an id
// wherever it is, not only in the batch on screen.
func (t *trajectoriesTab) findElsewhere() tea.Cmd {
	s := t.common.Session
	filter := strings.ToLower(t.filter.Value())
	if len(t.list.rows) > 0 || filter == "" {
		return nil
	}
	n := len(s.Result.Batches)
	for k := 1; k < n; k++ {
		b := (s.Batch + k) % n
		for _, i := range s.Result.Batches[b].Members {
			if matchesFilter(s.Trajectories.At(i), filter) {
				return func() tea.Msg { return common.ShowBatchMsg{Batch: b} }
			}
		}
	}
	return nil
}

func (t *trajectoriesTab) setMode(mode trajectoriesMode) {
	t.mode = mode
	if mode != filtering {
		t.filter.Blur()
	}
	t.keys.setMode(mode, t.filter.Value() != "")
}

// refresh rebuilds the rows from the session, keeping the cursor on the
// same trajectory when it is still listed, and the opened trajectory's
// text.
func (t *trajectoriesTab) refresh() {
	s := t.common.Session
	if s.Result == nil {
		return
	}
	current := t.list.at(t.table.Cursor())
	t.list.build(s, t.filter.Value())
	t.table.SetSize(t.width, max(t.height-1, 2)) // under the status line
	t.table.SetRows(len(t.list.rows))
	t.table.SetColumns(t.list.dataColumns(), 1)
	t.table.SetCursor(max(t.list.position(current), 0))
	if t.mode == reading && !slices.Contains(s.CurrentBatch().Members, t.opened.I) {
		t.mode = browsing // the opened trajectory left with its batch
	}
	t.keys.setMode(t.mode, t.filter.Value() != "")
	if t.mode == reading {
		if t.opened.Stale(s) {
			t.opened = trajectory.Open(s, t.opened.I)
		}
		t.detail.SetContent(trajectory.Detail(t.common, &t.opened, t.width))
	}
}

// open shows the trajectory under the cursor, reading its body again
// when the session keeps it lean.
func (t *trajectoriesTab) open() {
	i := t.list.at(t.table.Cursor())
	if i < 0 {
		return
	}
	t.opened = trajectory.Open(t.common.Session, i)
	t.detail.SetContent(trajectory.Detail(t.common, &t.opened, t.width))
	t.detail.GotoTop()
	t.setMode(reading)
}

func (t *trajectoriesTab) View() string {
	if t.common.Session.Result == nil || t.width <= 0 {
		return ""
	}
	if t.mode == reading {
		return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, t.readingStatus(), t.detail.View()), t.width, t.height)
	}
	return common.FitBox(t.tableStatus()+"\n"+t.table.View(), t.width, t.height)
}

// tableStatus is the line over the table: what it lists and how.
func (t *trajectoriesTab) tableStatus() string {
	st := t.common.Styles
	if t.mode == filtering {
		return t.filter.View()
	}
	parts := []string{
		st.Title.Render(common.Count(len(t.list.rows), "trajectory", "trajectories")),
		st.Muted.Render("sorted by ") + t.list.sortTitle(),
	}
	if f := t.filter.Value(); f != "" {
		parts = append(parts, st.Muted.Render("filter ")+common.FitLine(f, t.width/3))
	}
	if n := t.list.invalid; n > 0 {
		parts = append(parts, st.Invalid.Render(fmt.Sprintf("%d invalid", n)))
	}
	if h := t.table.ScrollHint(); h != "" {
		parts = append(parts, st.Muted.Render(h))
	}
	return ansi.Truncate(strings.Join(parts, st.Muted.Render(" · ")), t.width, "…")
}

func (t *trajectoriesTab) readingStatus() string {
	st := t.common.Styles
	line := st.Title.Render(common.FitLine(t.opened.Full.ID, t.width/2)) +
		st.Muted.Render(fmt.Sprintf(" · %3.0f%%", t.detail.ScrollPercent()*100))
	return ansi.Truncate(line, t.width, "")
}

func (t *trajectoriesTab) ShortHelp() []key.Binding {
	k := t.keys
	return []key.Binding{k.Move, k.Scroll, k.Open, k.Back, k.Sort, k.Reverse, k.Filter, k.ApplyFilter, k.ClearFilter, k.Columns}
}

func (t *trajectoriesTab) FullHelp() [][]key.Binding {
	k := t.keys
	return [][]key.Binding{
		{k.Move, k.Columns, k.Open, k.Sort, k.Reverse},
		{k.Filter, k.ApplyFilter, k.ClearFilter},
		{k.Scroll, k.Back},
	}
}
