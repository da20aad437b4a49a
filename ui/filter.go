package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The group filter's toggle (f, with --filter-groups): the evaluation
// with or without DAPO's filter (session.GroupFilter) and its first
// result are made by a command, off the event loop, then shown together
// as a recompute's result is; the tabs keep showing the batch as it was
// until then.

// filterToggle is the root's bookkeeping of the toggle: on is the state
// the last f asked for, which the session reaches when its command lands;
// next is that command until then (Settle runs it where no program runs
// commands).
type filterToggle struct {
	on   bool
	next tea.Cmd
	// gen numbers the commands started: only the last one's message is
	// shown.
	gen int
}

// filteredMsg is the evaluation made by command gen from base, the
// evaluation without the filter, with the filter on or off (as
// filterToggle.on says when gen is the last), what it kept per step and a
// result of it.
type filteredMsg struct {
	gen      int
	base, ev *engine.Evaluation
	f        *prompts.Filtered
	result   *engine.Result
	layout   *session.LayoutNotes // of result (layoutnotes.go)
}

// toggleFilter asks for the batch with the filter when it is off, and
// without it when it is on.
func (m *Model) toggleFilter() tea.Cmd {
	if objective, _ := m.common.Session.FilterObjective(); objective == "" {
		return nil
	}
	m.filter.on = !m.filter.on
	return m.startFilter()
}

// startFilter starts the command that makes the evaluation of the state
// asked for, from the session's evaluation without the filter: it only
// reads it (an evaluation is safe for concurrent reads).
func (m *Model) startFilter() tea.Cmd {
	s := m.common.Session
	_, k := s.FilterObjective()
	on, base, opts, batch, layout := m.filter.on, s.Unfiltered(), s.Options, s.Batch, s.LayoutNotesJob()
	m.filter.gen++
	gen := m.filter.gen
	m.filter.next = func() tea.Msg {
		ev, f := session.FilterOf(base, k, on)
		res := ev.Prepare(opts, nil)
		res.ComputeBatch(min(batch, len(res.Ranking.Batches)-1))
		return filteredMsg{gen, base, ev, f, res, layout.Of(res)}
	}
	return m.filter.next
}

// filtered shows what a toggle's command made, unless it is stale: f was
// pressed again since (the last press's command is under way), or the
// evaluation without the filter changed meanwhile, by a live update or a
// change of constraints (it is made again from the new one). Options
// changed meanwhile are then computed as any change; else, with a tab
// shown that shows method B, B's result of the new evaluation is.
func (m *Model) filtered(msg filteredMsg) tea.Cmd {
	s := m.common.Session
	if msg.gen != m.filter.gen {
		return nil
	}
	if msg.base != s.Unfiltered() {
		return m.startFilter()
	}
	m.filter.next = nil
	s.SetFiltered(m.filter.on, msg.base, msg.ev, msg.f, msg.result)
	s.SetLayoutNotes(msg.layout)
	cmds := []tea.Cmd{m.sessionChanged()}
	if !msg.result.Options.Equal(s.Options) {
		cmds = append(cmds, m.recompute())
	} else {
		// Method B's result is of the evaluation before: a tab shown
		// that shows B has it computed again.
		cmds = append(cmds, m.computeCompare())
	}
	return tea.Batch(cmds...)
}
