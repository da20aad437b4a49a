package table

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A NumberRange gathered in parts (Add, AddAt, AddRows) and merged gives the format of the
// values added one by one, on columns of integers, decimals, large and
// tiny magnitudes, both zeros, NaN and the infinities.
func TestNumberRangeMergedIsAdded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pools := [][]float64{
		{0, math.Copysign(0, -1), -3, 12, 7},
		{0.5, -0.25, 1e-5, 3},
		{1e7, -2e-9, 4e-12, -8e8},
		{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0.001},
		{math.NaN(), math.Inf(-1)},
	}
	for _, pool := range pools {
		for n := range 40 {
			x := make([]float64, n)
			for i := range x {
				x[i] = pool[rng.IntN(len(pool))] * float64(1+rng.IntN(3))
			}
			want := NewNumberFormat(n, func(j int) float64 { return x[j] })
			cut := rng.IntN(n + 1)
			a, b := NewNumberRange(), NewNumberRange()
			for _, v := range x[:cut] {
				a.Add(v)
			}
			// The rest as column 1 of a table of 2 values a row, in
			// reverse.
			table, at := make([]float64, 2*n), []int{}
			for j := n - 1; j >= cut; j-- {
				table[2*j+1], table[2*j] = x[j], math.NaN()
				at = append(at, j)
			}
			b.AddAt(table, 2, 1, at)
			a.Merge(b)
			// And again, as rows of the table.
			c := NewNumberRange()
			c.AddRows(table, 2, 1, cut, n)
			a.Merge(c)
			if got := a.Format(); got != want {
				t.Fatalf("%v cut at %d: merged %+v, added %+v", x, cut, got, want)
			}
		}
	}
}

// The zeros' signs count as min and max order them: a column of -0 alone
// shows "-0", and its width is that of "-0" where it is an extreme.
func TestNumberRangeSignedZeros(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		vals  []float64
		width int
	}{
		{[]float64{negZero}, 2},
		{[]float64{0, negZero}, 2},
		{[]float64{negZero, 0}, 2},
		{[]float64{0, 0}, 1},
		{[]float64{3, 0}, 1},
		{[]float64{negZero, 3}, 2},
		{[]float64{-5, negZero}, 2},
	} {
		r := NewNumberRange()
		r.AddRows(c.vals, 1, 0, 0, len(c.vals))
		if f := r.Format(); f.width != c.width {
			t.Errorf("%v: width %d, want %d", c.vals, f.width, c.width)
		}
	}
}

// TestNumberRangeOffsetPastRows checks AddRows and AddAt on an array of
// some rows alone, row i at i-first (a negative offset): the values
// added are those rows', no more.
func TestNumberRangeOffsetPastRows(t *testing.T) {
	const first = 100
	vals := []float64{3, 2, 1.0000001}
	want := NewNumberRange()
	want.AddRows(vals, 1, 0, 0, len(vals))
	rows, at := NewNumberRange(), NewNumberRange()
	rows.AddRows(vals, 1, -first, first, first+len(vals))
	at.AddAt(vals, 1, -first, []int{first, first + 1, first + 2})
	if rows.Format() != want.Format() || at.Format() != want.Format() {
		t.Errorf("offset -%d: AddRows %+v, AddAt %+v, want %+v", first, rows.Format(), at.Format(), want.Format())
	}
	short := NewNumberRange()
	short.AddRows(vals, 1, -first, first, first+1) // 3 alone: an integer
	one := NewNumberRange()
	one.Add(3)
	if short.Format() != one.Format() || one.Format() == want.Format() {
		t.Errorf("offset -%d: AddRows of one row %+v, want %+v", first, short.Format(), one.Format())
	}
}
