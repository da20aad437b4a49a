package live

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// from returns trajectories of source src with the values xs of x, in
// group g of batch 0.
func from(src, g string, xs ...float64) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, len(xs))
	for i, x := range xs {
		ts[i] = enginetest.Traj(0, g, "x", x)
		ts[i].Source = src
	}
	return ts
}

// TestUpdateReplacesSources: Leaving names the rows of the sources read
// again, and no row for a source that has none; Update forgets those
// rows, keeps the others in order and appends the new ones, as evaluating
// what is left from the start would; a source noted again after it was
// emptied is one Leaving names again.
func TestUpdateReplacesSources(t *testing.T) {
	s := enginetest.OneObjectiveScorer(t)
	a, b := from("a", "g", 1, 2, 3), from("b", "h", 4, 5)
	l := New(s, engine.Evaluate(s, slices.Concat(a, b)), slices.Concat(a, b))
	if l.Leaving([]string{"unknown"}) != nil || l.Leaving(nil) != nil {
		t.Error("a source with no rows leaves rows")
	}
	leaving := l.Leaving([]string{"a", "unknown"})
	for i := range 5 {
		if leaving(i) != (i < 3) {
			t.Errorf("row %d leaving: %v", i, leaving(i))
		}
	}
	newA := from("a", "g", 7, 8)
	same(t, "a replaced", l.Update([]string{"a"}, newA), engine.Evaluate(s, slices.Concat(b, newA)))
	more := from("b", "h", 6)
	same(t, "b appended", l.Update(nil, more), engine.Evaluate(s, slices.Concat(b, newA, more)))
	leaving = l.Leaving([]string{"b"})
	for i, want := range []bool{true, true, false, false, true} {
		if leaving(i) != want {
			t.Errorf("after the updates, row %d leaving: %v", i, leaving(i))
		}
	}
	same(t, "b emptied", l.Update([]string{"b"}, nil), engine.Evaluate(s, newA))
	if l.Leaving([]string{"b"}) != nil {
		t.Error("an emptied source still leaves rows")
	}
}

// same fails unless got holds want's trajectories, values and groups.
func same(t *testing.T, what string, got, want *engine.Evaluation) {
	t.Helper()
	if got.N() != want.N() || !enginetest.SameBits(got.Values, want.Values) || !slices.Equal(got.Valid, want.Valid) {
		t.Fatalf("%s: %d rows %v, want %d %v", what, got.N(), got.Values, want.N(), want.Values)
	}
	for i := range got.N() {
		if got.GroupOf(i) != want.GroupOf(i) {
			t.Fatalf("%s: row %d of group %q, want %q", what, i, got.GroupOf(i), want.GroupOf(i))
		}
	}
}
