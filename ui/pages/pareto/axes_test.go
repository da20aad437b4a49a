package pareto

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

// TestDefaultAxes: the two objectives with the most distinct values,
// counted up to manyDistinct, in declaration order; ties to the first
// declared; invalid trajectories and other batches' do not count.
func TestDefaultAxes(t *testing.T) {
	// eval builds an evaluation of len(cols[0]) trajectories, column k
	// holding objective k's values.
	eval := func(valid []bool, cols ...[]float64) *engine.Evaluation {
		n, m := len(cols[0]), len(cols)
		ev := &engine.Evaluation{M: m, Values: make([]float64, n*m), Valid: valid}
		for k, col := range cols {
			for i, v := range col {
				ev.Values[i*m+k] = v
			}
		}
		return ev
	}
	all := func(n int) []bool {
		v := make([]bool, n)
		for i := range v {
			v[i] = true
		}
		return v
	}
	members := []int{0, 1, 2, 3, 4}
	zeroOne := []float64{0, 1, 1, 0, 1}
	spread := []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	three := []float64{1, 2, 3, 1, 2}
	for _, tc := range []struct {
		name    string
		ev      *engine.Evaluation
		members []int
		x, y    int
	}{
		{"a 0/1 objective first yields", eval(all(5), zeroOne, spread, three), members, 1, 2},
		{"declaration order on the axes", eval(all(5), spread, zeroOne, three), members, 0, 2},
		{"ties to the first declared", eval(all(5), zeroOne, zeroOne, zeroOne), members, 0, 1},
		{"two objectives", eval(all(5), zeroOne, spread), members, 0, 1},
		// Only trajectories 0 to 2 are valid: there the second objective
		// has 1 value, the third 2 (all five: 3 and 2).
		{"invalid ones do not count", eval([]bool{true, true, true, false, false},
			[]float64{0, 1, 2, 3, 4}, []float64{0, 0, 0, 1, 2}, []float64{1, 2, 1, 1, 1}), members, 0, 2},
		{"other batches do not count", eval(all(5), spread, zeroOne, three), []int{0, 3}, 0, 1},
	} {
		x, y, ok := defaultAxes(tc.ev, tc.members)
		if !ok || x != tc.x || y != tc.y {
			t.Errorf("%s: axes %d, %d (%v), want %d, %d", tc.name, x, y, ok, tc.x, tc.y)
		}
	}
	// Many values tie: 10 and 12 distinct count alike.
	n := 12
	ten, twelve := make([]float64, n), make([]float64, n)
	for i := range n {
		ten[i], twelve[i] = float64(i%10), float64(i)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if x, y, _ := defaultAxes(eval(all(n), ten, make([]float64, n), twelve), idx); x != 0 || y != 2 {
		t.Errorf("10 and 12 distinct values: axes %d, %d, want 0, 2", x, y)
	}
	if _, _, ok := defaultAxes(eval([]bool{false, false}, []float64{1, 2}, []float64{3, 4}), []int{0, 1}); ok {
		t.Error("no valid trajectory, yet axes were chosen")
	}
}
