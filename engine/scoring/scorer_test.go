package scoring

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestScoreWeights checks the scores computed row after row against Score
// and against the formula computed by hand: bit for bit, with objectives
// to maximise and to minimise, weights of either sign, values of any
// magnitude.
func TestScoreWeights(t *testing.T) {
	objs := []Objective{{Name: "acc", Goal: Maximize, Weight: 0.5}, {Name: "len", Goal: Minimize, Weight: 0.25}}
	if got, want := NewScoreWeights(objs).Score([]float64{0.8, 120}), 0.5*0.8-0.25*120; got != want {
		t.Fatalf("score = %v, want 0.5*0.8 - 0.25*120 = %v", got, want)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for range 1000 {
		m := 1 + rng.IntN(5)
		objs := make([]Objective, m)
		values := make([]float64, m)
		for k := range objs {
			objs[k] = Objective{Goal: Maximize, Weight: rng.NormFloat64()}
			if rng.IntN(2) == 0 {
				objs[k].Goal = Minimize
			}
			values[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		}
		got, want := NewScoreWeights(objs).Score(values), Score(objs, nil, values)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%+v %v: score = %v, Score = %v", objs, values, got, want)
		}
	}
}
