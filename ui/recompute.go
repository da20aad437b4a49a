package ui

import (
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Recomputing runs off the event loop and coalesces. A key that changes the
// options (m, M, g, n, a weight, the Compare tab's method B) changes
// Session.Options at once and bumps a generation; if no recompute is in
// flight, one starts at once, as a command, on a snapshot of the options.
// When it lands, its result is shown (header and tabs together: they read
// the options from the result), and if the options changed meanwhile
// exactly one more starts, on the latest ones, but no sooner than a frame
// after the last one started: more recomputes than frames would never be
// seen. So hundreds of key presses a second cost one recompute in flight
// at a time, at most one a frame, and the screen is never more than one
// recompute behind the keys.

// recomputeInterval is the least time between the starts of two
// recomputes: a frame at Bubble Tea's 60 frames a second.
const recomputeInterval = time.Second / 60

// recomputer is the root's bookkeeping of recomputes.
type recomputer struct {
	// gen is the generation of Session.Options, bumped on every change;
	// shown is the generation of the result on screen.
	gen, shown uint64
	// next is the command that continues the recomputes under way: the
	// recompute in flight, or the wait before the next one. It is nil when
	// the result shown is up to date. (Tests run it themselves, where no
	// program runs commands.)
	next tea.Cmd
	// started counts the recomputes started; last is when the last one did.
	started int
	last    time.Time
	// spare is a result no longer shown whose arrays the next recompute
	// reuses (retire).
	spare *engine.Result
	// prefetching says method B's result is computed for the Compare tab
	// before its visit; prefetchAsked, that the prefetch was started
	// (prefetch.go).
	prefetching, prefetchAsked bool
	// tabsPrefetched says the hidden tabs were prefetched (prefetch_tabs.go).
	tabsPrefetched bool
	// compareAsked is the count of the method B last taken
	// (common.CompareMethodMsg.Asked).
	compareAsked uint64
	// deferred is the health job that waits for the work on screen to end
	// (foreground.go).
	deferred *session.HealthJob
	// idleAsked is one more than the count of bursts (gcpace.Bursts) when
	// an idle command was last asked (background.go's idle), 0 before.
	idleAsked uint64
}

// recomputedMsg is a recompute's result: for the options of generation gen,
// on evaluation ev, the result and, when a Comparer was shown and B's
// result had to be computed, the result of method B (else nil).
type recomputedMsg struct {
	gen     uint64
	ev      *engine.Evaluation
	result  *engine.Result
	compare *engine.Result
	// preparer is the tab whose work was prepared beside it
	// (common.JobPreparer), -1 for none.
	preparer int
	// layout is the layout's warnings of result (layoutnotes.go).
	layout *session.LayoutNotes
}

// recomputeDueMsg says that the wait before the next recompute is over.
type recomputeDueMsg struct{}

// computeCompare starts a recompute, which keeps the result shown, when
// the tab shown wants method B's result and the session does not have it
// nor is computing it (prefetchCompare).
func (m *Model) computeCompare() tea.Cmd {
	c, ok := m.tabs[m.active].(common.Comparer)
	if !ok || !c.ShowsCompare() || m.rc.prefetching {
		return nil
	}
	if _, ok := m.common.Session.CompareNeeded(m.common.Session.Result.Options); !ok {
		return nil
	}
	return m.recompute()
}

// recompute marks the session's options changed and starts a recompute
// unless one is under way (which is followed by another when it lands).
// When the result shown is to be replaced (not for method B alone, which
// the Compare tab says it computes), the header's badge says so until the
// last recompute lands: the header names the result's settings, not the
// keys', and would otherwise stay still as if the key were ignored.
func (m *Model) recompute() tea.Cmd {
	m.rc.gen++
	m.header.Recomputing = !m.common.Session.ResultCurrent()
	if m.rc.next != nil {
		return nil
	}
	return m.startRecompute()
}

// startRecompute starts a recompute of the current options. The command
// only reads what it is given: the options are a copy (changeWeight
// replaces the weights slice, never writes into it) and an Evaluation is
// safe for concurrent Compute calls. It computes the batch on screen and
// its counts, with its statistics when the tab shown shows them
// (common.StatsShower); the other batches, and the statistics the tab
// shown did not need, are computed once the result is shown
// (background.go).
func (m *Model) startRecompute() tea.Cmd {
	s := m.common.Session
	gen, ev, opts, batch := m.rc.gen, s.Evaluation, s.Options, s.Batch
	// Only method B changed: the result shown stays (unless the
	// evaluation did: new constraints or gates).
	var reuse, spare *engine.Result
	if s.ResultCurrent() {
		reuse = s.Result
	} else {
		spare, m.rc.spare = m.rc.spare, nil
	}
	var compareOpts *engine.Options
	if c, ok := m.tabs[m.active].(common.Comparer); ok && c.ShowsCompare() {
		if b, ok := s.CompareNeeded(opts); ok {
			compareOpts = &b
		}
	}
	layout := s.LayoutNotesJob()
	preparer, _ := m.tabs[m.active].(common.Preparer)
	_, showsStats := m.tabs[m.active].(common.StatsShower)
	var prepareJob func(*engine.Result, func() *engine.Result)
	jobPreparer := -1
	if p, ok := m.tabs[m.active].(common.JobPreparer); ok {
		if prepareJob = p.PrepareJob(); prepareJob != nil {
			jobPreparer = m.active
		}
	}
	m.rc.started++
	m.rc.last = time.Now()
	m.rc.next = func() tea.Msg {
		msg := recomputedMsg{gen: gen, ev: ev, result: reuse, preparer: jobPreparer}
		if reuse == nil {
			msg.result = ev.Prepare(opts, spare)
		}
		// What the tab shown will ask of the batch shown, computed for it
		// to find: its counts and statistics (only the counts when it shows
		// no statistics: the cores go to its own work), and beside them the
		// shown tab's work and method B's result.
		var wg sync.WaitGroup
		wg.Go(func() { msg.layout = layout.Of(msg.result) })
		if preparer != nil {
			wg.Go(func() { preparer.Prepare(msg.result, batch) })
		}
		compared := make(chan struct{}) // closed once msg.compare is set
		if compareOpts != nil {
			wg.Go(func() {
				msg.compare = ev.Compute(*compareOpts)
				close(compared)
			})
		} else {
			close(compared)
		}
		if prepareJob != nil {
			wg.Go(func() {
				prepareJob(msg.result, func() *engine.Result {
					<-compared
					return msg.compare
				})
			})
		}
		if showsStats {
			session.ShownStats(msg.result, batch)
		} else {
			session.ShownCounts(msg.result, batch)
		}
		wg.Wait()
		return msg
	}
	return m.rc.next
}

// recomputed shows a recompute's result, unless it is stale (computed on
// an evaluation since replaced, or older than what is shown), then starts,
// a frame after the last, the one recompute that catches up with the
// options changed meanwhile.
func (m *Model) recomputed(msg recomputedMsg) tea.Cmd {
	m.rc.next = nil
	s := m.common.Session
	var cmds []tea.Cmd
	if msg.ev == s.Evaluation && msg.gen > m.rc.shown {
		m.rc.shown = msg.gen
		old := s.Result
		s.SetResult(msg.result, msg.compare)
		m.header.Recomputing = !s.ResultCurrent()
		s.SetLayoutNotes(msg.layout)
		if m.live != nil {
			s.Result.Finish() // following recomputes from every batch of it
		}
		m.retire(old)
		cmds = append(cmds, m.sessionChanged())
	}
	if msg.preparer >= 0 && msg.preparer != m.active {
		// Left while its work was prepared: told again that it is
		// hidden, it lets go of that work, done now, as it let go of the
		// rest.
		cmds = append(cmds, m.updateTab(msg.preparer, common.HiddenMsg{}))
	}
	if m.rc.shown != m.rc.gen {
		if wait := recomputeInterval - time.Since(m.rc.last); wait > 0 {
			m.rc.next = tea.Tick(wait, func(time.Time) tea.Msg { return recomputeDueMsg{} })
			cmds = append(cmds, m.rc.next)
		} else {
			cmds = append(cmds, m.startRecompute())
		}
	}
	return tea.Batch(cmds...)
}

// Settle runs the weights editor's change of constraints and gates under
// way, then the group filter's toggle under way, then the recompute under
// way, the one it leads to, the tabs' jobs and the status line's
// (runForeground), on the calling goroutine, and shows the result, then
// computes its health (see background.go) and the tabs' own work (a tab's
// Settle): for a caller that drives the model without a program (a test),
// where nothing runs the commands.
func (m *Model) Settle() {
	if next := m.weights.structure.Next(); next != nil {
		m.Update(next())
	}
	for m.filter.next != nil { // the group filter's toggle (filter.go)
		m.Update(m.filter.next())
	}
	m.runForeground()
	// Twice at most: a job made before the steps graded provisionally
	// changed lands graded so, and its trends are graded again.
	s := m.common.Session
	for runs := 0; !s.HealthReady() && runs < 2; runs++ {
		j := s.HealthJob()
		j.Run()
		m.Update(healthDoneMsg{j})
	}
	for _, t := range m.tabs {
		if t, ok := t.(interface{ Settle() }); ok {
			t.Settle() // a tab's own work off the event loop
		}
	}
}

// runForeground runs the recompute under way, the one it leads to, the
// tabs' jobs, the layout's warnings, what compute writes of the group
// filter's dropped trajectories, an export and a followed update's count of the
// rows differing from the log on the calling goroutine, until none is
// left (Settle).
func (m *Model) runForeground() {
	for m.rc.next != nil || len(m.jobs) > 0 || m.layoutNext != nil || m.writtenNext != nil || m.exportNext != nil || (m.live != nil && m.live.counting != nil) {
		if m.rc.next != nil {
			m.Update(m.rc.next())
			continue
		}
		if m.layoutNext != nil {
			m.Update(m.layoutNext())
			continue
		}
		if m.writtenNext != nil {
			m.Update(m.writtenNext())
			continue
		}
		if m.exportNext != nil {
			m.Update(m.exportNext())
			continue
		}
		if m.live != nil && m.live.counting != nil {
			m.Update(m.live.counting())
			continue
		}
		j := m.jobs[0]
		m.Update(jobDoneMsg{j.id, j.tab, j.run()})
	}
}

// keepsFrame reports whether msg leaves the screen as it is: a key that
// changes the method, the scope or the normalisation changes what is shown
// only once its recompute lands, since the header and the tabs read the
// options of the result they show, once the header's badge says a
// recompute runs (the first key of a burst draws it). Not drawing a frame
// for the others is what lets a burst of them be handled faster than
// recomputes. It only looks at msg and the badge; Update then handles it.
func (m *Model) keepsFrame(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !m.header.Recomputing {
		return false
	}
	if t, ok := m.tabs[m.active].(common.KeyCapturer); ok && t.CapturesKeys() {
		return false // the key is text for the tab
	}
	if m.weights.active && (m.weights.typing || m.weights.structure.Typing()) {
		return false // the key is text for the weights editor
	}
	if key.Matches(k, m.keys.Normalize) && !m.common.Session.Options.Method.ReadsNormalize() {
		return false // no recompute: the status line says why (toggleNormalize)
	}
	return key.Matches(k, m.keys.NextMethod, m.keys.PrevMethod, m.keys.Scope, m.keys.Normalize)
}
