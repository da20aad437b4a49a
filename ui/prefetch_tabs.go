package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// prefetchTabs brings every hidden, stale tab that asks for it
// (common.Prefetcher) up to date with the session, at the body's size,
// as its visit would: once, with the Compare tab's prefetch
// (prefetchOnce). A tab so refreshed is no longer stale, and its visit
// only shows it.
func (m *Model) prefetchTabs() tea.Cmd {
	var cmds []tea.Cmd
	for i, tab := range m.tabs {
		p, ok := tab.(common.Prefetcher)
		if !ok || i == m.active || !m.stale[i] || !p.PrefetchWhenIdle() {
			continue
		}
		m.stale[i] = false
		cmds = append(cmds, m.updateTab(i, common.SessionChangedMsg{}))
		if m.sizes[i] != m.body {
			m.sizes[i] = m.body
			m.tabs[i].SetSize(m.body.width, m.body.height)
			cmds = append(cmds, m.takeJob(i))
		}
	}
	return tea.Batch(cmds...)
}
