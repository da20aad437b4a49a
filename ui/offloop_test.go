package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFirstCompareVisitRunsOffTheEventLoop: showing the Compare tab the
// first time returns at once with a command, the tab saying it is
// computing and the session's getter reading no result of B; once the
// commands ran, the comparison is shown.
func TestFirstCompareVisitRunsOffTheEventLoop(t *testing.T) {
	m := NewModel(uitest.SyntheticSession(t, 50_000), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m.Settle()
	_, cmd := m.Update(uitest.KeyPress("7"))
	if cmd == nil {
		t.Fatal("the first visit of Compare returned no command")
	}
	if m.Session().CompareResult() != nil {
		t.Error("method B's result was computed on the event loop")
	}
	if v := screen(m); !strings.Contains(v, "computing") || strings.Contains(v, "rank agreement") {
		t.Errorf("the tab does not say it is computing:\n%s", v)
	}
	m.Settle()
	if v := screen(m); !strings.Contains(v, "rank agreement") || strings.Contains(v, "computing") {
		t.Errorf("the comparison is not shown once computed:\n%s", v)
	}
}

// TestStepsWaitForTheHealthJob: after a method switch the Steps tab says
// it is computing the trends until the health job, a command, lands.
func TestStepsWaitForTheHealthJob(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "6")
	m.Update(uitest.KeyPress("m"))
	for m.rc.next != nil {
		m.Update(m.rc.next())
	}
	if m.Session().HealthReady() || m.Session().Trends() != nil {
		t.Fatal("the trends were computed before the health job ran")
	}
	if v := screen(m); !strings.Contains(v, "computing the trends") {
		t.Errorf("the Steps tab does not say it is computing:\n%s", v)
	}
	m.Settle()
	if v := screen(m); strings.Contains(v, "computing") || !strings.Contains(v, "reward mean") {
		t.Errorf("the trends are not shown once computed:\n%s", v)
	}
}

// TestSourceWorkOffTheEventLoop: s on the Steps tab (the source's trends)
// or the Objectives tab (its statistics) returns a command that computes
// them, the tab saying it is computing meanwhile; once it ran, the
// source's view is shown.
func TestSourceWorkOffTheEventLoop(t *testing.T) {
	for _, c := range []struct {
		tab, computing, what string
	}{
		{"6", "computing the trends", "trends"},
		{"3", "computing the source's statistics", "statistics"},
	} {
		m := sourcesModel(t, 200, 60)
		press(m, c.tab)
		_, cmd := m.Update(uitest.KeyPress("s"))
		if cmd == nil {
			t.Fatalf("tab %s: choosing a source returned no command", c.tab)
		}
		if v := body(m); !strings.Contains(v, c.computing) || strings.Contains(v, "source reasoning (s)") {
			t.Errorf("tab %s does not say it is computing:\n%s", c.tab, v)
		}
		m.Settle()
		if v := body(m); strings.Contains(v, "computing") || !strings.Contains(v, "source reasoning (s)") {
			t.Errorf("the source's %s are not shown once computed:\n%s", c.what, v)
		}
	}
}
