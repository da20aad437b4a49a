package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// rowOf returns the table row of the screen that shows id, "" if none.
func rowOf(view, id string) string {
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, " "+id+" ") {
			return line
		}
	}
	return ""
}

// idsInOrder returns the order in which ids appear on the screen.
func idsInOrder(view string, ids []string) []string {
	var order []string
	for _, line := range strings.Split(view, "\n") {
		for _, id := range ids {
			if strings.Contains(line, " "+id+" ") {
				order = append(order, id)
			}
		}
	}
	return order
}

// TestGroupShowsBothMethods opens the sample's group p01 on pareto: each
// completion shows its pareto reward (A) and its grpo reward (B) in
// columns named by method, c0 the wrong, short answer that pareto rewards
// (+1.000) and grpo penalises (−0.874); the rows keep their order when
// the method changes.
func TestGroupShowsBothMethods(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "2", "down", "enter")
	view := screen(m)
	if !strings.Contains(view, "pareto                       grpo") {
		t.Fatalf("the group has no pareto and grpo columns:\n%s", view)
	}
	if row := rowOf(view, "s00-p01-c0"); !strings.Contains(row, " 1.000 ") || !strings.Contains(row, "-0.874") {
		t.Errorf("c0's row does not show pareto 1.000 and grpo -0.874: %q", row)
	}
	ids := []string{"s00-p01-c0", "s00-p01-c1", "s00-p01-c2", "s00-p01-c3", "s00-p01-c4", "s00-p01-c5", "s00-p01-c6", "s00-p01-c7"}
	before := idsInOrder(view, ids)
	press(m, "M") // rloo: other rewards, the same rows
	view = screen(m)
	if !strings.Contains(view, "rloo ") || !strings.Contains(view, " grpo ") {
		t.Errorf("after M the group is not rloo against grpo:\n%s", view)
	}
	if after := idsInOrder(view, ids); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("the rows moved when the method changed: %v, then %v", before, after)
	}
}

// TestWeightsSayScoreOnlyUnderPareto: the weight editor and the Rewards
// tab say that under pareto the weights change the score only; under
// every method whose rewards they enter (grpo's score, gdpo's objectives)
// they do not.
func TestWeightsSayScoreOnlyUnderPareto(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "1", "w")
	checkScreen(t, "the screen on pareto", screen(m), []string{"weights (score only under pareto)", "the weights (w) change the score only"}, nil)
	for range engine.Methods {
		press(m, "esc", "m", "w")
		method := m.Session().Options.Method
		if said := strings.Contains(screen(m), "score only"); said == method.RewardsWeighted() {
			t.Errorf("on %s the screen says the weights change the score only: %v", method, said)
		}
	}
}

// TestGroupViewSorts: in the sample's group p01, s sorts the rows by the
// next column (B's grpo reward) and S reverses it, the footer saying so;
// after M the rows keep grpo's order, which the line over them names as
// an order, not as a sort by the new method.
func TestGroupViewSorts(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "2", "down", "enter")
	view := screen(m)
	if !strings.Contains(view, "sorted by pareto ▼") || !strings.Contains(view, "s/S sort") {
		t.Fatalf("the group view does not say it is sorted by pareto, or lacks the s/S hint:\n%s", view)
	}
	ids := []string{"s00-p01-c0", "s00-p01-c1", "s00-p01-c2", "s00-p01-c3", "s00-p01-c4", "s00-p01-c5", "s00-p01-c6", "s00-p01-c7"}
	// grpo descending, by hand from the rows' grpo rewards: c1 0.986,
	// c4 0.933, c2 0.914, c3 0.903, c0 -0.874, c7 -0.906, c5 -0.919, c6 -1.037.
	byGRPO := "s00-p01-c1 s00-p01-c4 s00-p01-c2 s00-p01-c3 s00-p01-c0 s00-p01-c7 s00-p01-c5 s00-p01-c6"
	press(m, "s")
	view = screen(m)
	if got := strings.Join(idsInOrder(view, ids), " "); got != byGRPO || !strings.Contains(view, "sorted by grpo ▼") {
		t.Errorf("s does not sort by grpo descending: %s\n%s", got, view)
	}
	press(m, "S")
	view = screen(m)
	reversed := strings.Fields(byGRPO)
	slices.Reverse(reversed)
	if got := strings.Join(idsInOrder(view, ids), " "); got != strings.Join(reversed, " ") || !strings.Contains(view, "sorted by grpo ▲") {
		t.Errorf("S does not reverse the sort: %s\n%s", got, view)
	}
	press(m, "S", "s", "s") // score ▼, then rank ▼
	press(m, "S")           // rank ▲
	before := idsInOrder(screen(m), ids)
	press(m, "m") // pareto-crowding: the ranks stay, the order too
	view = screen(m)
	if after := idsInOrder(view, ids); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("the rows moved when the method changed: %v, then %v", before, after)
	}
	if !strings.Contains(view, "sorted by rank ▲") {
		t.Errorf("sorted by rank, which the method does not change, the line does not say so:\n%s", view)
	}
	press(m, "s", "s", "s", "s", "s", "s", "s") // accuracy, safety, length, then pareto-crowding, grpo, score, rank
	press(m, "s", "s", "s", "s")                // accuracy, safety, length, pareto-crowding
	press(m, "m")                               // gdpo: pareto-crowding's order kept, its column gone
	view = screen(m)
	if !strings.Contains(view, "order kept from pareto-crowding ▲ (s sorts)") || strings.Contains(view, "sorted by") {
		t.Errorf("after m the line claims a sort its rows do not have:\n%s", view)
	}
}

// TestTrajectoriesOrderLabel: after m the Trajectories keep pareto's
// order, and the line over them says so ("kept from": no column is
// pareto's any more) instead of claiming a sort by pareto-crowding; s
// sorts them again; a column the method does not change (an objective)
// stays "sorted by" across m.
func TestTrajectoriesOrderLabel(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "5")
	if !checkScreen(t, "the Trajectories at first", screen(m), []string{"sorted by pareto ▼"}, nil) {
		t.FailNow()
	}
	press(m, "m")
	checkScreen(t, "the line over the Trajectories after m", screen(m), []string{"order kept from pareto ▼ (s sorts)"}, []string{"sorted by"})
	press(m, "s", "s", "s", "s") // grpo, rank, crowding, accuracy
	press(m, "s")                // safety
	if !checkScreen(t, "the Trajectories after s to safety", screen(m), []string{"sorted by safety ▼"}, nil) {
		t.FailNow()
	}
	press(m, "m")
	checkScreen(t, "an objective's sort after m", screen(m), []string{"sorted by safety ▼"}, nil)
}

// TestCompareOpenShowsBothRewards: enter on Compare's first disagreement
// (c0 of p01) shows its reward under pareto (A), 1, and under grpo (B),
// -0.8737, named by method.
func TestCompareOpenShowsBothRewards(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7", "d", "enter")
	if !checkScreen(t, "enter on the first disagreement (c0, under pareto)", screen(m), []string{"s00-p01-c0", "computed (pareto)"}, nil) {
		t.FailNow()
	}
	checkScreen(t, "c0 opened, with B's reward,", screen(m), []string{"reward       1 · grpo (B) -0.8737"}, nil)
}

// TestComparePanelFitsSmall: at 80x24 Compare's panel keeps the selected
// trajectory's place among the disagreements and a legend, the rank
// agreement shortened to Spearman's ρ; at 120x40 it has them all.
func TestComparePanelFitsSmall(t *testing.T) {
	m := newTestModel(t, 80, 24)
	press(m, "7", "d")
	checkScreen(t, "Compare at 80x24", screen(m), []string{"disagreement  ", " of 27", "● same", "◎ selected", "Spearman ρ"}, nil)
	m = newTestModel(t, 120, 40)
	press(m, "7", "d")
	checkScreen(t, "Compare at 120x40", screen(m), []string{"disagreement  ", "Kendall τ-b", "legend", "a few to most points"}, nil)
}

// TestCompareSaysNoDisagreement: on TRL completions, where no trajectory
// is rewarded by one method and penalised by the other, d says so on the
// status line; the help explains "collapsed".
func TestCompareSaysNoDisagreement(t *testing.T) {
	m := loadModel(t, streamedInput(t, sampletest.TRLConfig(), sampletest.TRLLayout, trlFixture), 120)
	press(m, "7")
	_, cmd := m.Update(uitest.KeyPress("d"))
	if cmd == nil {
		t.Fatal("d with no disagreement gives no notice")
	}
	m.Update(cmd()) // the notice; not its expiry, a tick
	checkScreen(t, "the status line after d with no disagreement", screen(m), []string{"no trajectory is rewarded by one method and penalised by the other"}, nil)
	press(m, "?")
	checkScreen(t, "the help, explaining collapsed,", screen(m), []string{"collapsed groups: groups where distinct objective vectors get"}, nil)
}

// TestFooterWhileEditingWeights: with the weights editor open, the footer
// says what its keys do and none of the tab's (on Pareto, ←/→ step
// through the points; the editor takes them to select a constraint).
func TestFooterWhileEditingWeights(t *testing.T) {
	m := newTestModel(t, 160, 40)
	press(m, "4")
	footer := func() string {
		lines := strings.Split(strings.TrimRight(screen(m), "\n"), "\n")
		return lines[len(lines)-1]
	}
	if f := footer(); !strings.Contains(f, "point") {
		t.Fatalf("Pareto's footer names no point key: %q", f)
	}
	press(m, "w")
	if f := footer(); strings.Contains(f, "point") || !strings.Contains(f, "objective") {
		t.Errorf("editing weights on Pareto, the footer reads %q", f)
	}
	press(m, "esc")
	if f := footer(); !strings.Contains(f, "point") {
		t.Errorf("the editor closed, Pareto's footer reads %q", f)
	}
}

// TestGoldenGroupOrderKept: a group sorted by pareto, then A switched to
// grpo, the Compare tab's B: no column is pareto's, and the line over the
// rows says the order was kept from it, at 80x24 and 160x40.
func TestGoldenGroupOrderKept(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestModel(t, size[0], size[1])
			press(m, "2", "down", "enter")
			setMethod(t, m, m.Session().CompareMethod)
			view := screen(m)
			if !strings.Contains(view, "order kept from pareto ▼ (s sorts)") {
				t.Errorf("the line over the rows does not say the order was kept from pareto:\n%s", view)
			}
			golden.RequireEqual(t, view)
		})
	}
}
