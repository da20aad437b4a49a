package pareto_test

import (
	"fmt"

	"github.com/rewardlens/rewardlens/pareto"
)

func ExampleDominates() {
	fmt.Println(pareto.Dominates([]float64{2, 1}, []float64{1, 1}))
	fmt.Println(pareto.Dominates([]float64{2, 0}, []float64{1, 1}))
	fmt.Println(pareto.Dominates([]float64{1, 1}, []float64{1, 1}))
	// Output:
	// true
	// false
	// false
}

func ExampleRanks() {
	// Two objectives (say accuracy and brevity), larger is better.
	points := []float64{
		3, 1,
		1, 3,
		2, 2,
		2, 1, // dominated by (2,2) and (3,1)
		1, 1, // dominated by (2,1) too
		2, 2, // a copy shares its twin's rank
	}
	ranks := make([]int, len(points)/2)
	fronts := pareto.Ranks(ranks, points, 2)
	fmt.Println(fronts, ranks)
	fmt.Println(pareto.Frontier(points, 2))
	// Output:
	// 3 [0 0 0 1 2 0]
	// [0 1 2 5]
}

func ExampleCrowding() {
	// A single front of five points. Along x (range 10) the interior points
	// get (3-0)/10, (6-1)/10 and (10-3)/10; along y (range 10) each gets
	// 5/10; the sums are halved. The two extremes are +Inf.
	points := []float64{
		0, 10,
		1, 7,
		3, 5,
		6, 2,
		10, 0,
	}
	ranks := make([]int, 5)
	pareto.Ranks(ranks, points, 2)
	dist := make([]float64, 5)
	pareto.Crowding(dist, points, 2, ranks)
	fmt.Printf("%.2f\n", dist)
	// Output:
	// [+Inf 0.40 0.50 0.60 +Inf]
}

func ExampleRanker() {
	// A Ranker reuses its scratch space, so ranking many groups does not
	// allocate once its buffers have grown.
	groups := [][]float64{
		{1, 0, 0, 1, 0.5, 0.5, 0, 0},
		{5, 5, 4, 6, 5, 5},
	}
	var r pareto.Ranker
	ranks := make([]int, 4)
	for _, g := range groups {
		n := len(g) / 2
		fronts := r.Ranks(ranks[:n], g, 2)
		fmt.Println(fronts, ranks[:n])
	}
	// Output:
	// 2 [0 0 0 1]
	// 1 [0 0 0]
}
