package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// The tabs' jobs (common.Worker): work a tab's view needs that runs off
// the event loop, its message sent back to that tab when done.

// tabJob is a job handed out by tab, numbered id.
type tabJob struct {
	id, tab int
	run     func() tea.Msg
}

// jobDoneMsg is the message of job id, for tab.
type jobDoneMsg struct {
	id, tab int
	msg     tea.Msg
}

// takeJob returns the command that runs tab i's job, if it has one, and
// records it until its message lands (Settle runs the jobs recorded).
func (m *Model) takeJob(i int) tea.Cmd {
	w, ok := m.tabs[i].(common.Worker)
	if !ok {
		return nil
	}
	run := w.Job()
	if run == nil {
		return nil
	}
	m.lastJob++
	j := tabJob{id: m.lastJob, tab: i, run: run}
	m.jobs = append(m.jobs, j)
	return func() tea.Msg { return jobDoneMsg{j.id, j.tab, j.run()} }
}

// jobDone hands a job's message to its tab.
func (m *Model) jobDone(msg jobDoneMsg) tea.Cmd {
	for k, j := range m.jobs {
		if j.id == msg.id {
			// Deleted, not cut out with append: the slot left past the
			// end would keep the job's closure, and the buffers a tab
			// lent it, after the tab let go of them.
			m.jobs = slices.Delete(m.jobs, k, k+1)
			break
		}
	}
	cmd := m.updateTab(msg.tab, msg.msg)
	if msg.tab != m.active { // a prefetch: the tab was not shown
		cmd = tea.Batch(cmd, m.updateTab(msg.tab, common.HiddenMsg{}))
	}
	return cmd
}
