package pagetouch

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSliceKeepsContents checks that touching changes no element, in
// arrays of pointers and of numbers, across many pages, whatever their
// offset in the array.
func TestSliceKeepsContents(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([]uint64, 3<<16+5)
	for i := range words {
		words[i] = r.Uint64()
	}
	want := slices.Clone(words)
	for _, lo := range []int{0, 1, 3, 511} {
		Slice(words[lo:])
	}
	if !slices.Equal(words, want) {
		t.Fatal("Slice changed an element of a []uint64")
	}

	xs := make([]int, 1<<16)
	ptrs := make([]*int, 0, 1<<16)
	for i := range xs {
		xs[i] = i
		ptrs = append(ptrs, &xs[i])
	}
	Slice(ptrs)
	for i, p := range ptrs {
		if p != &xs[i] || *p != i {
			t.Fatalf("Slice changed pointer %d", i)
		}
	}
	Slice([]string(nil))
	Slice(make([]byte, 10))
}
