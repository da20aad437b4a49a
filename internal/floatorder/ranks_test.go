package floatorder

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// Ranks' order is a stable comparison sort's by cmp.Compare, its codes
// count the distinct values below, its average ranks and tied pairs are
// those of the runs of equal keys, on values with ties, NaNs, infinities
// and both zeros, values equal in their upper 32 bits (runs sorted by the
// lower bits), few values (counted; each half's own but for one, each
// half counted apart) and more than a sample shows, below
// and above parallelMin; SortByCode's order is a
// stable comparison sort's by code, from a shuffled order, on few codes
// (one pass) and many (two).
func TestRanksAndSortByCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pool := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1.5, 2.25, 1e-300, -1e300, 3}
	var buf RankBuffers
	for _, n := range []int{0, 1, 2, 9, 1000, 3 * parallelMin} {
		for _, shape := range []string{"three", "five close", "pool", "normal", "close", "three and normal", "few by half"} {
			x := make([]float64, n)
			for i := range x {
				switch shape {
				case "three":
					x[i] = float64(rng.IntN(3))
				case "five close": // equal in their upper 32 bits
					x[i] = 1 + float64(rng.IntN(5))*0x1p-40
				case "pool":
					x[i] = pool[rng.IntN(len(pool))]
				case "normal":
					x[i] = rng.NormFloat64()
				case "few by half": // keys of each half apart but for one
					x[i] = float64(rng.IntN(3) + 2*(2*i/n))
				case "close": // many, equal in their upper 32 bits
					x[i] = 1 + float64(rng.IntN(n+1))*0x1p-40
				default: // few in a sample, more than fewMax in all
					x[i] = float64(rng.IntN(3))
					if i%41 == 0 {
						x[i] = rng.NormFloat64()
					}
				}
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(x[a], x[b]) })
			order, codes, avg := make([]int32, n), make([]uint32, n), make([]float64, n)
			distinct, tied := Ranks(x, order, codes, avg, &buf)
			if !slices.Equal(order, want) {
				t.Fatalf("n=%d: Ranks' order %v, stable comparison sort %v", n, order, want)
			}
			keys := make([]uint64, n)
			for i, v := range x {
				keys[i] = Key(v)
			}
			slices.Sort(keys)
			keys = slices.Compact(keys)
			if distinct != len(keys) {
				t.Fatalf("n=%d: %d distinct, want %d", n, distinct, len(keys))
			}
			for i, v := range x {
				if below, _ := slices.BinarySearch(keys, Key(v)); codes[i] != uint32(below) {
					t.Fatalf("n=%d: code of %v is %d, want %d", n, v, codes[i], below)
				}
			}
			// Ties by key: the places lo..hi-1 (0-based) of a run share
			// rank (lo + hi + 1) / 2, and count t(t-1)/2 pairs.
			var wantTied int64
			for lo := 0; lo < n; {
				hi := lo + 1
				for hi < n && Key(x[want[hi]]) == Key(x[want[lo]]) {
					hi++
				}
				if c := codes[want[lo]]; avg[c] != float64(lo+hi+1)/2 {
					t.Fatalf("n=%d: average rank of %v (code %d) is %v, want %v", n, x[want[lo]], c, avg[c], float64(lo+hi+1)/2)
				}
				wantTied += int64(hi-lo) * int64(hi-lo-1) / 2
				lo = hi
			}
			if tied != wantTied {
				t.Fatalf("n=%d: %d tied pairs, want %d", n, tied, wantTied)
			}

			src := slices.Clone(order)
			rng.Shuffle(n, func(i, j int) { src[i], src[j] = src[j], src[i] })
			wantByCode := slices.Clone(src)
			slices.SortStableFunc(wantByCode, func(a, b int32) int { return cmp.Compare(codes[a], codes[b]) })
			got := make([]int32, n)
			SortByCode(got, src, codes, distinct, &buf)
			if !slices.Equal(got, wantByCode) {
				t.Fatalf("n=%d, %d codes: SortByCode %v, stable comparison sort %v", n, distinct, got, wantByCode)
			}
		}
	}
}

// Ranks matches a reference, a stable sort by Key (ties by position) and
// the runs of equal keys read off it, on random values with ties, NaNs,
// infinities and both zeros, at sizes around its thresholds (ranksFew's,
// a bucket's, parallelMin, a bucket sorted on two goroutines and split
// between them), and on values that fill one bucket (all distinct within
// a few ulps, or a cluster with a few far outliers, which leaves most
// buckets empty, and near ones, which leave a long run in its bucket),
// that share their upper bits in long runs, or that fill a few bins
// unevenly (normal values, sorted or reversed).
func TestRanksMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	special := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.SmallestNonzeroFloat64}
	var buf RankBuffers
	for _, n := range []int{1, 2, 17, bucketSize - 1, bucketSize + 1, 5000, parallelMin - 1, parallelMin, parallelMin + 1, 2*parallelMin + 3} {
		for _, shape := range []string{"mixed", "ulps", "cluster", "low cluster", "upper runs", "normal", "sorted", "reversed", "grpo"} {
			x := make([]float64, n)
			for i := range x {
				switch shape {
				case "mixed": // specials, repeats and normal values
					switch r := rng.IntN(10); {
					case r == 0:
						x[i] = special[rng.IntN(len(special))]
					case r < 3 && i > 0:
						x[i] = x[rng.IntN(i)]
					default:
						x[i] = rng.NormFloat64()
					}
				case "ulps": // distinct, equal but for their last bits
					x[i] = 1 + float64(rng.IntN(4*n))*0x1p-52
				case "cluster": // one bin, a few far outliers and near ones
					x[i] = 1 + rng.Float64()*0x1p-30
					switch rng.IntN(1000) {
					case 0:
						x[i] = special[rng.IntN(len(special))] * 1e300
					case 1:
						x[i] = 1.03
					}
				case "low cluster": // one bin, a few far outliers below it, none above:
					// the cluster's bin, larger than bucketSize, is the last
					// non-empty one, and an empty bucket follows it
					x[i] = 1 + rng.Float64()*0x1p-30
					switch rng.IntN(1000) {
					case 0:
						x[i] = -1e300 * (1 + rng.Float64())
					case 1:
						x[i] = math.Inf(-1)
					}
				case "upper runs": // long runs equal in their upper bits
					x[i] = 1 + float64(rng.IntN(20000))*0x1p-50
				case "normal", "sorted", "reversed":
					x[i] = rng.NormFloat64()
				default: // normalised in groups of 8
					x[i] = 0.3*rng.Float64() + 0.7*rng.Float64()
				}
			}
			switch shape {
			case "sorted":
				slices.Sort(x)
			case "reversed":
				slices.Sort(x)
				slices.Reverse(x)
			case "grpo":
				for lo := 0; lo+8 <= n; lo += 8 {
					g := x[lo : lo+8]
					mean := (g[0] + g[1] + g[2] + g[3] + g[4] + g[5] + g[6] + g[7]) / 8
					for j := range g {
						g[j] -= mean
					}
				}
			}
			checkRanksReference(t, fmt.Sprintf("n=%d %s", n, shape), x, &buf)
		}
	}
}

// checkRanksReference fails t unless Ranks on x gives the reference's
// order, codes, average ranks, distinct keys and tied pairs.
func checkRanksReference(t *testing.T, name string, x []float64, buf *RankBuffers) {
	t.Helper()
	n := len(x)
	want := make([]int32, n)
	for i := range want {
		want[i] = int32(i)
	}
	sort.SliceStable(want, func(i, j int) bool { return Key(x[want[i]]) < Key(x[want[j]]) })
	wantCodes, wantAvg := make([]uint32, n), []float64{}
	var wantTied int64
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && Key(x[want[hi]]) == Key(x[want[lo]]) {
			hi++
		}
		for _, at := range want[lo:hi] {
			wantCodes[at] = uint32(len(wantAvg))
		}
		wantAvg = append(wantAvg, float64(lo+hi+1)/2)
		wantTied += int64(hi-lo) * int64(hi-lo-1) / 2
		lo = hi
	}
	order, codes, avg := make([]int32, n), make([]uint32, n), make([]float64, n)
	distinct, tied := Ranks(x, order, codes, avg, buf)
	switch {
	case !slices.Equal(order, want):
		t.Fatalf("%s: order differs from the reference's at %d", name, firstDifference(order, want))
	case !slices.Equal(codes, wantCodes):
		t.Fatalf("%s: codes differ from the reference's at %d", name, firstDifference(codes, wantCodes))
	case distinct != len(wantAvg):
		t.Fatalf("%s: %d distinct, want %d", name, distinct, len(wantAvg))
	case !slices.Equal(avg[:distinct], wantAvg):
		t.Fatalf("%s: average ranks differ from the reference's at code %d", name, firstDifference(avg[:distinct], wantAvg))
	case tied != wantTied:
		t.Fatalf("%s: %d tied pairs, want %d", name, tied, wantTied)
	}
}

// firstDifference returns the first index where a and b differ.
func firstDifference[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
