package engine

import (
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCauseCounter counts causes in runs and interleaved as a map would.
func TestCauseCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	causes := []string{"a: missing", "b: NaN", "a: not a number", strings.Clone("a: missing")}
	for range 100 {
		var c causeCounter
		want := map[string]int{}
		for range rng.IntN(50) {
			k := causes[rng.IntN(len(causes))]
			for range 1 + rng.IntN(5) {
				c.add(k)
				want[k]++
			}
		}
		got := c.done()
		if len(want) == 0 && got != nil || len(want) > 0 && !maps.Equal(got, want) {
			t.Fatalf("counted %v, want %v", got, want)
		}
	}
}
