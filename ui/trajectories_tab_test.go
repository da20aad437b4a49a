package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestGoldenTrajectories(t *testing.T) {
	tab, _ := newSampleTab(t, newTrajectoriesTab)
	golden.RequireEqual(t, plain(tab))
}

func TestGoldenTrajectoryOpened(t *testing.T) {
	tab, _ := newSampleTab(t, newTrajectoriesTab)
	pressKeys(tab, "down", "enter")
	golden.RequireEqual(t, plain(tab))
}

// rowRewards returns the listed rows' rewards, in table order.
func rowRewards(tab common.Tab, s *session.Session) []float64 {
	var rewards []float64
	for _, i := range tab.(*trajectoriesTab).list.rows {
		rewards = append(rewards, s.Result.Rewards[i])
	}
	return rewards
}

func TestTrajectoriesSortByReward(t *testing.T) {
	tab, s := newSampleTab(t, newTrajectoriesTab)
	if view := plain(tab); !strings.Contains(view, "sorted by reward ▼") {
		t.Fatalf("not sorted by reward at first:\n%s", view)
	}
	desc := rowRewards(tab, s)
	if len(desc) != 128 || !slices.IsSortedFunc(desc, func(a, b float64) int { return -compareFloats(a, b) }) {
		t.Errorf("rewards not in descending order: %v", desc)
	}
	pressKeys(tab, "S")
	if asc := rowRewards(tab, s); !slices.IsSorted(asc) || !strings.Contains(plain(tab), "reward ▲") {
		t.Errorf("S does not sort by ascending reward: %v", asc)
	}
	pressKeys(tab, "s")
	if view := plain(tab); !strings.Contains(view, "sorted by rank ▲") {
		t.Errorf("s does not move the sort to the next column:\n%s", view)
	}
}

func compareFloats(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestTrajectoriesFilterByGroup(t *testing.T) {
	tab, s := newSampleTab(t, newTrajectoriesTab)
	pressKeys(tab, "/", "p", "0", "3")
	if !tab.(keyCapturer).CapturesKeys() {
		t.Error("the tab does not capture keys while the filter is typed")
	}
	pressKeys(tab, "enter")
	rows := tab.(*trajectoriesTab).list.rows
	if len(rows) != 8 {
		t.Errorf("filter p03 keeps %d rows, want the group's 8", len(rows))
	}
	for _, i := range rows {
		if s.Trajectories.At(i).Group != "p03" {
			t.Errorf("filter p03 keeps %s of group %s", s.Trajectories.At(i).ID, s.Trajectories.At(i).Group)
		}
	}
	if view := plain(tab); !strings.Contains(view, "8 trajectories") || !strings.Contains(view, "filter p03") || strings.Contains(view, "p04") {
		t.Errorf("the view does not show the filter:\n%s", view)
	}
	pressKeys(tab, "esc")
	if n := len(tab.(*trajectoriesTab).list.rows); n != 128 {
		t.Errorf("esc leaves %d rows, want all 128", n)
	}
}

func TestTrajectoriesFilterKeysDoNotReachTheRoot(t *testing.T) {
	m := newTestModel(t, 120, 40)
	// q would quit and 2 switch tabs, were they not typed into the filter.
	press(m, "5", "/", "q", "2")
	if view := screen(m); !strings.Contains(view, "/q2") || !strings.Contains(view, "[5 Trajectories]") {
		t.Errorf("the filter did not get q and 2:\n%s", view)
	}
}

func TestTrajectoriesOpenAndReturn(t *testing.T) {
	tab, s := newSampleTab(t, newTrajectoriesTab)
	first := *s.Trajectories.At(tab.(*trajectoriesTab).list.rows[0])
	pressKeys(tab, "enter")
	view := plain(tab)
	words := strings.Fields(first.ResponseText())
	for _, want := range []string{"response", "metadata", words[0], words[len(words)-1], "read from"} {
		if !strings.Contains(view, want) {
			t.Errorf("the opened trajectory does not show %q:\n%s", want, view)
		}
	}
	pressKeys(tab, "esc")
	if view := plain(tab); !strings.Contains(view, "sorted by reward") {
		t.Errorf("esc does not return to the table:\n%s", view)
	}
}

func TestTrajectoriesShowInvalidCause(t *testing.T) {
	tab, s := newSampleTab(t, newTrajectoriesTab)
	// Batch 5 holds one of the sample's invalid trajectories.
	showBatch(tab, s, 5)
	if view := plain(tab); !strings.Contains(view, "1 invalid") {
		t.Errorf("batch 5's invalid trajectory is not counted:\n%s", view)
	}
	invalid := slices.IndexFunc(s.CurrentBatch().Members, func(i int) bool { return !s.Result.Valid[i] })
	pressKeys(tab, "/")
	pressKeys(tab, strings.Split(s.Trajectories.At(s.CurrentBatch().Members[invalid]).ID, "")...)
	pressKeys(tab, "enter")
	if view := plain(tab); !strings.Contains(view, "invalid because") || !strings.Contains(view, "accuracy: missing") {
		t.Errorf("batch 5's invalid trajectory is not shown with its cause:\n%s", view)
	}
}

func TestTrajectoriesSanitiseAndAlign(t *testing.T) {
	tab, s := newSampleTab(t, newTrajectoriesTab)
	top := tab.(*trajectoriesTab).list.rows[0]
	// Wide characters, an OSC 52 clipboard write and a bidi override.
	s.Trajectories.At(top).ID = "軌跡-\x1b]52;c;ZXZpbA==\x07-\u202eabc"
	s.Trajectories.At(top).Response = []byte(`"line one\n\u001b[2Jline two"`)
	tab.Update(common.SessionChangedMsg{})
	raw := tab.View()
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\u202e") {
		t.Errorf("the table prints the id's control sequences: %q", raw)
	}
	lines := strings.Split(plain(tab), "\n")
	header := lines[1]
	for _, line := range lines[2:] {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if ansi.StringWidth(line) != ansi.StringWidth(header) || strings.Index(line, "p") > strings.Index(header, "group")+2 {
			t.Errorf("row out of line with the header:\n%s\n%s", header, line)
		}
	}
	pressKeys(tab, "enter")
	if raw := tab.View(); strings.Contains(raw, "\x1b[2J") || !strings.Contains(plain(tab), `\x1b[2Jline two`) {
		t.Errorf("the response is not shown escaped: %q", plain(tab))
	}
}
