package live

import (
	"math/rand/v2"
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

// TestDroppedByCounts: which sources replaced have rows is answered from
// each source's count of rows, not by a pass over the rows per name (the
// rows hidden here); the counts follow updates that replace, refill,
// empty and append, as a pass over the rows would find them.
func TestDroppedByCounts(t *testing.T) {
	s := enginetest.OneObjectiveScorer(t)
	a, b := from("a", "g", 1, 2, 3), from("b", "h", 4, 5)
	l := New(s, engine.Evaluate(s, slices.Concat(a, b)), slices.Concat(a, b))
	rows := l.sourceOf
	l.sourceOf = nil
	if drop := l.dropped([]string{"b"}); len(drop) != 1 {
		t.Errorf("with the rows hidden, the sources replaced that have rows: %v, want b's", drop)
	}
	l.sourceOf = rows
	names := []string{"a", "b", "c"}
	rng := rand.New(rand.NewPCG(5, 6))
	for step := range 200 {
		var replaced []string
		for _, n := range names {
			if rng.IntN(4) == 0 {
				replaced = append(replaced, n, n) // a name may come twice
			}
		}
		var ts []scoring.Trajectory
		for range rng.IntN(4) {
			ts = append(ts, from(names[rng.IntN(len(names))], "g", float64(step))...)
		}
		l.Update(replaced, ts)
		for _, n := range names {
			k, ok := l.sources[n]
			has := ok && slices.Contains(l.sourceOf, k)
			if drop := l.dropped([]string{n}); (drop != nil) != has {
				t.Fatalf("step %d: source %s has rows %v, dropped says %v", step, n, has, drop)
			}
		}
	}
}
