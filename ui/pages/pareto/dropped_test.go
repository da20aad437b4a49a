package pareto

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// droppedRun is a batch of two groups, one invalid trajectory in z; the
// group filter on a drops group x (a the same throughout), keeps z.
const droppedRun = `{"id":"x0","group":"x","batch":0,"metadata":{"a":1,"b":1}}
{"id":"x1","group":"x","batch":0,"metadata":{"a":1,"b":2}}
{"id":"z0","group":"z","batch":0,"metadata":{"a":0,"b":1}}
{"id":"z1","group":"z","batch":0,"metadata":{"a":1,"b":4}}
{"id":"z2","group":"z","batch":0,"metadata":{"a":2}}
`

// TestParetoSaysTheDroppedApart: the rows the group filter dropped are
// not called invalid: the notes count the invalid and the dropped apart.
func TestParetoSaysTheDroppedApart(t *testing.T) {
	s := uitest.TextSession(t, droppedRun)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	v := uitest.Plain(uitest.TabOn(s, New))
	for _, want := range []string{"1 invalid trajectory hidden", "2 dropped by the filter, hidden"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view does not say %q:\n%s", want, v)
		}
	}
}
