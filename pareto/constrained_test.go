package pareto

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// constrainedDominates is Deb's constrained domination, as stated.
func constrainedDominates(a, b []float64, fa, fb bool, va, vb float64) bool {
	switch {
	case fa && !fb:
		return true
	case !fa && fb:
		return false
	case !fa && !fb:
		return va < vb
	}
	return Dominates(a, b)
}

// bruteConstrainedRanks peels the points no remaining point dominates, in
// O(n^2) per front.
func bruteConstrainedRanks(points []float64, m int, feasible []bool, violation []float64) []int {
	n := len(points) / m
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = -1
	}
	for rank, left := 0, n; left > 0; rank++ {
		var front []int
		for i := range n {
			if ranks[i] >= 0 {
				continue
			}
			dominated := false
			for j := range n {
				if j != i && ranks[j] < 0 && constrainedDominates(points[j*m:(j+1)*m], points[i*m:(i+1)*m], feasible[j], feasible[i], violation[j], violation[i]) {
					dominated = true
					break
				}
			}
			if !dominated {
				front = append(front, i)
			}
		}
		for _, i := range front {
			ranks[i] = rank
		}
		left -= len(front)
	}
	return ranks
}

func TestConstrainedRanksAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	var r Ranker
	for trial := range 400 {
		m := 1 + trial%4
		n := 1 + rng.IntN(40)
		points := make([]float64, n*m)
		for j := range points {
			points[j] = float64(rng.IntN(4)) // ties
		}
		feasible := make([]bool, n)
		violation := make([]float64, n)
		allFeasible := trial%5 == 0
		for i := range n {
			feasible[i] = allFeasible || rng.IntN(3) > 0
			if !feasible[i] {
				violation[i] = float64(rng.IntN(3)) * 0.5 // 0 (a strict comparison at equality), ties
			}
		}
		want := bruteConstrainedRanks(points, m, feasible, violation)
		got := make([]int, n)
		fronts := r.ConstrainedRanks(got, points, m, feasible, violation)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: ranks %v, want %v (points %v, feasible %v, violation %v)", trial, got, want, points, feasible, violation)
		}
		if fronts != slices.Max(want)+1 {
			t.Fatalf("trial %d: %d fronts, want %d", trial, fronts, slices.Max(want)+1)
		}
		if allFeasible {
			plain := make([]int, n)
			r.Ranks(plain, points, m)
			if !slices.Equal(got, plain) {
				t.Fatalf("trial %d: all feasible, ranks %v differ from Pareto ranks %v", trial, got, plain)
			}
		}
	}
}

func TestConstrainedRanksHand(t *testing.T) {
	// Two objectives. Feasible: (1,1) and (2,0) on front 0, (0,0) on 1.
	// Infeasible: violation 0 (strict comparison at equality) -> 2,
	// violations 0.5 and 0.5 tie -> 3, violation 2 -> 4, whatever their
	// points (the one at (9,9) dominates every feasible point).
	points := []float64{1, 1, 2, 0, 0, 0, 9, 9, 0, 0, 5, 5, 3, 3}
	feasible := []bool{true, true, true, false, false, false, false}
	violation := []float64{0, 0, 0, 0.5, 0, 0.5, 2}
	got := make([]int, 7)
	var r Ranker
	fronts := r.ConstrainedRanks(got, points, 2, feasible, violation)
	if want := []int{0, 0, 1, 3, 2, 3, 4}; !slices.Equal(got, want) || fronts != 5 {
		t.Fatalf("ranks %v (%d fronts), want %v (5)", got, fronts, want)
	}
}
