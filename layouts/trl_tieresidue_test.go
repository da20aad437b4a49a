package layouts

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

// TestTRLTieResidueOnlyOfWholeGroups: a group whose sums tie in float32
// and that logged one small value takes it as the tie's residue, in the
// advantages and out of the weights' fit, only when it has the table's
// usual size: part of a group (TRL's deque cut it) may have logged a
// real advantage.
func TestTRLTieResidueOnlyOfWholeGroups(t *testing.T) {
	const residue = 0.001
	for _, k := range []struct {
		what    string
		tieRows int
		taken   bool
	}{
		{"whole", 4, true},
		{"cut short", 3, false},
	} {
		b := newTRLTableBuilder(1)
		for g := range 3 {
			for j := range 4 {
				x := float64(j % 2)
				b.add(1, strconv.Itoa(g), []float64{x}, (x-0.5)/(math.Sqrt(1.0/3)+1e-4))
			}
		}
		var tie []int
		for range k.tieRows {
			tie = append(tie, len(b.advantage))
			b.add(1, "tie", []float64{1.2}, residue)
		}
		table := &b.trlTable
		a := table.advantages(1, trlVariant{scale: "group"}, nil)
		want := 0.0
		if k.taken {
			want = residue
		}
		for _, i := range tie {
			if a[i] != want {
				t.Errorf("%s: row %d's advantage %v, want %v", k.what, i, a[i], want)
			}
		}
		all := make([]int, len(table.advantage))
		for i := range all {
			all[i] = i
		}
		var leftOut []int
		if k.taken {
			leftOut = tie
		}
		if _, equal := table.equalLogged(all); !slices.Equal(equal, leftOut) {
			t.Errorf("%s: the fit leaves out rows %v, the tie's %v", k.what, equal, tie)
		}
	}
}
