package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// heard wraps a tab and records the messages it is sent.
type heard struct {
	common.Tab
	msgs []tea.Msg
}

func (h *heard) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	h.msgs = append(h.msgs, msg)
	_, cmd := h.Tab.Update(msg)
	return h, cmd
}

// TestTabsHearTheyAreHidden: the tab a selection leaves hears
// common.HiddenMsg, and so does a tab not shown whose job lands (a
// prefetch), after the job's message; the tab shown does not.
func TestTabsHearTheyAreHidden(t *testing.T) {
	m := newTestModel(t, 120, 40)
	rewards := &heard{Tab: m.tabs[0]}
	m.tabs[0] = rewards
	press(m, "2")
	if n := len(rewards.msgs); n == 0 || rewards.msgs[n-1] != (common.HiddenMsg{}) {
		t.Errorf("the tab left heard %v, want common.HiddenMsg last", rewards.msgs)
	}

	type done struct{}
	rewards.msgs = nil
	m.jobDone(jobDoneMsg{tab: 0, msg: done{}})
	if len(rewards.msgs) != 2 || rewards.msgs[0] != (done{}) || rewards.msgs[1] != (common.HiddenMsg{}) {
		t.Errorf("a hidden tab's job landing: the tab heard %v, want its message then common.HiddenMsg", rewards.msgs)
	}
	groups := &heard{Tab: m.tabs[1]}
	m.tabs[1] = groups
	m.jobDone(jobDoneMsg{tab: 1, msg: done{}})
	if len(groups.msgs) != 1 || groups.msgs[0] != (done{}) {
		t.Errorf("the shown tab's job landing: the tab heard %v, want its message only", groups.msgs)
	}
}

// TestIdleReturnsMemory: once a result's health lands with nothing else
// under way and the session's prefetch done, the dashboard hands the
// memory back (a command), once a burst; not before the prefetch, not
// with a recompute, a tab's job or the group filter's toggle under way,
// not while following.
func TestIdleReturnsMemory(t *testing.T) {
	m := newTestModel(t, 120, 40)
	if m.idle() != nil {
		t.Error("before the session's prefetch, idle returns a command")
	}
	m.rc.prefetchAsked = true
	if m.idle() == nil {
		t.Error("idle, with the prefetch done, returns no command")
	}
	if m.idle() != nil {
		t.Error("idle asked twice in a burst returns a command again")
	}
	gcpace.Busy() // a new burst
	m.jobs = append(m.jobs, tabJob{tab: 3})
	if m.idle() != nil {
		t.Error("with a tab's job out, idle returns a command")
	}
	m.jobs = nil
	m.filter.next = func() tea.Msg { return nil }
	if m.idle() != nil {
		t.Error("with the group filter's toggle under way, idle returns a command")
	}
	m.filter.next = nil
	m.Update(uitest.KeyPress("m"))
	if m.rc.next == nil || m.idle() != nil {
		t.Errorf("with a recompute under way (%v), idle returns a command", m.rc.next != nil)
	}
	live, _ := newLiveModel(t)
	live.Settle()
	live.rc.prefetchAsked = true
	if live.idle() != nil {
		t.Error("following, idle returns a command")
	}
}

// TestHealthAtOnceForSteps: shown, the Steps tab (a common.HealthWaiter)
// has a new result's health started at once; another tab has it wait
// backgroundDelay for its frame.
func TestHealthAtOnceForSteps(t *testing.T) {
	m := newTestModel(t, 120, 40)
	if got := m.delayBackground(); got != backgroundDelay {
		t.Errorf("on the Rewards tab the health waits %v, want %v", got, backgroundDelay)
	}
	press(m, "6")
	if m.tabs[m.active].Title() != "Steps" {
		t.Fatalf("tab 6 is %s", m.tabs[m.active].Title())
	}
	if got := m.delayBackground(); got != 0 {
		t.Errorf("on the Steps tab the health waits %v, want none", got)
	}
}

// TestPreparerLeftHearsHidden: a recompute that prepared a tab's work
// beside it (common.JobPreparer) landing once that tab was left tells
// it again that it is hidden, for it to let go of that work, done now;
// the tab shown that prepared hears nothing of the kind.
func TestPreparerLeftHearsHidden(t *testing.T) {
	m := newTestModel(t, 120, 40)
	rewards := &heard{Tab: m.tabs[0]}
	m.tabs[0] = rewards
	press(m, "2")
	rewards.msgs = nil
	s := m.common.Session
	m.recomputed(recomputedMsg{gen: m.rc.gen, ev: s.Evaluation, result: s.Result, preparer: 0})
	if len(rewards.msgs) != 1 || rewards.msgs[0] != (common.HiddenMsg{}) {
		t.Errorf("the tab left that prepared heard %v, want common.HiddenMsg", rewards.msgs)
	}
	groups := &heard{Tab: m.tabs[1]}
	m.tabs[1] = groups
	m.recomputed(recomputedMsg{gen: m.rc.gen, ev: s.Evaluation, result: s.Result, preparer: 1})
	for _, msg := range groups.msgs {
		if msg == (common.HiddenMsg{}) {
			t.Error("the tab shown that prepared heard common.HiddenMsg")
		}
	}
}
