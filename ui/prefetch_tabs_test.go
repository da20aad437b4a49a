package ui

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// Once the health is computed, the hidden Pareto tab (a common.Prefetcher)
// is brought up to date at the body's size: its visit refreshes nothing
// and shows what a visit without the prefetch shows. It is done once: a
// new result leaves it stale until its visit.
func TestParetoPrefetchedWhenIdle(t *testing.T) {
	const paretoTab = 3 // key 4
	plain := newTestModel(t, 120, 40)
	press(plain, "4")
	want := screen(plain)

	m := newTestModel(t, 120, 40)
	if m.tabs[paretoTab].Title() != "Pareto" {
		t.Fatalf("tab %d is %s", paretoTab, m.tabs[paretoTab].Title())
	}
	if !m.Session().HealthReady() || !m.stale[paretoTab] {
		t.Fatalf("before the prefetch: health ready %v, Pareto stale %v", m.Session().HealthReady(), m.stale[paretoTab])
	}
	_, cmd := m.Update(prefetchDueMsg{})
	runCmds(m, cmd)
	if m.stale[paretoTab] || len(m.jobs) > 0 || m.sizes[paretoTab] != m.body {
		t.Fatalf("the Pareto tab was not prefetched: stale %v, jobs %d, size %v (body %v)", m.stale[paretoTab], len(m.jobs), m.sizes[paretoTab], m.body)
	}
	_, cmd = m.Update(uitest.KeyPress("4"))
	if len(m.jobs) > 0 {
		t.Errorf("the visit computes again: %d jobs", len(m.jobs))
	}
	runCmds(m, cmd)
	if got := screen(m); got != want {
		t.Errorf("the prefetched visit shows:\n%s\nwant:\n%s", got, want)
	}

	press(m, "1", "m")
	_, cmd = m.Update(prefetchDueMsg{})
	runCmds(m, cmd)
	if !m.stale[paretoTab] {
		t.Error("the tab was prefetched again after a new result")
	}
}
