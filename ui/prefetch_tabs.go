package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// The hidden tabs that ask for it (common.Prefetcher: the Pareto tab's
// projection, the Prompts tab's analysis) are brought up to date once a
// session, when the first background job starts: beside the health
// rather than after it, where the Compare tab's prefetch (prefetch.go)
// takes both cores, and a visit soon after the health found the tab's
// work not done yet, its allocations slowed by that prefetch's
// collections.

// prefetchTabsOnce prefetches the tabs the first time it is called with
// no recompute under way (its result would make them stale again), unless
// following a run, where every update would start them again for tabs
// perhaps never shown.
func (m *Model) prefetchTabsOnce() tea.Cmd {
	if m.rc.tabsPrefetched || m.live != nil || m.rc.next != nil {
		return nil
	}
	m.rc.tabsPrefetched = true
	return m.prefetchTabs()
}

// prefetchTabs brings every hidden, stale tab that asks for it up to date
// with the session, at the body's size, as its visit would: a tab so
// refreshed is no longer stale, and its visit only shows it.
func (m *Model) prefetchTabs() tea.Cmd {
	var cmds []tea.Cmd
	for i, tab := range m.tabs {
		p, ok := tab.(common.Prefetcher)
		if !ok || i == m.active || !m.stale[i] || !p.PrefetchHidden() {
			continue
		}
		m.stale[i] = false
		cmds = append(cmds, m.updateTab(i, common.SessionChangedMsg{}))
		if m.sizeTab(i) {
			cmds = append(cmds, m.takeJob(i))
		}
	}
	return tea.Batch(cmds...)
}
