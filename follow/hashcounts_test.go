package follow

import (
	"math/rand/v2"
	"testing"
)

// TestHashCountsAgainstAMap adds and removes hashes drawn from a few, so
// that most repeat, across several growths, and checks every count
// against a map's (the hash 0 counted as 1, as the table keeps it).
func TestHashCountsAgainstAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, distinct := range []int{1, 3, 100, 5000} {
		var table hashCounts
		want := map[uint64]int32{}
		hashes := make([]uint64, distinct)
		for i := range hashes {
			hashes[i] = rng.Uint64()
		}
		hashes[0] = 0
		if distinct > 1 {
			hashes[1] = 1<<40 | 1 // the same low bits as 0, kept as 1: probed past it
		}
		for range 20000 {
			h := hashes[rng.IntN(distinct)]
			key := max(h, 1)
			if rng.IntN(4) == 0 {
				if want[key] > 0 {
					want[key]--
				}
				table.remove(h)
				continue
			}
			if got := table.add(h); got != want[key] {
				t.Fatalf("%d distinct: add(%#x) says %d before, want %d", distinct, h, got, want[key])
			}
			want[key]++
		}
		for _, h := range hashes {
			if got := table.add(h); got != want[max(h, 1)] {
				t.Errorf("%d distinct: %#x counted %d, want %d", distinct, h, got, want[max(h, 1)])
			}
			want[max(h, 1)]++
		}
	}
}
