package trajectories

import (
	"slices"
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// finishReasons are how the batch's completions ended
// (trajectory.FinishOf), for the finish column, when the inputs' first
// records have a finish field (Session.Fields). The session keeps no
// metadata: a cell is read of its record when drawn (the rows on
// screen), once. A sort by the column reads every listed record: off the
// event loop (finishSort).
type finishReasons struct {
	s *session.Session
	// field is the first records' finish field, "" for none: no column.
	field string
	// cells holds the cells read so far by trajectory index, kept while
	// follow mode adds trajectories, forgotten when it reads files again
	// (reloads is the session's Reloads they were read at).
	cells   map[int]string
	reloads int
	// reread reads a lean record again, checked against what was
	// evaluated (Session.RereadChecked), bound to the session as it was
	// when the rows were listed (reset); nil until a cell needs it.
	reread func(int, *scoring.Trajectory) (scoring.Trajectory, error)
	// failure is why the first record that could not be read again was
	// not (a record edited since the load among the reasons), for the
	// status line; "" when every one was.
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
// when s, its finish field and its files read are the same; a record is
// read again checked against the session as it is now.
func (f *finishReasons) reset(s *session.Session) {
	field := trajectory.FinishField(s.Fields)
	if f.s == s && field == f.field && s.Reloads == f.reloads {
		f.reread = nil
		return
	}
	*f = finishReasons{s: s, field: field, cells: map[int]string{}, reloads: s.Reloads}
}

// cell returns trajectory i's finish reason, escaped: "" when its record
// has none, unreadCell when it could not be read again or was edited
// since the load (the first such error kept in failure). It reads the
// record when the session keeps it lean.
func (f *finishReasons) cell(i int) string {
	if c, ok := f.cells[i]; ok {
		return c
	}
	if len(f.cells) >= maxFinishCells {
		clear(f.cells)
	}
	tr, c := f.s.Trajectories.At(i), unreadCell
	if tr.Lean && f.reread == nil {
		f.reread = f.s.RereadChecked(nil)
	}
	if !tr.Lean {
		c = finishText(tr.Metadata)
	} else if full, err := f.reread(i, tr); err != nil {
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
// finish field. It has no compare: its sort reads the records, off the
// event loop (readsRecords).
func (f *finishReasons) column() (trajectoryColumn, bool) {
	if f.field == "" {
		return trajectoryColumn{}, false
	}
	return trajectoryColumn{
		title:        f.field,
		text:         f.cell,
		textCells:    true,
		fixedWidth:   max(finishWidth, ansi.StringWidth(f.field)),
		readsRecords: true,
	}, true
}

// finishSort is a sort of the listed rows by their finish reasons, which
// reads every listed record (a million of them from their files): a
// job runs it off the event loop (trajectoryList.job) while the rows keep their
// order and the status line says it is sorting; its message puts the
// order in place (finishSorted), unless the rows were listed again
// meanwhile.
type finishSort struct {
	// of are the rows sorted (trajectoryList.inOrder), in trajectories:
	// the session's as they were (Trajectories.Snapshot: follow mode
	// appends past them).
	of         []int
	descending bool
	// reloads is the session's Reloads when the sort started: an update
	// that read the files again since may have changed the records.
	reloads      int
	trajectories session.Trajectories
	// reread reads lean trajectory i again, checked against what was
	// evaluated (Session.RereadChecked with a loaders.Rereader, both made
	// on the event loop; the reader closed by run).
	reread      func(int, *scoring.Trajectory) (scoring.Trajectory, error)
	closeReader func() error
	handedOut   bool
	// stopped says that the rows were listed again: run stops reading.
	stopped atomic.Bool
	// Set by run: the rows in order, and why the first record that could
	// not be read again was not ("" when every one was).
	rows    []int
	failure string
}

// newFinishSort returns the sort of the rows of by the finish reasons of
// session s, descending or not.
func newFinishSort(s *session.Session, of []int, descending bool) *finishSort {
	reader := s.Rereader()
	return &finishSort{of: of, descending: descending, reloads: s.Reloads, trajectories: s.Trajectories.Snapshot(), reread: s.RereadChecked(reader), closeReader: reader.Close}
}

// run reads the rows' finish reasons (finishText, unreadCell where a
// record cannot be read again or was edited since the load) and sorts the rows by them in natural
// order, ties in input order in both directions, as the other columns'
// sorts keep them.
func (p *finishSort) run() {
	defer p.closeReader()
	texts := make([]string, len(p.of))
	for j, i := range p.of {
		if j%stopCheck == 0 && p.stopped.Load() {
			return
		}
		tr, text := p.trajectories.At(i), unreadCell
		if !tr.Lean {
			text = finishText(tr.Metadata)
		} else if full, err := p.reread(i, tr); err != nil {
			if p.failure == "" {
				p.failure = textsafe.Line(err.Error())
			}
		} else {
			text = finishText(full.Metadata)
		}
		texts[j] = text
	}
	order := make([]int, len(p.of))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if p.descending {
			return natural.Compare(texts[b], texts[a])
		}
		return natural.Compare(texts[a], texts[b])
	})
	p.rows = make([]int, len(order))
	for k, j := range order {
		p.rows[k] = p.of[j]
	}
}

// stopCheck is how many records a finish sort reads between looks at
// whether it was stopped.
const stopCheck = 1 << 12

// finishSortedMsg says that the sort p ran.
type finishSortedMsg struct{ p *finishSort }
