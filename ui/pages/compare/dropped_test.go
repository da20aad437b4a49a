package compare

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestCompareSaysTheDroppedApart: the rows the group filter dropped are
// not called invalid: the panel counts the invalid and the dropped apart.
func TestCompareSaysTheDroppedApart(t *testing.T) {
	s := uitest.FilteredSession(t, uitest.DroppedRun)
	v := uitest.Plain(uitest.TabOn(s, New))
	for _, want := range []string{"1 invalid trajectory left out", "2 dropped by the filter, left out"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view does not say %q:\n%s", want, v)
		}
	}
}

// TestCompareSaysTheRowsNotLoggedApart: compared with the logged
// advantages, a valid row the trainer logged none for is left out, said
// so, not called invalid.
func TestCompareSaysTheRowsNotLoggedApart(t *testing.T) {
	const run = `{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"adv":-1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":1,"adv":1}}
{"id":"z2","group":"z","batch":0,"metadata":{"a":2}}
{"id":"z3","group":"z","batch":0,"metadata":{}}
`
	s := uitest.TextSessionWith(t, run, setup.Config{Method: "grpo", LoggedAdvantage: "adv", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}}})
	s.CompareMethod = session.LoggedMethod
	v := uitest.Plain(uitest.TabOn(s, New))
	for _, want := range []string{"1 invalid trajectory left out", "1 with no logged advantage left out"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view does not say %q:\n%s", want, v)
		}
	}
}
