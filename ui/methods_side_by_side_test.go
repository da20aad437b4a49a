package ui

import (
	"strings"
	"testing"
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
// grpo, whose rewards follow the score, they do not.
func TestWeightsSayScoreOnlyUnderPareto(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "1", "w")
	view := screen(m)
	for _, want := range []string{"weights (score only under pareto)", "the weights (w) change the score only"} {
		if !strings.Contains(view, want) {
			t.Errorf("on pareto the screen lacks %q:\n%s", want, view)
		}
	}
	press(m, "esc", "M", "M") // rloo, then grpo
	press(m, "w")
	if view := screen(m); strings.Contains(view, "score only") {
		t.Errorf("on %s the screen says the weights change the score only:\n%s", m.Session().Options.Method, view)
	}
}
