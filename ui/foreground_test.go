package ui

import (
	"runtime/metrics"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// healthStarts runs cmd and what follows it, as the program would, but
// stops at the first health job started and reports whether one was.
func healthStarts(m *Model, cmd tea.Cmd) bool {
	cmds := []tea.Cmd{cmd}
	for len(cmds) > 0 {
		c := cmds[0]
		cmds = cmds[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			cmds = append(cmds, msg...)
		case healthDoneMsg:
			m.Update(msg)
			return true
		case nil:
		default:
			_, next := m.Update(msg)
			cmds = append(cmds, next)
		}
	}
	return false
}

// TestBackgroundWaitsForTheTabShown: a method switch on the Compare tab
// shows A's result and hands out the tab's comparison; the health of
// that result, due meanwhile, is not started while the comparison is
// out (it would take a core from it), and is once the comparison lands.
func TestBackgroundWaitsForTheTabShown(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	m.Update(uitest.KeyPress("m"))
	_, cmd := m.Update(m.rc.next()) // the recompute lands: the comparison is handed out
	if len(m.jobs) != 1 || m.jobs[0].tab != m.active {
		t.Fatalf("the switch handed out %d jobs, want the Compare tab's", len(m.jobs))
	}
	_ = cmd // the job's command: run below, after the health is due
	s := m.Session()
	j := s.HealthJob()
	_, due := m.Update(backgroundDueMsg{j})
	if healthStarts(m, due) || m.rc.deferred != j {
		t.Fatalf("the health started while the tab's job was out (deferred %v)", m.rc.deferred == j)
	}
	if m.rc.prefetchAsked && m.rc.prefetching {
		t.Error("a prefetch started while the tab's job was out")
	}
	job := m.jobs[0]
	_, after := m.Update(jobDoneMsg{job.id, job.tab, job.run()})
	if !healthStarts(m, after) || !s.HealthReady() || m.rc.deferred != nil {
		t.Errorf("the comparison landed and the health was not computed (ready %v, deferred %v)", s.HealthReady(), m.rc.deferred != nil)
	}
}

// TestBackgroundWaitsForTheRecompute: the health due while a recompute
// is under way waits for it; the recompute lands with a new result, so
// the health deferred, of the result replaced, is dropped, and the new
// result's is the one computed.
func TestBackgroundWaitsForTheRecompute(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	old := m.Session().HealthJob()
	m.Update(uitest.KeyPress("m")) // a recompute under way
	_, due := m.Update(backgroundDueMsg{old})
	if healthStarts(m, due) || m.rc.deferred != old {
		t.Fatal("the health started while a recompute was under way")
	}
	m.Update(m.rc.next())
	if m.rc.deferred != nil {
		t.Error("the health of a replaced result is still deferred")
	}
	s := m.Session()
	if s.HealthReady() || s.HealthJobCurrent(old) {
		t.Fatal("the recompute did not replace the result, or computed its health")
	}
	_, due = m.Update(backgroundDueMsg{s.HealthJob()})
	if !healthStarts(m, due) || !s.HealthReady() {
		t.Error("the new result's health, due with nothing on screen computing, did not start")
	}
}

// TestBackgroundNotDeferredWhileFollowing: following a run, the health
// is not deferred, or recomputes one after another would starve it.
func TestBackgroundNotDeferredWhileFollowing(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	if m.rc.next == nil {
		t.Fatal("m started no recompute")
	}
	m.live = &liveState{}
	if m.foregroundBusy() {
		t.Error("following a run, a recompute under way defers the health")
	}
}

// TestBusyUntilIdle: under gcpace.Steady, the collector lets the heap
// grow from the work the screen waits for until the dashboard is idle,
// when the idle command sets the steady pace back: on the Compare tab's
// first visit (method B's result, the comparison, its ranking), while
// which the session's prefetch falls due and is dropped, then asked once
// the visit's work lands; and on a switch of method B that keeps the
// result shown. Idle is asked once a burst.
func TestBusyUntilIdle(t *testing.T) {
	t.Setenv("GOGC", "")
	defer gcpace.Steady()()
	m := newTestModel(t, 120, 40)
	if got := gogc(); got != gcpace.SteadyPercent {
		t.Fatalf("GOGC %d on the first frame, want %d", got, gcpace.SteadyPercent)
	}
	// land runs the commands of key k, and checks that its work landed
	// and that the pace is steady again.
	land := func(k string, cmd tea.Cmd) {
		t.Helper()
		runCmds(m, cmd)
		if !strings.Contains(screen(m), "Kendall") || strings.Contains(screen(m), "ranking…") {
			t.Fatalf("%s: its work did not land:\n%s", k, screen(m))
		}
		if got := gogc(); got != gcpace.SteadyPercent {
			t.Errorf("%s: GOGC %d once its work landed, want %d", k, got, gcpace.SteadyPercent)
		}
	}
	_, cmd := m.Update(uitest.KeyPress("7"))
	if got := gogc(); got != gcpace.GrowingPercent { // a test's heap is small
		t.Errorf("GOGC %d while the visit computes, want %d", got, gcpace.GrowingPercent)
	}
	if m.Update(prefetchDueMsg{}); m.rc.prefetchAsked {
		t.Fatal("the prefetch started while the visit computes")
	}
	land("7", cmd)
	if !m.rc.prefetchAsked {
		t.Error("the prefetch dropped during the visit was not asked once it landed")
	}
	bursts := gcpace.Bursts()
	_, cmd = m.Update(uitest.KeyPress("b"))
	land("b", cmd)
	if gcpace.Bursts() == bursts {
		t.Error("b: its recompute was no burst (gcpace.Busy)")
	}
	if m.idle() != nil {
		t.Error("idle asked again in the same burst")
	}
	gcpace.Busy()
	if m.idle() == nil {
		t.Error("idle not asked after another burst")
	}
}

// TestBusyWhileEvaluating: the group filter's toggle and a change of
// constraints (applied or refused) are work the screen waits for: the
// pace is raised and the dashboard not idle until it lands, then the pace
// is steady again.
func TestBusyWhileEvaluating(t *testing.T) {
	t.Setenv("GOGC", "")
	defer gcpace.Steady()()
	constraint := func(text string) func(m *Model) tea.Cmd {
		return func(m *Model) tea.Cmd {
			press(m, "w", "c")
			typeText(m, text)
			_, cmd := m.Update(uitest.KeyPress("enter"))
			return cmd
		}
	}
	sample := func(t *testing.T) *Model { return newTestModel(t, 200, 40) }
	for _, c := range []struct {
		name  string
		model func(t *testing.T) *Model
		start func(m *Model) tea.Cmd
	}{
		{"the filter's toggle", filterModel, func(m *Model) tea.Cmd { _, cmd := m.Update(uitest.KeyPress("f")); return cmd }},
		{"a constraint applied", sample, constraint("safety > 0.5")},
		{"a constraint refused", sample, constraint("nosuchfield > 1")},
	} {
		m := c.model(t)
		m.rc.prefetchAsked = true // the session's prefetch done
		cmd := c.start(m)
		if got := gogc(); got != gcpace.GrowingPercent { // a test's heap is small
			t.Errorf("%s: GOGC %d while it is evaluated, want %d", c.name, got, gcpace.GrowingPercent)
		}
		if m.idle() != nil {
			t.Errorf("%s: idle while it is evaluated", c.name)
		}
		runCmds(m, cmd)
		if got := gogc(); got != gcpace.SteadyPercent {
			t.Errorf("%s: GOGC %d once it landed, want %d", c.name, got, gcpace.SteadyPercent)
		}
	}
}

// gogc reads the collector's GOGC without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
