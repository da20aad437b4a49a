package ui

import (
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// runBeside runs cmd and the commands of its batches each on a goroutine
// of its own, as the program does, and sends their messages to msgs; the
// channel it returns is closed once every one returned.
func runBeside(cmd tea.Cmd, msgs chan<- tea.Msg) <-chan struct{} {
	var wg sync.WaitGroup
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		wg.Go(func() {
			switch msg := c().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					run(c)
				}
			case nil:
			default:
				msgs <- msg
			}
		})
	}
	run(cmd)
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// TestBackgroundStepsAsideForAVisit: the health of a new result and the
// hidden tabs' prefetches, started with nothing on screen computing, are
// running when the Compare tab is visited: while the visit's work is out
// the root holds the gate, at which that work stops (the health's own
// stop: session's TestHealthJobStepsAside), and once the visit's work
// landed it releases it, and the health goes on to its end.
func TestBackgroundStepsAsideForAVisit(t *testing.T) {
	m := newTestModel(t, 120, 40)
	gate := new(pause.Gate)
	m.common.Background = gate
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next())
	s := m.Session()
	j := s.HealthJob()
	_, started := m.Update(backgroundDueMsg{j})
	if m.rc.deferred != nil || gate.Held() {
		t.Fatalf("with nothing on screen computing, the health was deferred (%v) or the gate held (%v)", m.rc.deferred != nil, gate.Held())
	}
	m.Update(uitest.KeyPress("7"))
	if !m.foregroundBusy() || !gate.Held() {
		t.Fatalf("the Compare tab's visit: busy %v, gate held %v; want both", m.foregroundBusy(), gate.Held())
	}
	msgs := make(chan tea.Msg, 64)
	done := runBeside(started, msgs)
	if !testkit.StopsAt(gate, 1, done) {
		t.Fatal("the health ran past the gate held for the visit")
	}
	for m.foregroundBusy() { // the visit's work, on the event loop's goroutine
		if m.rc.next != nil {
			m.Update(m.rc.next())
			continue
		}
		for _, job := range m.jobs {
			if job.tab == m.active {
				m.Update(jobDoneMsg{job.id, job.tab, job.run()})
				break
			}
		}
	}
	if gate.Held() {
		t.Fatal("the visit's work landed and the gate is still held")
	}
	<-done
	close(msgs)
	for msg := range msgs {
		m.Update(msg)
	}
	if !s.HealthReady() {
		t.Error("the health that stepped aside was not computed once the gate was released")
	}
}

// TestBackgroundGoesOnForTheTabsWaitingForIt: the screen waiting for work
// holds the gate on a tab that waits for nothing it holds (Rewards), but
// not on one whose own prefetch waits at it (Pareto, Prompts) or that
// waits for the health (Steps): that work would wait for itself.
func TestBackgroundGoesOnForTheTabsWaitingForIt(t *testing.T) {
	for _, c := range []struct {
		tab  string
		held bool
	}{{"1", true}, {"4", false}, {"6", false}, {"8", false}} {
		m := newTestModel(t, 120, 40)
		gate := new(pause.Gate)
		m.common.Background = gate
		press(m, c.tab)
		m.Update(uitest.KeyPress("m")) // a recompute under way
		if !m.foregroundBusy() {
			t.Fatalf("tab %s: m started no work the screen waits for", c.tab)
		}
		if gate.Held() != c.held {
			t.Errorf("tab %s: a recompute under way, gate held %v, want %v", c.tab, gate.Held(), c.held)
		}
		m.Update(m.rc.next())
		if !m.foregroundBusy() && gate.Held() {
			t.Errorf("tab %s: the recompute landed, nothing else is out, and the gate is held", c.tab)
		}
	}
}
