package trajectories

import (
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// finishReasons are how the current batch's completions ended
// (trajectory.FinishOf), for the finish column, when the inputs' first
// records have a finish field (Session.Fields). The session keeps no
// metadata: a cell is read of its record when first drawn (the rows on
// screen), and every member's, in file order, when the rows are sorted
// by it.
type finishReasons struct {
	s *session.Session
	// field is the first records' finish field, "" for none: no column.
	field string
	// members and count are the batch's trajectories the cells are of (a
	// copy) and how many trajectories the session held then.
	members []int
	count   int
	// cells holds the members' values read so far, escaped: "" when the
	// record has none, unread when it could not be read again (opening
	// the trajectory says why).
	cells map[int]string
}

// unread is the cell of a trajectory whose record could not be read
// again.
const unread = "?"

// finishWidth is the finish column's width, at least its title's: its
// cells are not measured, which would read the records of the batch.
// "length" and "stop" fit; a longer value is cut.
const finishWidth = 8

// reset makes f the finish reasons of the session's current batch,
// forgetting the cells read unless they are that batch's.
func (f *finishReasons) reset(s *session.Session) {
	field := trajectory.FinishField(s.Fields)
	members := s.CurrentBatch().Members
	if f.s == s && field == f.field && s.Trajectories.Len() == f.count && slices.Equal(members, f.members) {
		return
	}
	*f = finishReasons{s: s, field: field, members: slices.Clone(members), count: s.Trajectories.Len(), cells: map[int]string{}}
}

// cell returns trajectory i's finish reason, reading its record when the
// session keeps it lean.
func (f *finishReasons) cell(i int) string {
	if c, ok := f.cells[i]; ok {
		return c
	}
	tr := f.s.Trajectories.At(i)
	if tr.Lean {
		full, err := f.s.Reread(tr)
		if err != nil {
			f.cells[i] = unread
			return unread
		}
		tr = &full
	}
	f.cells[i] = finishText(tr.Metadata)
	return f.cells[i]
}

// readAll reads every member's cell, in file order with one reader (it
// reads on in a file rather than seek), for a sort by the column.
func (f *finishReasons) readAll() {
	reader := f.s.Rereader()
	defer reader.Close()
	for _, i := range slices.Sorted(slices.Values(f.members)) {
		if _, ok := f.cells[i]; ok {
			continue
		}
		tr := f.s.Trajectories.At(i)
		if !tr.Lean {
			f.cells[i] = finishText(tr.Metadata)
			continue
		}
		full, err := reader.Reread(tr)
		if err != nil {
			f.cells[i] = unread
			continue
		}
		f.cells[i] = finishText(full.Metadata)
	}
}

// finishText is the finish column's cell of metadata md, escaped.
func finishText(md map[string]any) string {
	if fin, ok := trajectory.FinishOf(md); ok {
		return textsafe.Line(fin.Text)
	}
	return ""
}

// column returns the finish column, false when the records have no
// finish field.
func (f *finishReasons) column() (trajectoryColumn, bool) {
	if f.field == "" {
		return trajectoryColumn{}, false
	}
	return trajectoryColumn{
		title:      f.field,
		text:       f.cell,
		compare:    func(a, b int) int { return natural.Compare(f.cell(a), f.cell(b)) },
		textCells:  true,
		fixedWidth: max(finishWidth, ansi.StringWidth(f.field)),
	}, true
}
