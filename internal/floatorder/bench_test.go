package floatorder

import (
	"github.com/rewardlens/rewardlens/internal/testkit"

	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// normal1M returns a million normal values, the same each call.
func normal1M() []float64 {
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 1_000_000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// BenchmarkSort1M sorts a million positions by a normal value.
func BenchmarkSort1M(b *testing.B) {
	x := normal1M()
	order := make([]int, len(x))
	for b.Loop() {
		for i := range order {
			order[i] = i
		}
		Sort(order, 1, func(_, i int) uint64 { return Key(x[i]) })
	}
}

// BenchmarkCompareSort1M is the same sort by comparison, for the ratio.
func BenchmarkCompareSort1M(b *testing.B) {
	x := normal1M()
	order := make([]int, len(x))
	for b.Loop() {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(x[a], x[c]) })
	}
}

// BenchmarkRanks1M sorts and ranks a million normal values.
func BenchmarkRanks1M(b *testing.B) { benchmarkRanks(b, normal1M()) }

// weighted1M and grpo1M return a million weighted sums 0.3*u1 + 0.7*u2
// of two uniform objectives, the dashboard's reward of two objectives,
// and their GRPO rewards (testkit.GRPOShaped), the same each call.
func weighted1M() []float64 {
	a, _ := testkit.GRPOShaped(1_000_000, rand.New(rand.NewPCG(9, 10)))
	return a
}

func grpo1M() []float64 {
	_, b := testkit.GRPOShaped(1_000_000, rand.New(rand.NewPCG(9, 10)))
	return b
}

// benchmarkRanks sorts and ranks x at each iteration.
func benchmarkRanks(b *testing.B, x []float64) {
	order, codes, avg := make([]int32, len(x)), make([]uint32, len(x)), make([]float64, len(x))
	var buf RankBuffers
	for b.Loop() {
		Ranks(x, order, codes, avg, &buf)
	}
}

// BenchmarkRanksWeighted1M ranks a million weighted sums of two uniform
// objectives.
func BenchmarkRanksWeighted1M(b *testing.B) { benchmarkRanks(b, weighted1M()) }

// BenchmarkRanksGRPO1M ranks a million group-normalised weighted sums.
func BenchmarkRanksGRPO1M(b *testing.B) { benchmarkRanks(b, grpo1M()) }

// BenchmarkRanksFew1M ranks a million values of 26 levels, as the
// relative method's rewards (counted, not sorted: ranksFew).
func BenchmarkRanksFew1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	x := make([]float64, 1_000_000)
	for i := range x {
		x[i] = float64(rng.IntN(26)) / 25
	}
	benchmarkRanks(b, x)
}
