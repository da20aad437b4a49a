package objectives

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestObjectivesConstraintShares: with constraints the tab gives the
// batch's share meeting each and all, counted here from the raw values;
// without, no such section.
func TestObjectivesConstraintShares(t *testing.T) {
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"safety >= 0.95", "length <= 0.9"} })
	tab := uitest.TabOn(s, New)
	ev := s.Result.Evaluation
	var valid, safe, short, both float64
	for _, i := range s.CurrentBatch().Members {
		if !ev.Valid[i] {
			continue
		}
		valid++
		a, b := ev.Values[i*ev.M+1] >= 0.95, ev.Values[i*ev.M+2] <= 0.9
		if a {
			safe++
		}
		if b {
			short++
		}
		if a && b {
			both++
		}
	}
	if both == 0 || both == valid {
		t.Fatalf("the first batch is all or nothing feasible (%v of %v): the test shows nothing", both, valid)
	}
	v := uitest.Plain(tab)
	for _, want := range []string{
		fmt.Sprintf("safety >= 0.95           %6.1f%%", 100*safe/valid),
		fmt.Sprintf("length <= 0.9            %6.1f%%", 100*short/valid),
		fmt.Sprintf("all (feasible)           %6.1f%%", 100*both/valid),
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the tab lacks %q:\n%s", want, v)
		}
	}
	plain, _ := uitest.SampleTab(t, New)
	if strings.Contains(uitest.Plain(plain), "Constraints") {
		t.Error("without constraints the tab has a constraints section")
	}
}
