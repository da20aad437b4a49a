package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Follow mode (--follow): the inputs are followed as training writes them.
// A command waits for the follower's next update and re-arms itself once
// the update is applied; only the batches the update touches are computed
// again (engine.Recompute), on the event loop, since that costs a few
// milliseconds where a full recompute costs a second; what the status
// line counts over the whole run (the layout's warnings, the rows that
// differ from the log) is counted by commands (layoutnotes.go,
// countLogged). Like less +F, the view stays on the newest batch until
// the user moves to another one, and F returns to it.

// liveState is the dashboard's follow mode.
type liveState struct {
	updates <-chan loaders.Update
	live    *live.Evaluation
	// following is set while the view follows the newest batch.
	following bool
	// held is set while a detail holds the view (holdDetail), until the
	// details close (releaseDetail), F, or the user moves to a batch;
	// announced is then the newest step the status line said came.
	held      bool
	announced int64
	// stopped is set once the follower closed the channel.
	stopped bool
	// warnings are the session's own; gone and the files failed are the
	// follower's, shown after them in the status line.
	warnings []string
	gone     []string
	// failed keeps the followed files' errors, the latest of each file
	// said by its first line ("file:line: ..." for a line's), until the
	// file is read well again or gone; the files among them that could
	// not be read (not a malformed line's) the health badge says
	// (session.Unread).
	failed follow.Unread
	// skipped counts the lines skipped since the session's load, as stats
	// --follow counts them; its warning replaces the load's in warnings.
	skipped follow.Skipped
	// emptied holds the files read again from the start that no line
	// came of since: their old trajectories stay on screen, said to be
	// stale in the status line, until new lines come, then go.
	emptied []string
	// notice is the status line's notice of the last files read again,
	// cleared by the next update that only brings lines.
	notice string
	// relogged are the files that appeared while following and were left
	// out as repeating the one read before them (loaders.Update.Relogged).
	relogged []loaders.Relogged
	// leftOut are the files that appeared in a followed directory that
	// look like inputs and are not read (loaders.Update.LeftOut).
	leftOut []loaders.LeftOutFile
	// repeats counts the trajectories whose ID an earlier one has;
	// repeated is the warning of the last update that brought some.
	repeats  *follow.Repeats
	repeated string
	// unfinished are the files the first reading left out as still being
	// written, whose warnings are among warnings until they are read.
	unfinished []loaders.Unfinished
	// unended are the followed files whose last line has stayed without
	// its line end, not read, until the follower says it changed.
	unended []loaders.Unended
	// written holds the steps to which trajectories came while
	// following; partial is set when the newest step, partialStep, is
	// probably still being written (follow.Partial), until nothing
	// has arrived for follow.Quiet (quietFor): then the step is taken as
	// complete (settled) until rows come to it again. received counts the
	// updates, so that a quiet timer an update overtook is ignored.
	written     map[int64]bool
	settled     map[int64]bool
	partial     bool
	partialStep int64
	received    int
	// counting is the command that counts the rows differing from the log
	// after an update (countLogged), until it lands.
	counting tea.Cmd
}

// liveMsg is an update of the followed inputs; ok is false once the
// follower stopped.
type liveMsg struct {
	u  loaders.Update
	ok bool
}

// waitNotes is what the follower said, besides trajectories, while the
// dashboard waited for the first (followedSession): said as the later
// updates' are, which join them.
type waitNotes struct {
	// unended are the files whose last line stays without its line end.
	unended []loaders.Unended
	// leftOut are the files that appeared and are not read.
	leftOut []loaders.LeftOutFile
}

// follow puts the dashboard in follow mode on the follower's updates and
// returns the command that waits for the first; waited is what the
// follower said before the session opened (followedSession). The session
// is one opened to be followed (session.Builder.Follow), which noted the
// IDs it opened on.
func (m *Model) follow(updates <-chan loaders.Update, waited waitNotes) tea.Cmd {
	s := m.common.Session
	if s.FollowedIDs == nil {
		panic("ui: following a session not opened to be followed (session.Builder.Follow)")
	}
	m.live = &liveState{
		updates:   updates,
		live:      live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source }),
		following: true,
		warnings:  slices.Clone(s.Warnings),
	}
	// The session's own warning said the repeats of what it opened on.
	m.live.repeats = s.FollowedIDs
	m.live.skipped = s.Skipped
	m.live.unfinished = slices.Clone(s.Unfinished)
	m.live.unended = waited.unended
	m.live.leftOut = waited.leftOut
	m.live.written, m.live.settled = map[int64]bool{}, map[int64]bool{}
	s.GradeReadInPart(m.live.readInPart)
	m.live.notePartial(s)
	unfinished := m.live.unfinishedLines()
	s.SetUnfinishedLines(unfinished)
	s.SetStillWritten(unfinished)
	s.Warnings = m.live.allWarnings()
	m.keys.Follow.SetEnabled(true)
	m.keys.following = true
	s.SetBatch(len(s.Result.Ranking.Batches) - 1)
	m.header.Live = m.live.tag()
	return tea.Batch(m.sessionChanged(), m.live.wait(), m.live.quietFor())
}

// wait returns the command that waits for the next update.
func (l *liveState) wait() tea.Cmd {
	if l == nil || l.stopped {
		return nil
	}
	updates := l.updates
	return func() tea.Msg {
		u, ok := <-updates
		return liveMsg{u, ok}
	}
}

// tag is what the header shows of follow mode.
func (l *liveState) tag() string {
	switch {
	case l == nil:
		return ""
	case l.following && !l.stopped:
		return "LIVE"
	}
	return "paused, F follows"
}

// pause stops following the newest batch: the user moved to another,
// so closing a detail no longer resumes following (held).
func (m *Model) pause() {
	if m.live == nil {
		return
	}
	m.live.held = false
	if m.live.following {
		m.live.following = false
		m.header.Live = m.live.tag()
	}
}

// resumeFollow shows the newest batch and follows it again.
func (m *Model) resumeFollow() tea.Cmd {
	if m.live == nil {
		return nil
	}
	m.live.following, m.live.held = true, false
	m.header.Live = m.live.tag()
	m.common.Session.SetBatch(len(m.common.Session.Result.Ranking.Batches) - 1)
	return m.sessionChanged()
}

// liveUpdate applies an update of the inputs, shows what the follower
// reports in the status line, and waits for the next update.
func (m *Model) liveUpdate(msg liveMsg) tea.Cmd {
	l, s := m.live, m.common.Session
	if !msg.ok {
		l.stopped = true
		m.header.Live = l.tag()
		return nil
	}
	l.note(msg.u)
	l.readUnfinished(msg.u)
	step := s.CurrentBatch().Step
	u := msg.u
	u.Reloaded, l.emptied = refilled(union(l.emptied, u.Reloaded), u.Trajectories)
	l.repeats.Forget(u.Reloaded)
	l.repeats.Add(u.Trajectories)
	if w := l.repeats.TakeWarning(); w != "" {
		l.repeated = w
	}
	unfinished := l.unfinishedLines()
	s.SetStillWritten(unfinished)
	// The steps rows came to are noted first: the update's health grades
	// the newest provisionally when it is probably read in part.
	for i := range u.Trajectories {
		l.written[u.Trajectories[i].Batch] = true
		delete(l.settled, u.Trajectories[i].Batch)
	}
	var expire tea.Cmd
	if len(u.Trajectories) > 0 || len(u.Reloaded) > 0 {
		mixed := s.MixedWarning()
		s.ApplyUpdate(l.live, u)
		l.warnings = session.ReplaceWarning(l.warnings, mixed, s.MixedWarning()) // the batches that came may mix prompts
		expire = m.noticeReloads(u)
	}
	l.received++
	s.SetUnfinishedLines(unfinished)
	l.notePartial(s)
	newer := m.holdDetail(step)
	s.SetBatch(l.batchToShow(s.Result, step))
	s.Warnings = l.allWarnings()
	s.Unread = l.failed.Paths()
	return tea.Batch(m.sessionChanged(), l.wait(), expire, newer, m.countLogged(), l.quietFor())
}

// quietMsg says follow.Quiet has passed since the update-th update.
type quietMsg struct{ update int }

// quietFor returns the timer after which, when no update came meanwhile,
// the newest step said probably read in part is taken as complete
// (quiet); nil when none is said so.
func (l *liveState) quietFor() tea.Cmd {
	if !l.partial {
		return nil
	}
	update := l.received
	return tea.Tick(follow.Quiet, func(time.Time) tea.Msg { return quietMsg{update} })
}

// quiet takes the newest step as complete when nothing arrived since the
// timer of msg started: its file has stopped growing, so the status line
// no longer says it is probably read in part.
func (m *Model) quiet(msg quietMsg) tea.Cmd {
	l := m.live
	if l == nil || msg.update != l.received || !l.partial {
		return nil
	}
	l.settled[l.partialStep] = true
	l.notePartial(m.common.Session)
	m.common.Session.Warnings = l.allWarnings()
	return m.sessionChanged()
}

// loggedCountedMsg is the count of a session.LoggedJob, done.
type loggedCountedMsg struct{ job *session.LoggedJob }

// countLogged starts the count of the rows that differ from the log that
// the last update left due (session.TakeLoggedJob), off the event loop,
// unless a count is under way: loggedCounted starts it when that lands.
func (m *Model) countLogged() tea.Cmd {
	l := m.live
	if l == nil || l.counting != nil {
		return nil
	}
	j := m.common.Session.TakeLoggedJob()
	if j == nil {
		return nil
	}
	l.counting = func() tea.Msg {
		j.Run()
		return loggedCountedMsg{j}
	}
	return l.counting
}

// loggedCounted shows a count's warning when it holds for the result
// shown, or for an update the result shown extends (session.LoggedDone:
// marked as of its rows in the status line), and starts the count of the
// newest update when an update came since.
func (m *Model) loggedCounted(msg loggedCountedMsg) tea.Cmd {
	m.live.counting = nil
	if s := m.common.Session; s.LoggedDone(msg.job) {
		m.status.Refresh(s)
	}
	return m.countLogged()
}

// holdDetail stops following when a tab, shown or hidden, shows a group
// or a trajectory (detailOpen) of step, the batch shown, and a newer batch
// came: moving to it would close what is being read. The header says
// paused, and the status line which step came, the newest of those that
// come until the details close (releaseDetail) or F shows it.
func (m *Model) holdDetail(step int64) tea.Cmd {
	l, batches := m.live, m.common.Session.Result.Ranking.Batches
	if len(batches) == 0 || batches[len(batches)-1].Step <= step {
		return nil
	}
	newest := batches[len(batches)-1].Step
	if l.following {
		if !m.detailOpen() {
			return nil
		}
		m.pause()
		l.held = true
	} else if !l.held || newest == l.announced {
		return nil // paused by the user, or told already
	}
	l.announced = newest
	return m.status.SetNotice(fmt.Sprintf("step %d came; following holds while a detail is open: F shows it", newest), nil)
}

// detailOpen reports whether a tab, the active one or a hidden one that
// kept it open, shows a group or a trajectory (common.DetailShower).
func (m *Model) detailOpen() bool {
	return slices.ContainsFunc(m.tabs, func(t common.Tab) bool {
		d, ok := t.(common.DetailShower)
		return ok && d.ShowsDetail()
	})
}

// releaseDetail follows the newest batch again once no detail holds the
// view any more (holdDetail), and says so in the status line; following
// paused by the user stays paused. Once following ended there is nothing
// to follow: the header stays as it is, and so does the status line.
func (m *Model) releaseDetail() tea.Cmd {
	l := m.live
	if l == nil || !l.held || m.detailOpen() {
		return nil
	}
	if l.stopped {
		l.held = false
		return nil
	}
	l.announced = 0
	return tea.Batch(m.resumeFollow(), m.status.SetNotice("detail closed: following the newest step again", nil))
}

// noticeReloads tells in the status line which files the update applied,
// u, read again from the start, and clears that notice once an update
// only brings lines (or when it expires: the command returned).
func (m *Model) noticeReloads(u loaders.Update) tea.Cmd {
	l := m.live
	switch {
	case len(u.Reloaded) > 0:
		l.notice = "read again from the start: " + strings.Join(u.Reloaded, ", ")
		return m.status.SetNotice(l.notice, nil)
	case l.notice != "" && len(u.Trajectories) > 0:
		m.status.ClearNotice(l.notice)
		l.notice = ""
	}
	return nil
}

// refilled splits the files read again from the start, reloaded, into
// those that ts, an update's trajectories, brings lines of (their old
// trajectories are replaced) and the others, emptied (theirs stay until
// new lines come: a file emptied, or written again from nothing, would
// take its steps off the dashboard).
func refilled(reloaded []string, ts []scoring.Trajectory) (refilled, emptied []string) {
	for _, p := range reloaded {
		if slices.ContainsFunc(ts, func(t scoring.Trajectory) bool { return t.Source == p }) {
			refilled = append(refilled, p)
		} else {
			emptied = append(emptied, p)
		}
	}
	return refilled, emptied
}

// union returns a followed by the elements of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// batchToShow returns the index of the batch to show in res: the newest
// while following, else the batch of the step shown before.
func (l *liveState) batchToShow(res *engine.Result, step int64) int {
	last := len(res.Ranking.Batches) - 1
	if l.following {
		return last
	}
	i, _ := res.Ranking.BatchIndex(step)
	return min(i, last)
}

// note records what the follower reports besides trajectories.
func (l *liveState) note(u loaders.Update) {
	l.gone = slices.DeleteFunc(l.gone, func(p string) bool { return slices.Contains(u.Reloaded, p) })
	for _, p := range follow.GoneAfterRead(u) {
		if !slices.Contains(l.gone, p) {
			l.gone = append(l.gone, p)
		}
	}
	l.unended = noteUnended(l.unended, u)
	l.relogged = append(l.relogged, u.Relogged...)
	l.leftOut = append(l.leftOut, u.LeftOut...)
	was := l.skipped.Warning()
	l.skipped.Update(u)
	l.warnings = session.ReplaceWarning(l.warnings, was, l.skipped.Warning())
	// A file read well again (from the start, or its growth) no longer
	// fails as its error says: it goes, unless the reading brings one
	// again; a gone file's goes too. A file's error replaces its own
	// only: another file still failing is said once, and stays said.
	l.failed.Update(u)
}

// noteUnended returns unended, the files whose last line stays without
// its line end, as u changes them: the Resumed out, the Unended in.
func noteUnended(unended []loaders.Unended, u loaders.Update) []loaders.Unended {
	unended = slices.DeleteFunc(unended, func(x loaders.Unended) bool { return slices.Contains(u.Resumed, x.Path) })
	return append(unended, u.Unended...)
}

// unfinishedLines returns the paths of the followed files whose last
// line, unfinished, is left out: those of the first reading not read
// since and those said unended.
func (l *liveState) unfinishedLines() []string {
	paths := loaders.LastLinesLeftOut(l.unfinished)
	for _, u := range l.unended {
		if !slices.Contains(paths, u.Path) {
			paths = append(paths, u.Path)
		}
	}
	return paths
}

// readUnfinished drops the warning of each unfinished file that u brings
// trajectories of: its writer completed it.
func (l *liveState) readUnfinished(u loaders.Update) {
	l.unfinished = slices.DeleteFunc(l.unfinished, func(uf loaders.Unfinished) bool {
		read := slices.ContainsFunc(u.Trajectories, func(t scoring.Trajectory) bool { return t.Source == uf.Path })
		if read {
			w := uf.String()
			l.warnings = slices.DeleteFunc(l.warnings, func(x string) bool { return x == w })
		}
		return read
	})
}

// notePartial notes whether the newest batch of s's result is probably
// still being written: its findings may then go when the rest comes,
// which the status line says, and are provisional until it is taken as
// complete (session.SetReadInPart), out of the badge's verdict as stats
// --follow leaves them out of its exit status.
func (l *liveState) notePartial(s *session.Session) {
	step, why := l.readInPart(s.Result)
	l.partialStep, l.partial = step, why != ""
	s.SetReadInPart(step, why)
}

// readInPart returns the newest step of res and why it is probably still
// being written (follow.Partial), "" when it is not or was taken as
// complete (settled).
func (l *liveState) readInPart(res *engine.Result) (int64, string) {
	last := len(res.Ranking.Batches) - 1
	if last <= 0 {
		return l.partialStep, ""
	}
	step := res.Ranking.Batches[last].Step
	if l.settled[step] {
		return step, ""
	}
	return step, follow.Partial(res, last, l.written[step])
}

// allWarnings returns the session's warnings followed by the follower's.
func (l *liveState) allWarnings() []string {
	out := slices.Clone(l.warnings)
	if l.partial {
		out = append(out, fmt.Sprintf("step %d may be read in part (fewer rows than the step before; taken as complete once nothing comes for %gs): its findings may change", l.partialStep, follow.Quiet.Seconds()))
	}
	for _, p := range l.gone {
		out = append(out, fmt.Sprintf("%s is gone; what was loaded from it stays", p))
	}
	for _, p := range l.emptied {
		if !slices.Contains(l.gone, p) {
			out = append(out, fmt.Sprintf("%s emptied; its old lines stay until new ones come", p))
		}
	}
	for _, u := range l.unended {
		out = append(out, u.String())
	}
	if w := loaders.RelogWarning(l.relogged); w != "" {
		out = append(out, "following: "+w)
	}
	if note := loaders.LeftOutNote(l.leftOut); note != "" {
		out = append(out, "following: "+note)
	}
	if l.repeated != "" {
		out = append(out, "following: "+l.repeated)
	}
	for _, f := range l.failed.Failed() {
		out = append(out, "following: "+f.FirstLine())
	}
	return out
}

// errNoTrajectory is the load's error when following stops before any
// trajectory came.
var errNoTrajectory = errors.New("no trajectories: following stopped before any came")

// layoutWarnings is LayoutWarnings of rowCap and linesLeftOut and, when following a
// layout whose groups are all of one size (setup.Config.EqualGroups),
// the batches whose groups are not (follow.Warnings), asked again as they
// come.
func (in Input) layoutWarnings(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(res *engine.Result, batches []int) []string {
	var layout func(res *engine.Result, batches []int) []string
	if in.LayoutWarnings != nil {
		layout = in.LayoutWarnings(rowCap, linesLeftOut)
	}
	if in.Follow == nil {
		return layout
	}
	return follow.Warnings(layout, in.Config.EqualGroups)
}

// followedSession reads the inputs with in.Follow and builds the session
// on them, the first reading's trajectories evaluated as they come and
// kept lean, as streamSession does. When the inputs hold no trajectory
// yet, it waits for the first ones, calling waiting before each update
// with the files whose last line stays without its line end so far
// (Update.Unended); it returns them, and the files left out meanwhile
// (Update.LeftOut), for follow to say. A malformed line then fails the
// load, as it would without following.
func (in Input) followedSession(progress func(done, total int64), waiting func(unended []loaders.Unended)) (*session.Session, <-chan loaders.Update, waitNotes, error) {
	// The groups' sizes are checked batch by batch as they come and grow
	// (layoutWarnings), not of the first reading alone, which would warn
	// of a step read in part for as long as the dashboard runs.
	cfg := in.Config
	cfg.EqualGroups = false
	b := session.NewBuilder(cfg, false)
	b.Follow()
	if in.Config.EqualGroups {
		b.WarnMixedPrompts()
	}
	res, updates, err := in.Follow(StreamHooks{Progress: progress, Pick: b.Pick, Each: b.Add})
	if err != nil {
		return nil, nil, waitNotes{}, err
	}
	var waited waitNotes
	for b.Empty() {
		waiting(waited.unended)
		u, ok := <-updates
		switch {
		case !ok:
			return nil, nil, waitNotes{}, errNoTrajectory
		case u.Err() != nil:
			return nil, nil, waitNotes{}, u.Err()
		}
		waited.unended = noteUnended(waited.unended, u)
		if len(u.Trajectories) > 0 {
			if err := b.Add(u.Trajectories); err != nil {
				return nil, nil, waitNotes{}, err
			}
		}
		res.Skipped += u.Skipped
		res.SkipReasons = append(res.SkipReasons, u.SkipReasons...)
		res.Relogged = append(res.Relogged, u.Relogged...)
		waited.leftOut = append(waited.leftOut, u.LeftOut...)
	}
	return b.Session(in.Source, res, in.Warnings), updates, waited, nil
}
