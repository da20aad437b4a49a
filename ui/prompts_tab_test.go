package ui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestPromptsEnterOpensTheGroup: on the Prompts tab, enter on a prompt at
// its step before the last opens the Groups tab on that batch with the
// prompt's group open.
func TestPromptsEnterOpensTheGroup(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "8")
	if got := m.tabs[m.active].Title(); got != "Prompts" {
		t.Fatalf("8 shows %s", got)
	}
	press(m, "down", "left") // p02 (learned), step 38
	_, cmd := m.Update(uitest.KeyPress("enter"))
	if cmd == nil {
		t.Fatal("enter on the Prompts tab asked for nothing")
	}
	msg, ok := cmd().(common.ShowGroupMsg)
	if !ok {
		t.Fatalf("enter asked for %T", cmd())
	}
	m.Update(msg)
	settle(m)
	v := screen(m)
	if m.tabs[m.active].Title() != "Groups" || !strings.Contains(v, "batch 39/40 step 38") || !strings.Contains(v, "esc back") || !strings.Contains(v, "p02") {
		t.Errorf("enter did not open p02's group at step 38:\n%s", v)
	}
}

// TestPromptsTabFollowsTheRun: while following, the Prompts tab shows the
// steps as they arrive, as the tab opened on all of them shows them.
func TestPromptsTabFollowsTheRun(t *testing.T) {
	m, _ := newLiveModel(t)
	press(m, "8")
	before := screen(m)
	if !regexp.MustCompile(`mean +steps *\n +0 +19 *\n`).MatchString(before) {
		t.Fatalf("the Prompts tab on steps 0 to 19:\n%s", before)
	}
	_, more := sampleSteps(t, 20, 30)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	settle(m) // the tab's analysis, off the event loop
	cfg, all := sampleSteps(t, 0, 30)
	s, err := session.Open("run.jsonl", cfg, &loaders.Result{Trajectories: all}, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := NewModel(s, true)
	whole.Init()
	whole.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	whole.Settle()
	press(whole, "8")
	body := func(m *Model) string { return strings.Join(strings.Split(screen(m), "\n")[2:38], "\n") }
	if got, want := body(m), body(whole); got != want {
		t.Errorf("followed to step 29, the tab shows\n%s\nopened on steps 0 to 29, it shows\n%s", got, want)
	}
	if body(m) == strings.Join(strings.Split(before, "\n")[2:38], "\n") {
		t.Error("the tab did not change as steps came")
	}
}

// TestPromptsAnalysedWhenIdle: beside the first health of a session, the
// Prompts tab, not shown, analyses the prompts; its first visit then
// starts nothing and draws the heatmap at once. While following it does
// not: each update would analyse again for a tab perhaps never shown.
func TestPromptsAnalysedWhenIdle(t *testing.T) {
	m := NewModel(uitest.SampleSession(t), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	startHealth(t, m) // the health, then the prefetched tabs' work
	_, cmd := m.Update(uitest.KeyPress("8"))
	if cmd != nil {
		if msg := cmd(); msg != nil {
			t.Errorf("the first visit of the Prompts tab still asks for %T", msg)
		}
	}
	if v := screen(m); strings.Contains(v, "analysing") || !strings.Contains(v, "prompts never") {
		t.Errorf("the first visit does not show the analysis made when idle:\n%s", v)
	}

	live, _ := newLiveModel(t)
	live.Settle() // the health
	prompts := slices.IndexFunc(live.tabs, func(t common.Tab) bool { return t.Title() == "Prompts" })
	if cmd := live.prefetchTabsOnce(); cmd != nil || !live.stale[prompts] {
		t.Errorf("following, the Prompts tab not shown heard of the session's change (stale %v)", live.stale[prompts])
	}
}

// TestPromptsAnalysedBesideTheHealth runs the health job of a new result
// and the Prompts tab's analysis on their own goroutines at once, as the
// program runs the commands of startBackground: both land, and the tab's
// first visit shows the analysis (under -race, a check that the two share
// nothing written).
func TestPromptsAnalysedBesideTheHealth(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	m.Update(m.rc.next()) // the recompute lands
	batch, ok := m.startBackground(m.Session().HealthJob())().(tea.BatchMsg)
	if !ok || len(batch) < 2 {
		t.Fatalf("the background starts %d commands, want the health's and the analysis'", len(batch))
	}
	msgs := make([]tea.Msg, len(batch))
	var wg sync.WaitGroup
	for i, cmd := range batch {
		wg.Go(func() { msgs[i] = cmd() })
	}
	wg.Wait()
	for _, msg := range msgs {
		m.Update(msg)
	}
	if !m.Session().HealthReady() {
		t.Error("the health did not land")
	}
	if _, cmd := m.Update(uitest.KeyPress("8")); cmd != nil && cmd() != nil {
		t.Error("the first visit of the Prompts tab still asks for work")
	}
	if v := screen(m); strings.Contains(v, "analysing") || !strings.Contains(v, "prompts never") {
		t.Errorf("the first visit does not show the analysis:\n%s", v)
	}
}

// TestPromptsEscClearsTheKeptFilter: esc clears a filter kept with enter,
// as the footer says while one is kept; a new / shows the kept text, to
// edit.
func TestPromptsEscClearsTheKeptFilter(t *testing.T) {
	m := newTestModel(t, 120, 30)
	press(m, "8", "/", "S", "O", "L", "V", "E", "D", "enter")
	kept := screen(m)
	if !strings.Contains(kept, "1 of 16 prompts") || !strings.Contains(kept, "filter SOLVED") || !strings.Contains(kept, "esc clear the filter") {
		t.Fatalf("the kept filter SOLVED, or esc in the footer, is not shown:\n%s", kept)
	}
	press(m, "esc")
	golden.RequireEqual(t, screen(m))
	if v := screen(m); strings.Contains(v, "filter SOLVED") || !strings.Contains(v, "16 prompts") {
		t.Errorf("esc did not clear the kept filter:\n%s", v)
	}
	press(m, "/")
	if v := screen(m); strings.Contains(v, "/SOLVED") {
		t.Errorf("a new / after esc still holds the old filter:\n%s", v)
	}
}

// TestGoldenListFilterKept: the status line over a list keeps the kept
// filter whole where the line is too narrow for all its words (the
// Prompts tab's counts at 80 columns), cutting the other words instead.
func TestGoldenListFilterKept(t *testing.T) {
	for _, tab := range []struct{ key, name string }{{"2", "Groups"}, {"5", "Trajectories"}, {"8", "Prompts"}} {
		for _, width := range []int{80, 120} {
			t.Run(tab.name+"/"+strconv.Itoa(width), func(t *testing.T) {
				m := newTestModel(t, width, 16)
				press(m, tab.key, "/", "p", "0", "1", "enter")
				view := screen(m)
				if !strings.Contains(view, "· filter p01") {
					t.Errorf("the kept filter p01 is not shown:\n%s", view)
				}
				golden.RequireEqual(t, view)
			})
		}
	}
}
