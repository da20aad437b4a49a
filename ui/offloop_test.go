package ui

import (
	"strings"
	"testing"
	"time"

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
	start := time.Now()
	_, cmd := m.Update(uitest.KeyPress("7"))
	loop := time.Since(start)
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
	// Generous for a loaded machine: the work itself takes several times
	// longer, off the event loop.
	if loop > 200*time.Millisecond {
		t.Errorf("the key took %v on the event loop", loop)
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

// TestStepsSourceTrendsOffTheEventLoop: s on the Steps tab returns a
// command that computes the source's trends, the tab saying it is
// computing meanwhile; once it ran, the source's charts are shown.
func TestStepsSourceTrendsOffTheEventLoop(t *testing.T) {
	m := sourcesModel(t, 200, 60)
	press(m, "6")
	_, cmd := m.Update(uitest.KeyPress("s"))
	if cmd == nil {
		t.Fatal("choosing a source returned no command")
	}
	if v := body(m); !strings.Contains(v, "computing the trends") || strings.Contains(v, "source reasoning (s)") {
		t.Errorf("the tab does not say it is computing:\n%s", v)
	}
	m.Settle()
	if v := body(m); strings.Contains(v, "computing") || !strings.Contains(v, "source reasoning (s)") {
		t.Errorf("the source's trends are not shown once computed:\n%s", v)
	}
}

// TestObjectivesSourceStatsOffTheEventLoop: s on the Objectives tab
// returns a command that computes the source's statistics, the tab saying
// it is computing meanwhile; once it ran, the source's table is shown.
func TestObjectivesSourceStatsOffTheEventLoop(t *testing.T) {
	m := sourcesModel(t, 200, 60)
	press(m, "3")
	_, cmd := m.Update(uitest.KeyPress("s"))
	if cmd == nil {
		t.Fatal("choosing a source returned no command")
	}
	if v := body(m); !strings.Contains(v, "computing the source's statistics") || strings.Contains(v, "source reasoning (s)") {
		t.Errorf("the tab does not say it is computing:\n%s", v)
	}
	m.Settle()
	if v := body(m); strings.Contains(v, "computing") || !strings.Contains(v, "source reasoning (s)") {
		t.Errorf("the source's statistics are not shown once computed:\n%s", v)
	}
}
