package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// pressFinding types filter into the active tab's filter (opened with
// /), keeps it with enter, and sends m the message the enter asks for, a
// ShowBatchMsg or a NoticeMsg (not the notice's expiry).
func pressFinding(t *testing.T, m *Model, filter string) {
	t.Helper()
	press(m, "/")
	for _, r := range filter {
		press(m, string(r))
	}
	_, cmd := m.Update(uitest.KeyPress("enter"))
	for cmd != nil {
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			cmd = tea.Batch(msg[1:]...)
			if msg[0] != nil {
				cmd = msg[0]
			}
		case common.ShowBatchMsg, common.NoticeMsg:
			m.Update(msg)
			settle(m)
			return
		default:
			t.Fatalf("enter on %q asked for %T, want a ShowBatchMsg or a NoticeMsg", filter, msg)
		}
	}
	t.Fatalf("enter on %q asked for nothing", filter)
}

// TestFindSaysTheMove: a Trajectories filter that matches nothing in the
// batch on screen moves to the batch that has a match, and the status line
// says so; one that matches nothing anywhere says that.
func TestFindSaysTheMove(t *testing.T) {
	m := newTestModel(t, 120, 30)
	press(m, "5")
	pressFinding(t, m, "s30-p02-c1")
	v := screen(m)
	if !strings.Contains(v, "batch 31/40 step 30") || !strings.Contains(v, `"s30-p02-c1" found in step 30: batch 31/40`) {
		t.Errorf("the filter s30-p02-c1 did not move to step 30 saying so:\n%s", v)
	}
	press(m, "esc")
	pressFinding(t, m, "nosuchid")
	if v := screen(m); !strings.Contains(v, `no trajectory matches "nosuchid" in any batch`) {
		t.Errorf("the filter nosuchid does not say it matches nothing:\n%s", v)
	}
	// The filter cleared, the notice of it goes.
	press(m, "esc")
	if v := screen(m); strings.Contains(v, "nosuchid") {
		t.Errorf("the filter nosuchid cleared, the status line still speaks of it:\n%s", v)
	}
}

// TestGroupsFilterSaysWhereElse: a Groups filter that lists no group of
// the batch on screen says which batch has an id or group key it
// matches, or, without one, speaks of this batch only (other batches'
// prompts and sources are not read: "in any batch" could be false).
func TestGroupsFilterSaysWhereElse(t *testing.T) {
	m := newTestModel(t, 140, 30)
	press(m, "2")
	pressFinding(t, m, "s30-p02-c1")
	if v := screen(m); !strings.Contains(v, `no group of this batch matches "s30-p02-c1"; one of step 30: batch 31/40 does ([ and ] move)`) {
		t.Errorf("the Groups filter s30-p02-c1 does not say where it matches:\n%s", v)
	}
	press(m, "esc")
	pressFinding(t, m, "nosuchid")
	if v := screen(m); !strings.Contains(v, `no group of this batch matches "nosuchid" (ids, group keys, prompts, sources)`) || strings.Contains(v, "in any batch") {
		t.Errorf("the Groups filter nosuchid does not say this batch has no match, or claims more:\n%s", v)
	}
	// Another batch shown, "this batch" is no longer the one meant.
	press(m, "]")
	if v := screen(m); strings.Contains(v, "no group of this batch matches") {
		t.Errorf("the next batch shown, the status line still speaks of the last:\n%s", v)
	}
}

// TestUnavailableKeysSayWhy: f without --filter-groups and F without
// --follow do nothing, and the status line says why.
func TestUnavailableKeysSayWhy(t *testing.T) {
	m := newTestModel(t, 140, 30)
	for k, want := range map[string]string{
		"f": "f: the group filter needs --filter-groups OBJECTIVE",
		"F": "F: following the newest batch needs --follow",
	} {
		press(m, k)
		checkScreen(t, "the status line after "+k, screen(m), []string{want}, nil)
	}
}

// TestBatchKeysSayTheEnds: [ at the first batch and ] at the last move
// nowhere, and the status line says why.
func TestBatchKeysSayTheEnds(t *testing.T) {
	m := newTestModel(t, 140, 30)
	press(m, "[")
	checkScreen(t, "the screen after [ at the first batch", screen(m), []string{"batch 1/40", "[: already at the first batch"}, nil)
	for m.Session().Batch < len(m.Session().Result.Ranking.Batches)-1 {
		press(m, "]")
	}
	press(m, "]")
	checkScreen(t, "the screen after ] at the last batch", screen(m), []string{"batch 40/40", "]: already at the last batch"}, nil)
}

// TestBatchKeysSayTheOnlyBatch: in a run of one batch, where the footer
// offers no [/], [ and ] say why they move nowhere.
func TestBatchKeysSayTheOnlyBatch(t *testing.T) {
	m := openModel(uitest.SyntheticSession(t, 16), 140, 30)
	for _, k := range []string{"[", "]"} {
		press(m, k)
		checkScreen(t, "the screen after "+k, screen(m), []string{"batch 1/1", k + ": the run has one batch"}, nil)
	}
}

// TestHelpListsTheKeysThatWork: the help of Steps says the wheel, home
// and end (which select the first and last chart); that of Trajectories
// the table's page and home/end keys.
func TestHelpListsTheKeysThatWork(t *testing.T) {
	for tab, wants := range map[string][]string{
		"6": {"↑/k/wheel", "home", "first chart", "end", "last chart"},
		"5": {"pgdn", "page down", "home", "first row", "end", "last row"},
	} {
		m := newTestModel(t, 160, 50)
		press(m, tab, "?")
		checkScreen(t, "tab "+tab+"'s help", screen(m), wants, nil)
	}
	m := newTestModel(t, 120, 40)
	press(m, "6", "end")
	checkScreen(t, "Steps after end (its last chart selected)", screen(m), []string{"charts 7–15 of 15", "▸ expected dead…"}, nil)
	press(m, "home")
	checkScreen(t, "Steps after home (its first chart selected)", screen(m), []string{"charts 1–", "▸ score mean"}, nil)
}

// TestParetoFooterWithOneGroup: with scope batch the Pareto tab shows one
// group, and its footer offers no ↑/↓ between groups; with scope group it
// does.
func TestParetoFooterWithOneGroup(t *testing.T) {
	m := newTestModel(t, 200, 40)
	press(m, "4")
	if !checkScreen(t, "the footer with scope group", screen(m), []string{"↑ previous group"}, nil) {
		t.FailNow()
	}
	press(m, "g")
	checkScreen(t, "the footer with scope batch (group 1 of 1)", screen(m), []string{"group 1 of 1"}, []string{"previous group", "next group"})
}

// TestFindFromEveryView presses / in each tab and in each of their opened
// views, then types "s03": the Trajectories filter opens (or, on the
// Groups list, Trajectories' table and Prompts, the tab's own) and takes
// the text, which neither sorts (s) nor switches tabs (3).
func TestFindFromEveryView(t *testing.T) {
	const trajectoriesTab, groupsTab, promptsTab = 4, 1, 7
	views := []struct {
		name string
		keys []string
		// finder is the tab whose filter / opens.
		finder int
	}{
		{"Rewards", []string{"1"}, trajectoriesTab},
		{"Groups' list", []string{"2"}, groupsTab},
		{"Groups' group view", []string{"2", "enter"}, trajectoriesTab},
		{"Groups' completion", []string{"2", "enter", "enter"}, trajectoriesTab},
		{"Objectives", []string{"3"}, trajectoriesTab},
		{"Pareto", []string{"4"}, trajectoriesTab},
		{"Pareto's detail", []string{"4", "enter"}, trajectoriesTab},
		{"Trajectories' table", []string{"5"}, trajectoriesTab},
		{"Trajectories' detail", []string{"5", "enter"}, trajectoriesTab},
		{"Steps", []string{"6"}, trajectoriesTab},
		{"Steps' chart", []string{"6", "enter"}, trajectoriesTab},
		{"Compare", []string{"7"}, trajectoriesTab},
		{"Compare's detail", []string{"7", "enter"}, trajectoriesTab},
		{"Prompts", []string{"8"}, promptsTab},
	}
	for _, v := range views {
		m := newTestModel(t, 100, 30)
		press(m, v.keys...)
		press(m, "/", "s", "0", "3")
		capturer, ok := m.tabs[m.active].(common.KeyCapturer)
		if m.active != v.finder || !ok || !capturer.CapturesKeys() {
			t.Errorf("%s: / then s03 left tab %d (want %d) not typing:\n%s", v.name, m.active+1, v.finder+1, screen(m))
			continue
		}
		if s := screen(m); !strings.Contains(s, "/s03") {
			t.Errorf("%s: s03 typed after / is not in the filter:\n%s", v.name, s)
		}
	}
}
