package chart

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWindow checks Window by hand on the cases it exists for, then its
// properties on random windows: the width is kept, and the window lies
// within the points and their margin wherever it can.
func TestWindow(t *testing.T) {
	for _, c := range []struct {
		name                   string
		c, h, lo, hi, flo, fhi float64
		want0, want1           float64
	}{
		// Zoomed on a point at 0 of a never-negative objective: the
		// window moves up so that 5% of its width (0.02) lies below 0.
		{"near zero", 0, 0.2, 0, 1, -0.05, 1.05, -0.02, 0.38},
		// Inside the points: unchanged.
		{"inside", 0.5, 0.1, 0, 1, -0.05, 1.05, 0.4, 0.6},
		// Panned past the top: moved back down.
		{"past the top", 5, 0.1, 0, 1, -0.05, 1.05, 0.81, 1.01},
		// Points narrower than the window: centred on them.
		{"narrow points", 0.9, 1, 0.4, 0.6, 0, 2, -0.5, 1.5},
		// The margin would pass the full view: the full view bounds it.
		{"full view", 0, 0.2, 0, 1, 0, 1, 0, 0.4},
	} {
		got0, got1 := Window(c.c, c.h, c.lo, c.hi, c.flo, c.fhi)
		if math.Abs(got0-c.want0) > 1e-12 || math.Abs(got1-c.want1) > 1e-12 {
			t.Errorf("%s: Window = %v..%v, want %v..%v", c.name, got0, got1, c.want0, c.want1)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		lo := r.Float64()*10 - 5
		hi := lo + r.Float64()*10
		pad := r.Float64()
		flo, fhi := lo-pad, hi+pad
		h := r.Float64() * (fhi - flo) / 2
		if h == 0 {
			continue
		}
		c := flo + r.Float64()*(fhi-flo)*1.5 - (fhi-flo)*0.25
		w0, w1 := Window(c, h, lo, hi, flo, fhi)
		if math.Abs((w1-w0)-2*h) > 1e-9*(1+h) {
			t.Fatalf("Window(%v, %v, %v, %v, %v, %v) = %v..%v: width %v, want %v", c, h, lo, hi, flo, fhi, w0, w1, w1-w0, 2*h)
		}
		mlo, mhi := max(lo-WindowMargin*2*h, flo), min(hi+WindowMargin*2*h, fhi)
		if mhi-mlo >= 2*h && (w0 < mlo-1e-9 || w1 > mhi+1e-9) {
			t.Fatalf("Window(%v, %v, %v, %v, %v, %v) = %v..%v: beyond %v..%v where it fits", c, h, lo, hi, flo, fhi, w0, w1, mlo, mhi)
		}
	}
}
