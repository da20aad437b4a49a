package trajectories

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// finishReasons are how the batch's completions ended
// (trajectory.FinishOf), for the finish column, when the inputs' first
// records have a finish field (Session.Fields). The session keeps no
// metadata: a cell is read of its record when drawn (the rows on
// screen), once. The column does not sort: a sort would read every
// listed record on the event loop.
type finishReasons struct {
	s *session.Session
	// field is the first records' finish field, "" for none: no column.
	field string
	// cells holds the cells read so far by trajectory index, kept while
	// follow mode adds trajectories, forgotten when it reads files again
	// (reloads is the session's Reloads they were read at).
	cells   map[int]string
	reloads int
	// failure is why the first record that could not be read again was
	// not, for the status line; "" when every one was.
	failure string
}

// unreadCell is the cell of a trajectory whose record could not be read
// again.
const unreadCell = "?"

// maxFinishCells is how many cells are kept before they are all
// forgotten (read again when drawn): scrolling through a million rows
// draws every one.
const maxFinishCells = 1 << 16

// finishWidth is the finish column's width, at least its title's: its
// cells are not measured, which would read the records of the batch.
// "length" and "stop" fit; a longer value is cut.
const finishWidth = 8

// reset makes f the finish reasons of session s, keeping the cells read
// when s, its finish field and its files read are the same.
func (f *finishReasons) reset(s *session.Session) {
	field := trajectory.FinishField(s.Fields)
	if f.s == s && field == f.field && s.Reloads == f.reloads {
		return
	}
	*f = finishReasons{s: s, field: field, cells: map[int]string{}, reloads: s.Reloads}
}

// cell returns trajectory i's finish reason, escaped: "" when its record
// has none, unreadCell when it could not be read again (the first such
// error kept in failure). It reads the record when the session keeps it
// lean.
func (f *finishReasons) cell(i int) string {
	if c, ok := f.cells[i]; ok {
		return c
	}
	if len(f.cells) >= maxFinishCells {
		clear(f.cells)
	}
	tr, c := f.s.Trajectories.At(i), unreadCell
	if !tr.Lean {
		c = finishText(tr.Metadata)
	} else if full, err := f.s.Reread(tr); err != nil {
		if f.failure == "" {
			f.failure = textsafe.Line(err.Error())
		}
	} else {
		c = finishText(full.Metadata)
	}
	f.cells[i] = c
	return c
}

// finishText is the finish column's cell of metadata md, escaped.
func finishText(md map[string]any) string {
	if fin, ok := trajectory.FinishOf(md); ok {
		return textsafe.Line(fin.Text)
	}
	return ""
}

// column returns the finish column, false when the records have no
// finish field. It has no compare: s passes it by.
func (f *finishReasons) column() (trajectoryColumn, bool) {
	if f.field == "" {
		return trajectoryColumn{}, false
	}
	return trajectoryColumn{
		title:      f.field,
		text:       f.cell,
		textCells:  true,
		fixedWidth: max(finishWidth, ansi.StringWidth(f.field)),
	}, true
}
