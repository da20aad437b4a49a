package scoring

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkScoreRows sums 100k rows of three objectives in float64
// (Score) and in float32 (Score32), the reference and the TRL layout's.
func BenchmarkScoreRows(b *testing.B) {
	const n, m = 100_000, 3
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]float64, n*m)
	for i := range values {
		values[i] = float64(float32(rng.Float64()))
	}
	c := ScoreWeights{1, 0.5, -0.25}
	for _, f := range []struct {
		name  string
		score func([]float64) float64
	}{{"float64", c.Score}, {"float32", c.Score32}} {
		b.Run(f.name, func(b *testing.B) {
			sink := 0.0
			for b.Loop() {
				for i := range n {
					sink += f.score(values[i*m : (i+1)*m])
				}
			}
			if sink == 0 {
				b.Fatal("no score")
			}
		})
	}
}
