package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// settledRecords is a batch of two groups under grpo: q0's valid scores
// all equal (a = 0.9369000000000001, b = 0; 7 of 8 valid), so that its
// rewards are the rounding leftover -5.6e-08 rather than 0 (epsilon
// 1e-9); q1's spread. Every record logs a positive advantage: against it,
// q0 would be 7 sign disagreements.
func settledRecords() string {
	var b strings.Builder
	for c := range 8 {
		a := "0.9369000000000001"
		if c == 0 {
			a = "null"
		}
		fmt.Fprintf(&b, `{"id":"q0-c%d","batch":0,"group":"q0","advantage":0.5,"metadata":{"a":%s,"b":0}}`+"\n", c, a)
	}
	for c := range 8 {
		fmt.Fprintf(&b, `{"id":"q1-c%d","batch":0,"group":"q1","advantage":0.5,"metadata":{"a":%g,"b":0}}`+"\n", c, float64(c)/8)
	}
	return b.String()
}

// leftover matches a rounding leftover as shown, -5.551e-08, not the
// epsilon, 1e-09.
var leftover = regexp.MustCompile(`\.[0-9]+e-`)

// TestSettledRewardsShownZero checks that a group of zero spread, whose
// grpo rewards are rounding leftovers, reads 0 everywhere and draws no
// bar (the group's view, the Trajectories table, a trajectory's detail),
// and is no sign disagreement in Compare against a positive logged
// advantage.
func TestSettledRewardsShownZero(t *testing.T) {
	newModel := func() *Model { return zeroSpreadModel(t, settledRecords()) }
	m := newModel()
	if r := m.Session().Result.Rewards[1]; r == 0 || m.Session().Evaluation.Logged == nil {
		t.Fatalf("q0's grpo reward is %v, the logged advantages %v: nothing to test", r, m.Session().Evaluation.Logged)
	}
	views := []struct {
		name string
		keys []string
	}{
		{"group", []string{"2", "enter"}},
		{"trajectories", []string{"5", "/", "q", "0", "enter"}},
		{"detail", []string{"5", "down", "down", "down", "down", "down", "enter"}},
		{"compare", []string{"7"}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			m := newModel()
			press(m, v.keys...)
			view := screen(m)
			if leftover.MatchString(view) {
				t.Errorf("a rounding leftover shown:\n%s", view)
			}
			if v.name == "group" && strings.Contains(view, "█") {
				t.Errorf("q0's view draws bars:\n%s", view)
			}
			golden.RequireEqual(t, view)
		})
	}
}

// zeroSpreadModel opens the dashboard at 120x40 on text under grpo with
// epsilon 1e-9 and the logged advantage "advantage".
func zeroSpreadModel(t *testing.T, text string) *Model {
	t.Helper()
	eps := 1e-9 // OpenRLHF's: the leftover grows to -5.6e-08
	cfg := setup.Config{Method: "grpo", Epsilon: &eps, LoggedAdvantage: "advantage", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}}
	return openModel(uitest.TextSessionWith(t, text, cfg), 120, 40)
}

// TestSettledRewardsHistogram: a batch whose one group has zero spread
// draws its rewards as the one bar of 0, not of the leftover.
func TestSettledRewardsHistogram(t *testing.T) {
	q0, _, _ := strings.Cut(settledRecords(), `{"id":"q1-c0"`)
	m := zeroSpreadModel(t, q0)
	press(m, "1")
	if v := screen(m); !strings.Contains(v, "all 0 ") {
		t.Errorf("the rewards' histogram is not one bar of 0:\n%s", v)
	}
}
