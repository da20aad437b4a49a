package pareto

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func uniformPoints(n, m int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(m)))
	points := make([]float64, n*m)
	for i := range points {
		points[i] = rng.Float64()
	}
	return points
}

func benchmarkRanks(b *testing.B, n, m int) {
	points := uniformPoints(n, m)
	dst := make([]int, n)
	var r Ranker
	b.ReportAllocs()
	b.ResetTimer()
	fronts := 0
	for b.Loop() {
		fronts = r.Ranks(dst, points, m)
	}
	b.ReportMetric(float64(fronts), "fronts")
}

func BenchmarkRanks2D(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkRanks(b, n, 2) })
	}
}

func BenchmarkRanks3D(b *testing.B) {
	b.Run("n=100000", func(b *testing.B) { benchmarkRanks(b, 1e5, 3) })
}

func BenchmarkCrowding(b *testing.B) {
	const n, m = 100000, 3
	points := uniformPoints(n, m)
	ranks := make([]int, n)
	Ranks(ranks, points, m)
	dst := make([]float64, n)
	var r Ranker
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Crowding(dst, points, m, ranks)
	}
}

// BenchmarkSmallGroups is the many-small-groups workload Ranker is for:
// 1000 groups of 8 points with 3 objectives, ranked and crowded.
func BenchmarkSmallGroups(b *testing.B) {
	const groups, size, m = 1000, 8, 3
	points := uniformPoints(groups*size, m)
	ranks := make([]int, size)
	dist := make([]float64, size)
	var r Ranker
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for g := range groups {
			pts := points[g*size*m : (g+1)*size*m]
			r.Ranks(ranks, pts, m)
			r.Crowding(dist, pts, m, ranks)
		}
	}
}
