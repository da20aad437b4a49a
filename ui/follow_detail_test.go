package ui

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
)

// TestFollowKeepsAnOpenDetail: following, a completion, a group or a
// trajectory open on the newest batch stays open on it when a newer batch
// comes: the view pauses (the header says so, the status line names the
// step that came, the footer lists F), and F shows the newest. With nothing open
// the view follows the newest batch, as before.
func TestFollowKeepsAnOpenDetail(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"a completion of a group", []string{"2", "enter", "enter"}},
		{"a group", []string{"2", "enter"}},
		{"a trajectory", []string{"5", "enter"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := newLiveModel(t)
			press(m, c.keys...)
			if d := m.tabs[m.active].(common.DetailShower); !d.ShowsDetail() {
				t.Fatalf("%v opened nothing:\n%s", c.keys, screen(m))
			}
			before := screen(m)
			_, more := sampleSteps(t, 20, 22)
			m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
			view := screen(m)
			if h := headerOf(m); !strings.Contains(h, "paused, F follows · batch 20/22 step 19") {
				t.Errorf("header %q, want paused on step 19", h)
			}
			if !m.tabs[m.active].(common.DetailShower).ShowsDetail() || bodyOf(view) != bodyOf(before) {
				t.Errorf("the new batches moved the view:\n%s\nwas:\n%s", view, before)
			}
			if !strings.Contains(view, "step 21 came; following holds while a detail is open: F shows it") {
				t.Errorf("the status line does not say step 21 came:\n%s", view)
			}
			if footer := view[strings.LastIndex(view, "\n")+1:]; !strings.Contains(footer, "F follow") {
				t.Errorf("paused, the footer does not list F: %s", footer)
			}
			press(m, "F")
			if h := headerOf(m); !strings.Contains(h, "● LIVE batch 22/22 step 21") {
				t.Errorf("after F, header %q", h)
			}
			// Nothing open: the newest batch is shown as it comes.
			for range 2 {
				if m.tabs[m.active].(common.DetailShower).ShowsDetail() {
					press(m, "esc")
				}
			}
			_, more = sampleSteps(t, 22, 23)
			m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
			if h := headerOf(m); !strings.Contains(h, "● LIVE batch 23/23 step 22") {
				t.Errorf("with nothing open, header %q", h)
			}
		})
	}
}

// bodyOf is the screen under its header and above its status line.
func bodyOf(view string) string {
	lines := strings.Split(view, "\n")
	return strings.Join(lines[1:len(lines)-2], "\n")
}

// TestFollowPausedNamesTheNewestStep: while a detail holds the view, each
// newer step that comes is the one the status line names.
func TestFollowPausedNamesTheNewestStep(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "2", "enter")
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if v := screen(m); !strings.Contains(v, "step 21 came; following holds while a detail is open: F shows it") {
		t.Fatalf("the status line does not say step 21 came:\n%s", v)
	}
	_, more = sampleSteps(t, 22, 24)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	v := screen(m)
	if !strings.Contains(v, "step 23 came; following holds while a detail is open: F shows it") {
		t.Errorf("steps 22 and 23 came while paused, the status line does not say step 23 came:\n%s", v)
	}
	if h := headerOf(m); !strings.Contains(h, "paused, F follows · batch 20/24 step 19") {
		t.Errorf("header %q, want still paused on step 19", h)
	}
	// Paused by the user, nothing is announced.
	press(m, "F", "esc", "esc", "[")
	m.status.ClearNotice("step 23 came; following holds while a detail is open: F shows it")
	if h := headerOf(m); !strings.Contains(h, "paused") {
		t.Fatalf("[ did not pause: header %q", h)
	}
	_, more = sampleSteps(t, 24, 25)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if v := screen(m); strings.Contains(v, "came; following holds while a detail is open: F shows it") {
		t.Errorf("paused by the user, the status line announces a step:\n%s", v)
	}
}

// TestFollowHeldByAHiddenDetail: a group left open on a tab the user then
// switched away from holds following as one shown does; closing it
// follows the newest step again by itself, said in the status line.
func TestFollowHeldByAHiddenDetail(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "2", "enter", "1")
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if h := headerOf(m); !strings.Contains(h, "paused, F follows · batch 20/22 step 19") {
		t.Fatalf("a group open on a hidden tab, header %q, want paused on step 19", h)
	}
	if v := screen(m); !strings.Contains(v, "step 21 came; following holds while a detail is open") {
		t.Errorf("the status line does not say why following holds:\n%s", v)
	}
	press(m, "2", "esc")
	if h := headerOf(m); !strings.Contains(h, "● LIVE batch 22/22 step 21") {
		t.Errorf("the group closed, header %q, want following step 21", h)
	}
	if v := screen(m); !strings.Contains(v, "detail closed: following the newest step again") {
		t.Errorf("the status line does not say following resumed:\n%s", v)
	}
	_, more = sampleSteps(t, 22, 23)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	if h := headerOf(m); !strings.Contains(h, "● LIVE batch 23/23 step 22") {
		t.Errorf("after the detail closed, header %q, want following step 22", h)
	}
}

// TestFollowPausedByTheUserStaysPaused: a detail held following, then the
// user moved to another batch: closing the detail does not follow again.
func TestFollowPausedByTheUserStaysPaused(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "5", "enter")
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	press(m, "[")
	for m.detailOpen() {
		press(m, "esc")
	}
	if h := headerOf(m); !strings.Contains(h, "paused, F follows · batch 19/22 step 18") {
		t.Errorf("paused by the user, header %q, want still paused on step 18", h)
	}
}

// TestFollowEndedWhileHeld: following that ended while a detail held the
// view is not said to resume when the detail closes (the header says
// paused).
func TestFollowEndedWhileHeld(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "2", "enter")
	_, more := sampleSteps(t, 20, 22)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	m.Update(liveMsg{ok: false})
	press(m, "esc")
	if v := screen(m); strings.Contains(v, "following the newest step again") || !strings.Contains(headerOf(m), "paused, F follows") {
		t.Errorf("the detail closed after following ended, header %q:\n%s", headerOf(m), v)
	}
}
