package pareto

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// uniformPoints draws every value uniformly from [0, 1).
func uniformPoints(n, m int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(m)))
	points := make([]float64, n*m)
	for i := range points {
		points[i] = rng.Float64()
	}
	return points
}

// fewFrontPoints draws points close to the simplex sum(x) = 1: the objectives
// are anti-correlated (a gain on one is paid on the others), so most points
// sit on a handful of fronts, the hard case for front-by-front algorithms.
func fewFrontPoints(n, m int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n)+1, uint64(m)))
	points := make([]float64, n*m)
	for i := range n {
		p := points[i*m : (i+1)*m]
		s := 0.0
		for k := range p {
			p[k] = rng.ExpFloat64()
			s += p[k]
		}
		for k := range p {
			p[k] = p[k]/s + rng.Float64()*1e-3
		}
	}
	return points
}

// dupPoints draws n/8 distinct points with values on a coarse grid and
// copies each 8 times in random positions: many exact duplicates, and many
// ties between the distinct points.
func dupPoints(n, m int) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n)+2, uint64(m)))
	distinct := max(n/8, 1)
	base := make([]float64, distinct*m)
	for i := range base {
		base[i] = float64(rng.IntN(1000)) / 1000
	}
	points := make([]float64, n*m)
	for i := range n {
		src := i % distinct
		copy(points[i*m:(i+1)*m], base[src*m:(src+1)*m])
	}
	rng.Shuffle(n, func(i, j int) {
		for k := range m {
			points[i*m+k], points[j*m+k] = points[j*m+k], points[i*m+k]
		}
	})
	return points
}

var benchData = []struct {
	name string
	gen  func(n, m int) []float64
}{
	{"uniform", uniformPoints},
	{"fewfronts", fewFrontPoints},
	{"dups", dupPoints},
}

// benchmarkRanks measures Ranks with a reused Ranker, on each kind of data.
// Ranks uses up to GOMAXPROCS goroutines: -cpu 1 measures one core.
func benchmarkRanks(b *testing.B, n, m int) {
	for _, d := range benchData {
		b.Run(d.name, func(b *testing.B) {
			points := d.gen(n, m)
			dst := make([]int, n)
			var r Ranker
			r.Ranks(dst, points, m) // grow the scratch space
			b.ReportAllocs()
			fronts := 0
			for b.Loop() {
				fronts = r.Ranks(dst, points, m)
			}
			b.ReportMetric(float64(fronts), "fronts")
		})
	}
}

func BenchmarkRank2D1M(b *testing.B)   { benchmarkRanks(b, 1e6, 2) }
func BenchmarkRank3D100k(b *testing.B) { benchmarkRanks(b, 1e5, 3) }
func BenchmarkRank3D1M(b *testing.B)   { benchmarkRanks(b, 1e6, 3) }
func BenchmarkRank5D100k(b *testing.B) { benchmarkRanks(b, 1e5, 5) }

// BenchmarkRankGroups1M3D is the many-small-groups workload Ranker is for:
// 1M points with 3 objectives in 125k groups of 8, ranked and crowded with
// one reused Ranker.
func BenchmarkRankGroups1M3D(b *testing.B) {
	const groups, size, m = 125000, 8, 3
	for _, d := range benchData {
		b.Run(d.name, func(b *testing.B) {
			points := d.gen(groups*size, m)
			ranks := make([]int, size)
			dist := make([]float64, size)
			var r Ranker
			b.ReportAllocs()
			for b.Loop() {
				for g := range groups {
					pts := points[g*size*m : (g+1)*size*m]
					r.Ranks(ranks, pts, m)
					r.Crowding(dist, pts, m, ranks)
				}
			}
		})
	}
}

func BenchmarkCrowding100k3D(b *testing.B) {
	const n, m = 100000, 3
	for _, d := range benchData {
		b.Run(d.name, func(b *testing.B) {
			points := d.gen(n, m)
			ranks := make([]int, n)
			Ranks(ranks, points, m)
			dst := make([]float64, n)
			var r Ranker
			r.Crowding(dst, points, m, ranks)
			b.ReportAllocs()
			for b.Loop() {
				r.Crowding(dst, points, m, ranks)
			}
		})
	}
}

// BenchmarkCrossover compares ENS-BS with the divide and conquer (on one
// goroutine) at the sizes where Ranks switches from one to the other
// (jfbMinN).
func BenchmarkCrossover(b *testing.B) {
	cfg := defaultJFB
	cfg.workers = 1
	for _, m := range []int{3, 5} {
		for _, n := range []int{64, 128, 256, 512, 1024} {
			for _, d := range benchData {
				points := d.gen(n, m)
				dst := make([]int, n)
				var r Ranker
				b.Run(fmt.Sprintf("m=%d/n=%d/%s/ens", m, n, d.name), func(b *testing.B) {
					for b.Loop() {
						r.rankGeneral(dst, points, m)
					}
				})
				b.Run(fmt.Sprintf("m=%d/n=%d/%s/jfb", m, n, d.name), func(b *testing.B) {
					for b.Loop() {
						r.rankJFB(dst, points, m, cfg)
					}
				})
			}
		}
	}
}

// BenchmarkHypervolume measures the hypervolume of large frontiers: points
// near the simplex, most of them non-dominated.
func BenchmarkHypervolume(b *testing.B) {
	p2 := fewFrontPoints(1e6, 2)
	b.Run("2D/n=1000000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Hypervolume2D(p2, [2]float64{0, 0})
		}
	})
	p3 := fewFrontPoints(1e5, 3)
	b.Run("3D/n=100000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Hypervolume3D(p3, [3]float64{0, 0, 0})
		}
	})
}
