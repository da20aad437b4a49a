package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKendallTauB(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// One discordant pair, (2,3) against (3,2), of six: (5 - 1) / 6.
		{"one swap", []float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 4.0 / 6},
		{"reversed", []float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		// Pair (1,2) is tied in x, (2,3) in y, the other four are
		// concordant: 4 / sqrt((6 - 1) (6 - 1)) = 0.8.
		{"ties in x and in y", []float64{1, 2, 2, 3}, []float64{1, 2, 3, 3}, 0.8},
		// (0,1) tied in x, (1,2) tied in y, (0,2) discordant, (0,3) (1,3)
		// (2,3) concordant: (3 - 1) / sqrt((6 - 1) (6 - 1)) = 0.4.
		{"one discordant among ties", []float64{1, 1, 2, 3}, []float64{2, 1, 1, 3}, 0.4},
		// (0,1) tied in both, (0,2) and (1,2) discordant:
		// -2 / sqrt((3 - 1) (3 - 1)) = -1.
		{"tied in both", []float64{1, 1, 2}, []float64{1, 1, 0}, -1},
		{"constant y", []float64{1, 2, 3}, []float64{5, 5, 5}, math.NaN()},
		{"one value", []float64{1}, []float64{1}, math.NaN()},
		{"empty", nil, nil, math.NaN()},
	}
	for _, tt := range tests {
		if got := KendallTauB(tt.x, tt.y); !near(got, tt.want) {
			t.Errorf("%s: KendallTauB = %.15g, want %.15g", tt.name, got, tt.want)
		}
	}
}

// bruteKendallTauB is tau-b's definition, pair by pair.
func bruteKendallTauB(x, y []float64) float64 {
	var c, d, tx, ty, pairs float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			pairs++
			sx, sy := x[i]-x[j], y[i]-y[j]
			switch {
			case sx == 0 && sy == 0:
				tx++
				ty++
			case sx == 0:
				tx++
			case sy == 0:
				ty++
			case (sx > 0) == (sy > 0):
				c++
			default:
				d++
			}
		}
	}
	return (c - d) / math.Sqrt((pairs-tx)*(pairs-ty))
}

func TestKendallTauBAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 2 + rng.IntN(40)
		if trial%10 == 0 { // several levels of countInversions' merges
			n = 2 + rng.IntN(300)
		}
		// Few distinct values, so that ties of every kind are common.
		levels := 1 + rng.IntN(6)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(rng.IntN(levels)), float64(rng.IntN(levels))
		}
		if got, want := KendallTauB(x, y), bruteKendallTauB(x, y); !near(got, want) {
			t.Fatalf("trial %d: x=%v y=%v: got %.15g, want %.15g", trial, x, y, got, want)
		}
	}
}

func TestSpearman(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// The values are their own ranks: Pearson's 0.8.
		{"one swap", []float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 0.8},
		{"monotone, not linear", []float64{1, 2, 3}, []float64{1, 10, 100}, 1},
		// Ranks 1, 2.5, 2.5, 4 and 1, 2, 3.5, 3.5: deviations from 2.5 are
		// -1.5, 0, 0, 1.5 and -1.5, -0.5, 1, 1; 3.75 / sqrt(4.5 * 4.5) = 5/6.
		{"ties", []float64{1, 2, 2, 3}, []float64{1, 2, 3, 3}, 5.0 / 6},
		{"constant", []float64{1, 2, 3}, []float64{0, 0, 0}, math.NaN()},
		{"one value", []float64{1}, []float64{2}, math.NaN()},
	}
	for _, tt := range tests {
		if got := Spearman(tt.x, tt.y); !near(got, tt.want) {
			t.Errorf("%s: Spearman = %.15g, want %.15g", tt.name, got, tt.want)
		}
	}
}

func TestSignDisagreements(t *testing.T) {
	a := []float64{1, 1, -1, -1, 0, 2, 0}
	b := []float64{-1, 1, 1, -1, 1, 0, 0}
	// Index 0 is +/-, index 2 is -/+; zeros count as neither sign.
	if posNeg, negPos := SignDisagreements(a, b); posNeg != 1 || negPos != 1 {
		t.Errorf("SignDisagreements = %d, %d, want 1, 1", posNeg, negPos)
	}
}

func TestTopOverlap(t *testing.T) {
	a := []float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
	b := []float64{9, 0, 7, 6, 5, 4, 3, 2, 1, 8}
	tests := []struct {
		name string
		a, b []float64
		frac float64
		want float64
	}{
		// Top 3 of a: 0, 1, 2; of b: 0, 9, 2.
		{"top 30%", a, b, 0.3, 2.0 / 3},
		// ceil(0.25 * 10) = 3 as well.
		{"rounded up", a, b, 0.25, 2.0 / 3},
		{"top 10%", a, b, 0.1, 1},
		{"everything", a, b, 1, 1},
		// All tied: the first k positions win in both.
		{"ties by position", []float64{1, 1, 1, 1}, []float64{2, 2, 2, 2}, 0.5, 1},
		// 0.1 * 30 is 3.0000000000000004 in floating point: k stays 3.
		{"no spurious round up", make([]float64, 30), make([]float64, 30), 0.1, 1},
		{"empty", nil, nil, 0.1, math.NaN()},
		{"nothing", a, b, 0, math.NaN()},
	}
	for _, tt := range tests {
		if got := TopOverlap(tt.a, tt.b, tt.frac); !near(got, tt.want) {
			t.Errorf("%s: TopOverlap = %v, want %v", tt.name, got, tt.want)
		}
	}
	// k = 3 of 30: the top 3 by a (27, 28, 29) against positions 0, 1, 2.
	up, down := make([]float64, 30), make([]float64, 30)
	for i := range up {
		up[i], down[i] = float64(i), float64(-i)
	}
	if got := TopOverlap(up, down, 0.1); got != 0 {
		t.Errorf("disjoint tops: TopOverlap = %v, want 0", got)
	}
}

func BenchmarkKendallTauB100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 100_000), make([]float64, 100_000)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), float64(rng.IntN(100))
	}
	for b.Loop() {
		KendallTauB(x, y)
	}
}

// TestCountInversions: the merge sort counts the pairs out of order, as a
// double loop does, and sorts.
func TestCountInversions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 15, 16, 17, 33, 100, 257} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(7))
		}
		var want int64
		for i := range v {
			for j := i + 1; j < n; j++ {
				if v[i] > v[j] {
					want++
				}
			}
		}
		if got := countInversions(v, make([]float64, n)); got != want || !slices.IsSorted(v) {
			t.Errorf("n=%d: %d inversions (want %d), sorted %v", n, got, want, slices.IsSorted(v))
		}
	}
}
