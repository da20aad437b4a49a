package agreement

import (
	"math"
	"math/rand/v2"
	"testing"
)

// float32Baseline is the leave-one-out advantage RLOOTrainer gives each
// of n equal float32 sums x, its sum reduced by sum: x - fl(fl(S - x) /
// (n - 1)).
func float32Baseline(x float32, n int, sum func([]float32) float32) float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = x
	}
	return x - (sum(xs)-x)/float32(n-1)
}

// TestBatchTieBoundsHold: BatchTie.Bound's two bounds hold for the
// residue computed in float32 with each of three summation orders: a
// reward of n equal values normalised within its group (as grpo's) then
// times a weight rounded to float32, within TieResidueBound(n + 2, w x,
// eps); RLOOTrainer's leave-one-out advantage of n equal sums, within
// TieResidueBound(n, x, 1). Both are tight to a factor of 8 from 7 rows
// on, some order's residue reaching an eighth of them.
func TestBatchTieBoundsHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	orders := map[string]func([]float32) float32{"sequential": sequential, "pairwise": pairwise, "vectorised": vectorised}
	for _, n := range []int{2, 3, 6, 7, 12, 33} {
		worstNormalised, worstBaseline := 0.0, 0.0
		for range 2000 {
			x := float32(rng.Float64()*4 - 2)
			w := rng.Float64()*3 - 1
			for name, sum := range orders {
				g := float64(float32(w) * float32Advantage(x, n, 1e-4, sum))
				bound := TieResidueBound(n+2, w*float64(x), 1e-4)
				if math.Abs(g) > bound {
					t.Fatalf("n %d, x %v, w %v, %s: weighted normalised residue %v above the bound %v", n, x, w, name, g, bound)
				}
				worstNormalised = max(worstNormalised, math.Abs(g)/bound)
				a := math.Abs(float64(float32Baseline(x, n, sum)))
				bound = TieResidueBound(n, float64(x), 1)
				if a > bound {
					t.Fatalf("n %d, x %v, %s: leave-one-out residue %v above the bound %v", n, x, name, a, bound)
				}
				worstBaseline = max(worstBaseline, a/bound)
			}
		}
		if n >= 7 && (worstNormalised < 1.0/8 || worstBaseline < 1.0/8) {
			t.Errorf("n %d: the largest residues are %.3g and %.3g of their bounds, below an eighth", n, worstNormalised, worstBaseline)
		}
	}
}

// TestBatchResidue: TRL's normalize_then_sum of testdata
// gdpo_constant_format_6's kind (three groups with a constant reward,
// whose residue c the batch's normalisation shifts by its mean 3c/4, a
// fourth without) is a residue; not when a group's differences are
// uneven (a wrong weight), a group without a tie differs alone, every
// row is shifted alike (the differences' mean not 0), the shift exceeds
// the bounds, or no group ties.
func TestBatchResidue(t *testing.T) {
	const c, divisor = 6e-4, 1.0 // the residue, the batch's std + eps
	bound := TieResidueBound(8, 0.9, 1e-4)
	tied := func(d ...float64) BatchTie { return BatchTie{Bound: bound, Diff: d} }
	free := func(d ...float64) BatchTie { return BatchTie{Diff: d} }
	for _, x := range []struct {
		what    string
		groups  []BatchTie
		residue bool
	}{
		{"three tied, shifted", []BatchTie{tied(c/4, c/4), tied(c/4, c/4), tied(c/4, c/4), free(-3*c/4, -3*c/4)}, true},
		{"float32 noise within a group", []BatchTie{tied(c/4+1e-7, c/4-1e-7), tied(c/4, c/4), tied(c/4, c/4), free(-3*c/4, -3*c/4)}, true},
		{"a group left out (RLOOTrainer's of one)", []BatchTie{tied(c/3, c/3), tied(), tied(c/3, c/3), free(-2*c/3, -2*c/3)}, true},
		{"uneven in a group", []BatchTie{tied(c/4, 0.01), tied(c / 4), tied(c / 4), free(-3 * c / 4)}, false},
		{"two untied groups apart", []BatchTie{tied(0), free(-c), free(c)}, false},
		{"beyond the bound", []BatchTie{tied(1.5*bound, 1.5*bound), free(-1.5*bound, -1.5*bound)}, false},
		{"every row shifted alike", []BatchTie{tied(c), tied(c), free(c)}, false},
		{"no tie", []BatchTie{free(c), free(-c)}, false},
		{"NaN", []BatchTie{tied(math.NaN()), free(0)}, false},
	} {
		if got := BatchResidue(x.groups, divisor); got != x.residue {
			t.Errorf("%s: BatchResidue %v, want %v", x.what, got, x.residue)
		}
	}
}

// TestBatchDivisor: the divisor std(v + c) + eps is recovered from the
// computed advantages' std when their S is eps or more, else from the
// log's; none when the log's std is 1 or more (float32 rounding of a
// std far above eps).
func TestBatchDivisor(t *testing.T) {
	const eps = 1e-4
	for _, x := range []struct {
		what             string
		computed, logged float64
		divisor          float64
		ok               bool
	}{
		{"S = 1", 1 / (1 + eps), 1 / (1 + eps), 1 + eps, true},
		{"all tied: S = 0, std(c) = eps", 0, 0.5, 2 * eps, true},
		{"S = eps / 4, std(c) = eps", 0.2, 0.5, 2 * eps, true},
		{"nothing tells", 0, 1, 0, false},
	} {
		d, ok := BatchDivisor(x.computed, x.logged, eps)
		if ok != x.ok || ok && math.Abs(d-x.divisor) > 1e-9*x.divisor {
			t.Errorf("%s: BatchDivisor %v, %v, want %v, %v", x.what, d, ok, x.divisor, x.ok)
		}
	}
}
