package pareto

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestParetoSaysTheDroppedApart: the rows the group filter dropped are
// not called invalid: the notes count the invalid and the dropped apart.
func TestParetoSaysTheDroppedApart(t *testing.T) {
	s := uitest.FilteredSession(t, uitest.DroppedRun)
	v := uitest.Plain(uitest.TabOn(s, New))
	for _, want := range []string{"1 invalid trajectory hidden", "2 dropped by the filter, hidden"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view does not say %q:\n%s", want, v)
		}
	}
}
