package session

import (
	"maps"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// RunNote is the layout's note of the whole run (open-instruct's filtered
// traces: layouts.RunNote), which holds of the run read so far: a later
// result may refute it, and the note, shown, then goes with a line that
// says why rather than unsaid. It comes last among the layout's warnings
// (LayoutNotesJob), which leave it out (layouts.StepWarnings).
type RunNote struct {
	// Judge returns the note's warning of res when res bears it out, ""
	// otherwise, and the line that withdraws the note when res refutes
	// it, "" otherwise: one walk of the batches (layouts.RunNote.Judge).
	Judge func(res *engine.Result) (note, withdrawal string)
}

// LayoutNotes are the layout's warnings of a result over every batch
// (LayoutWarnings), as computed off the event loop, and what they hold
// for: the evaluation and the options they read (LayoutWarningsRead).
type LayoutNotes struct {
	ev   *engine.Evaluation
	read engine.Options
	// lines are the unfinished last lines left out the warnings were
	// computed with (Session.FollowLayoutWarnings), nil for none.
	lines map[int64]string
	// Warnings are the warnings, not sanitised; callers must not modify
	// them.
	Warnings []string
	// noteShown is set when the layout's note of the run (RunNote) is
	// among Warnings; refuted is the line that withdraws it when the
	// result refutes it ("" otherwise), and withdrawn is set once
	// Warnings end with it (SetLayoutNotes).
	noteShown, withdrawn bool
	refuted              string
}

// LayoutNotesJob computes the layout's warnings of a result. It holds
// what it needs of the session, taken on the event loop, so that a
// command may run it.
type LayoutNotesJob struct {
	warnings func(res *engine.Result, batches []int) []string
	read     func(engine.Options) engine.Options
	have     *LayoutNotes
	runNote  *RunNote
	lines    map[int64]string
}

// readAllButWeights is the LayoutWarningsRead of warnings that say
// nothing of what they read: every option but the weights, which no
// layout's warning reads.
func readAllButWeights(o engine.Options) engine.Options {
	o.Weights = nil
	return o
}

// layoutRead returns LayoutWarningsRead, readAllButWeights when nil.
func (s *Session) layoutRead() func(engine.Options) engine.Options {
	if s.LayoutWarningsRead == nil {
		return readAllButWeights
	}
	return s.LayoutWarningsRead
}

// holds reports whether n are the layout's warnings of res, whose options
// read maps to those n read, with lines the unfinished lines left out.
func (n *LayoutNotes) holds(res *engine.Result, read func(engine.Options) engine.Options, lines map[int64]string) bool {
	return n != nil && n.ev == res.Evaluation && n.read.Equal(read(res.Options)) && maps.Equal(n.lines, lines)
}

// LayoutNotesJob returns the job that computes the layout's warnings of a
// result, knowing those the session has (which it hands back, without
// scanning the run, for a result they hold for).
func (s *Session) LayoutNotesJob() LayoutNotesJob {
	return LayoutNotesJob{warnings: s.LayoutWarnings, read: s.layoutRead(), have: s.layoutNotes, runNote: s.RunNote, lines: s.layoutLines}
}

// Of returns the layout's warnings of res over every batch: those the
// session had when they hold for res (the same evaluation, the same
// options read and the same unfinished lines left out), else computed,
// a scan of the run.
func (j LayoutNotesJob) Of(res *engine.Result) *LayoutNotes {
	if j.have.holds(res, j.read, j.lines) {
		return j.have
	}
	n := &LayoutNotes{ev: res.Evaluation, read: j.read(res.Options), lines: j.lines}
	if j.warnings != nil {
		all := make([]int, len(res.Ranking.Batches))
		for b := range all {
			all[b] = b
		}
		n.Warnings = j.warnings(res, all)
	}
	if j.runNote != nil {
		note, withdrawal := j.runNote.Judge(res)
		if n.noteShown = note != ""; n.noteShown {
			n.Warnings = append(n.Warnings, note)
		} else {
			n.refuted = withdrawal
		}
	}
	return n
}

// SetLayoutNotes keeps n, the layout's warnings of a result (a
// LayoutNotesJob's), when they hold for the result shown, or are of an
// earlier update of it (following: the result shown extends n's
// evaluation, under the same options read) and not older than those
// kept: a run that grows faster than a scan still has its warnings
// brought forward, said to be behind (LayoutNotesBehind). Those kept are
// older only when the result shown extends them too: kept of the run
// before a file was read again, they give way. It reports whether it
// kept n; the others (other options read, a run since read again) are
// dropped. The layout's note of the run, shown, that n's result refutes
// is withdrawn (withdrawRunNote).
func (s *Session) SetLayoutNotes(n *LayoutNotes) bool {
	read := s.layoutRead()
	switch {
	case n.holds(s.Result, read, s.layoutLines):
	case !n.read.Equal(read(s.Result.Options)) || !s.Result.Evaluation.Extends(n.ev):
		return false
	case s.layoutNotes != nil && olderThanKept(s.Result.Evaluation, n.ev, s.layoutNotes.ev):
		return false
	}
	s.layoutNotes = s.withdrawRunNote(n)
	return true
}

// withdrawRunNote returns n, to be kept in place of those kept, with the
// line that withdraws the layout's note of the run last among its
// warnings when the note was shown (or withdrawn) by those kept and n's
// result refutes it: following, a later step that refutes the note
// (open-instruct's filter was off) says so where the note was, and
// keeps saying it as the run grows.
func (s *Session) withdrawRunNote(n *LayoutNotes) *LayoutNotes {
	kept := s.layoutNotes
	if n.refuted == "" || n.withdrawn || kept == nil || !kept.noteShown && !kept.withdrawn {
		return n
	}
	withdrawn := *n
	withdrawn.Warnings = append(slices.Clone(n.Warnings), n.refuted)
	withdrawn.withdrawn = true
	return &withdrawn
}

// olderThanKept reports whether a warning made of evaluation ev is older
// than one kept of kept, for the evaluation shown: the shown extends the
// kept one (not of a run before a file was read again) and ev does not.
func olderThanKept(shown, ev, kept *engine.Evaluation) bool {
	return shown.Extends(kept) && !ev.Extends(kept)
}

// Lag is how a warning kept stands to the result shown.
type Lag struct {
	// Behind is set when the warning is not of the result shown: it is
	// being computed again.
	Behind bool
	// Grew is set when, besides, the result shown has rows the warning was
	// not computed over (following); Rows is then the number it was. Not
	// set when only the options changed.
	Grew bool
	Rows int
}

// LayoutNotesBehind returns how the layout's warnings kept stand to the
// result shown: behind when they do not hold for it (of an earlier
// update: SetLayoutNotes; or of other options read), a scan being due;
// the zero Lag when they hold, or there are none.
func (s *Session) LayoutNotesBehind() Lag {
	if s.layoutNotes == nil || s.LayoutNotesHold() {
		return Lag{}
	}
	ev := s.layoutNotes.ev
	return Lag{Behind: true, Grew: ev != s.Result.Evaluation, Rows: ev.N()}
}

// LayoutNotesHold reports whether the session has the layout's warnings
// of the result shown, or has none to compute (no LayoutWarnings and no
// RunNote); else a LayoutNotesJob is due.
func (s *Session) LayoutNotesHold() bool {
	return s.LayoutWarnings == nil && s.RunNote == nil || s.layoutNotes.holds(s.Result, s.layoutRead(), s.layoutLines)
}

// LayoutNotes returns the layout's warnings last set (SetLayoutNotes):
// those of the result shown when LayoutNotesHold, else of one before it
// (following, the update before), until its job lands; nil before any.
func (s *Session) LayoutNotes() *LayoutNotes { return s.layoutNotes }

// FollowLayoutWarnings sets LayoutWarnings, following, to of the
// unfinished last lines left out, made again as they change
// (SetUnfinishedLines): a step file caught mid-line after the session
// opened has its short group said as cut by that line, and a step whole
// again has its last group checked. It starts with the lines the opening
// reading left out (engine.RewardComputer.LinesLeftOut).
func (s *Session) FollowLayoutWarnings(of func(linesLeftOut map[int64]string) func(res *engine.Result, batches []int) []string) {
	s.layoutWarningsOf, s.layoutLines = of, s.Computer.LinesLeftOut
	s.LayoutWarnings = of(s.layoutLines)
}

// setLayoutLines makes LayoutWarnings again of lines when they are not
// those it was made of (FollowLayoutWarnings): the warnings kept then no
// longer hold, and are computed again.
func (s *Session) setLayoutLines(lines map[int64]string) {
	if s.layoutWarningsOf == nil || maps.Equal(s.layoutLines, lines) {
		return
	}
	s.layoutLines = lines
	s.LayoutWarnings = s.layoutWarningsOf(lines)
}
