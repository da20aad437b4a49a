package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// startHealth starts the health of the result shown, claimed when the
// result was shown (background), as the program does once its delay is
// over (backgroundDueMsg), and runs every command that follows.
func startHealth(t *testing.T, m *Model) {
	t.Helper()
	_, cmd := m.Update(backgroundDueMsg{m.Session().HealthJob()})
	runCmds(m, cmd)
	if !m.Session().HealthReady() {
		t.Fatal("the health was not computed")
	}
}

// When the first health starts, the hidden Pareto tab (a
// common.Prefetcher) is brought up to date at the body's size: its visit
// refreshes nothing and shows what a visit without the prefetch shows.
// It is done once: a new result leaves it stale until its visit.
func TestParetoPrefetchedWithTheHealth(t *testing.T) {
	const paretoTab = 3 // key 4
	plain := newTestModel(t, 120, 40)
	press(plain, "4")
	want := screen(plain)

	m := NewModel(uitest.SampleSession(t), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if m.tabs[paretoTab].Title() != "Pareto" {
		t.Fatalf("tab %d is %s", paretoTab, m.tabs[paretoTab].Title())
	}
	if m.Session().HealthReady() || !m.stale[paretoTab] {
		t.Fatalf("before the health: health ready %v, Pareto stale %v", m.Session().HealthReady(), m.stale[paretoTab])
	}
	startHealth(t, m)
	if m.stale[paretoTab] || len(m.jobs) > 0 || m.sizes[paretoTab] != m.body {
		t.Fatalf("the Pareto tab was not prefetched: stale %v, jobs %d, size %v (body %v)", m.stale[paretoTab], len(m.jobs), m.sizes[paretoTab], m.body)
	}
	_, cmd := m.Update(uitest.KeyPress("4"))
	if len(m.jobs) > 0 {
		t.Errorf("the visit computes again: %d jobs", len(m.jobs))
	}
	runCmds(m, cmd)
	if got := screen(m); got != want {
		t.Errorf("the prefetched visit shows:\n%s\nwant:\n%s", got, want)
	}

	press(m, "1")
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next()) // the recompute, without its health
	if m.Session().HealthReady() {
		t.Fatal("the new result's health is computed already")
	}
	startHealth(t, m)
	if !m.stale[paretoTab] {
		t.Error("the tab was prefetched again for a new result")
	}
}
