package layouts

import (
	"math"
	"math/rand/v2"
	"testing"
)

// trlGroupAdvantages32 returns TRL's sum_then_normalize advantages (scale
// group) of one group's weighted sums r in float32: nanmean, nanstd (the
// mean of the squared deviations times n / (n - 1), square-rooted), then
// (r - mean) / (std + 1e-4).
func trlGroupAdvantages32(r []float32) []float64 {
	n := float32(len(r))
	sum := float32(0)
	for _, x := range r {
		sum += x
	}
	mean := sum / n
	sq := float32(0)
	for _, x := range r {
		sq += (x - mean) * (x - mean)
	}
	std := float32(math.Sqrt(float64(sq / n * (n / (n - 1)))))
	a := make([]float64, len(r))
	for i, x := range r {
		a[i] = float64((x - mean) / (std + 1e-4))
	}
	return a
}

// TestWeightsDisagreeFloat32: a table whose two reward columns are equal
// (a second reward function scoring as the first), near 20 with an std
// of 0.01 in a group, logged with reward_weights [1, 0.5] by TRL's
// float32 arithmetic: no weights fit its log (the columns' weights are
// not told apart), and the weights read from another file, [1, 0.5],
// reproduce it only within TRL's float32 rounding, beyond trlTolerance:
// they agree. [2, 0.5] still disagrees.
func TestWeightsDisagreeFloat32(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 20))
	tbl := &trlTable{columns: make([][]float64, 2)}
	for g := range 8 {
		off := 0.03 * rnd.NormFloat64()
		var group []int
		r := make([]float32, 8)
		for j := range r {
			x := float32(20 + off + 0.01*rnd.NormFloat64())
			r[j] = x + 0.5*x
			group = append(group, len(tbl.advantage))
			tbl.groupOf = append(tbl.groupOf, g)
			tbl.columns[0] = append(tbl.columns[0], float64(x))
			tbl.columns[1] = append(tbl.columns[1], float64(x))
			tbl.advantage = append(tbl.advantage, 0)
		}
		tbl.groups = append(tbl.groups, group)
		for j, a := range trlGroupAdvantages32(r) {
			tbl.advantage[group[j]] = a
		}
	}
	rows := tbl.trainRows()
	if _, _, ok := tbl.fitWeights(2, rows); ok {
		t.Fatal("weights fit a log of two equal columns: the case does not test the bound")
	}
	read := trlWeightsRead{weights: []float64{1, 0.5}}
	if d := tbl.nearestDiff(read.weights, tbl.factorsFor(read.weights, false, rows), rows); !(d > trlTolerance) {
		t.Fatalf("the weights read reproduce the log to %.3g, within %v: the case does not test the bound", d, trlTolerance)
	}
	columns := []string{"reward_model", "judge_model"}
	if own, disagree := tbl.weightsDisagree(columns, read); disagree {
		t.Errorf("[1, 0.5] against its own float32 log: disagree, t's own %q", own)
	}
	if _, disagree := tbl.weightsDisagree(columns, trlWeightsRead{weights: []float64{2, 0.5}}); !disagree {
		t.Error("[2, 0.5] against a log of [1, 0.5]: agree")
	}
}
