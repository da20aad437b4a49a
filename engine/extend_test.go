package engine

import "testing"

// TestExtendDoubles: an array extended part by part, as a followed
// file's growth is appended, is made anew about log2 times, not at each
// quarter of growth (the runtime's step for large slices), which copied
// every element four times over.
func TestExtendDoubles(t *testing.T) {
	var s []float64
	arrays := 0
	for range 1000 {
		before := cap(s)
		s = extend(s, 1000)
		if cap(s) != before {
			arrays++
		}
		if s[len(s)-1] != 0 {
			t.Fatal("extended elements not zero")
		}
		s[len(s)-1] = 1
	}
	if len(s) != 1_000_000 || arrays > 12 {
		t.Errorf("%d elements in %d arrays made, want 1000000 in at most 12", len(s), arrays)
	}
}
