// Package list is the dashboard's list of rows: a table that a typed
// filter narrows, sorted by a column, whose rows open into a reader that
// shows one trajectory whole. The Groups and Trajectories tabs are each a
// List and the rows they list; a tab owns what its rows are, how they
// match the filter, sort and show, and the list owns the mechanics.
package list

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/table"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
)

// KeyMap are the keys a list handles itself; the tab enables them for
// what it shows and gives their help.
type KeyMap struct {
	Sort, Reverse            key.Binding // the next sort column, the other direction
	Filter                   key.Binding // start typing the filter
	ApplyFilter, ClearFilter key.Binding // keep the typed filter, clear it
}

// List is a table, its filter and sort, and the reader of an opened
// trajectory.
type List struct {
	Keys   KeyMap
	Table  table.Table
	Filter textinput.Model
	// SortColumn is the column the rows are sorted by, Descending its
	// direction: the tab sorts by them.
	SortColumn int
	Descending bool
	// Reader shows the opened trajectory whole, read off the event loop
	// when the session keeps it lean (Reading: the tab hands out its Job
	// and gives its OpenedMsg to ReadDone).
	Reader viewport.Model
	trajectory.Reading

	width int
}

// New returns a list drawn with st whose filter says placeholder while
// empty.
func New(st *common.Styles, keys KeyMap, placeholder string) List {
	l := List{Keys: keys, Table: table.New(st), Reader: viewport.New()}
	l.Filter = textinput.New()
	l.Filter.Prompt = "/"
	l.Filter.Placeholder = placeholder
	return l
}

// SetSize gives the filter and the reader width x height cells, the
// reader under its status line.
func (l *List) SetSize(width, height int) {
	l.width = width
	l.Filter.SetWidth(max(width-2, 1))
	l.Reader.SetWidth(width)
	l.Reader.SetHeight(max(height-1, 1))
}

// Filtered reports whether a filter is kept or being typed.
func (l *List) Filtered() bool { return l.Filter.Value() != "" }

// FilterText is the filter in lower case, as rows are matched against it.
func (l *List) FilterText() string { return strings.ToLower(l.Filter.Value()) }

// StartFilter focuses the filter, for the keys to type into it.
func (l *List) StartFilter() tea.Cmd { return l.Filter.Focus() }

// StopFilter leaves the filter as it is, no longer typed into.
func (l *List) StopFilter() { l.Filter.Blur() }

// TypeFilter types msg into the filter. done says the typing ended: the
// filter kept (ApplyFilter: kept is true) or cleared (ClearFilter). The
// tab then leaves its typing mode; either way it matches its rows again.
func (l *List) TypeFilter(msg tea.KeyPressMsg) (cmd tea.Cmd, done, kept bool) {
	switch {
	case key.Matches(msg, l.Keys.ApplyFilter):
		return nil, true, true
	case key.Matches(msg, l.Keys.ClearFilter):
		l.Filter.Reset()
		return nil, true, false
	}
	l.Filter, cmd = l.Filter.Update(msg)
	return cmd, false, false
}

// Sorting handles the sort keys while browsing, over columns columns: it
// reports whether msg changed the sort (the tab sorts its rows again).
func (l *List) Sorting(msg tea.KeyPressMsg, columns int) bool {
	switch {
	case key.Matches(msg, l.Keys.Sort):
		l.SortColumn = (l.SortColumn + 1) % columns
	case key.Matches(msg, l.Keys.Reverse):
		l.Descending = !l.Descending
	default:
		return false
	}
	return true
}

// SortTitle names the sort: the column's title and the direction's arrow.
func (l *List) SortTitle(title string) string { return title + common.SortArrow(l.Descending) }

// Status is the line over the table: the filter while it is typed, else
// the parts ("" ones left out), the kept filter and the table's scroll
// hint, joined by dots and cut to the width. The filter, what the user
// typed (textsafe.Shorten), and the hint of the columns off screen (what
// ←/→ act on) are kept whole while they fit: the parts are cut first,
// after a word (common.FitWords), the last ones first.
func (l *List) Status(st *common.Styles, typing bool, parts ...string) string {
	if typing {
		return l.Filter.View()
	}
	var kept, tail []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if f := l.Filter.Value(); f != "" {
		tail = append(tail, st.Muted.Render("filter ")+textsafe.Line(textsafe.Shorten(f)))
	}
	if h := l.Table.ScrollHint(); h != "" {
		tail = append(tail, st.Muted.Render(h))
	}
	sep := st.Muted.Render(" · ")
	line, end := strings.Join(kept, sep), strings.Join(tail, sep)
	if end == "" {
		return common.FitWords(line, l.width)
	}
	if line != "" {
		end = sep + end
	}
	if room := l.width - ansi.StringWidth(end); ansi.StringWidth(line) > room && room >= 2 {
		line = common.FitWords(line, room)
	}
	return ansi.Truncate(line+end, l.width, "…")
}

// Open shows trajectory i of the session whole in the reader, at its
// top: when the session keeps it lean, once read again off the event loop
// (the tab's job: Job).
func (l *List) Open(c *common.Common, i int) {
	l.begin(c, i)
	l.Reader.GotoTop()
}

// begin opens trajectory i (trajectory.Reading.Start), its read the job
// the tab hands out next.
func (l *List) begin(c *common.Common, i int) {
	l.Start(c.Session, i)
	l.setContent(c)
}

// OpenedMsg is the opened trajectory read again off the event loop, for
// the tab to hand to ReadDone.
type OpenedMsg = trajectory.ReadMsg

// ReadDone shows the opened trajectory read again, unless another was
// opened since; when the run was read again since, it is found again
// (trajectory.Reading.Follow). A trajectory the run holds no more is
// closed: the reader says so (Gone) and the command returned says it on
// the status line, for the tab to leave its reader.
func (l *List) ReadDone(c *common.Common, msg OpenedMsg) tea.Cmd {
	change, gone := l.Done(c.Session, msg)
	if change != trajectory.Same {
		l.setContent(c)
	}
	return gone
}

// Reread draws the opened trajectory again (a new result, a new width),
// reading it again first when the session no longer holds it where it
// was (trajectory.Reading.Follow); the command returned says when the
// session holds it no more (Gone), as ReadDone's.
func (l *List) Reread(c *common.Common) tea.Cmd {
	_, gone := l.Follow(c.Session)
	l.setContent(c)
	return gone
}

// setContent puts the opened trajectory in the reader, or, when it is
// Gone, why it is not.
func (l *List) setContent(c *common.Common) {
	if l.Gone() {
		l.Reader.SetContent(c.Styles.Muted.Render(GoneText))
		return
	}
	l.Reader.SetContent(trajectory.Detail(c, &l.Opened, l.width))
}

// GoneText is what the reader shows of a trajectory the run holds no
// more: its file was read again without it.
const GoneText = "this trajectory is no longer in the run: its file was read again without it"

// ScrollReader scrolls the reader by msg (common.ScrollReader).
func (l *List) ScrollReader(msg tea.KeyPressMsg) tea.Cmd { return common.ScrollReader(&l.Reader, msg) }

// ReaderStatus is the line over the reader: the opened trajectory's id,
// note, and how far it is scrolled.
func (l *List) ReaderStatus(st *common.Styles, note string) string {
	return common.ReaderStatus(st, l.Opened.Full.ID, note+fmt.Sprintf(" · %3.0f%%", l.Reader.ScrollPercent()*100), l.width)
}
