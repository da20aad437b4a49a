package natural

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	// Sorted: each name before the next.
	sorted := []string{
		"", "0", "1", "01", "001", "2", "9", "10", "99999999999999999999999", "100000000000000000000000",
		"B", "a", "a1", "a2", "a10", "a10b", "a10c", "a11", "ab",
		"step_1.jsonl", "step_2.csv", "step_2_part_1", "step_2_part_10", "step_9.jsonl",
		"step_10.jsonl", "step_10.jsonl.gz", "step_10_part_2", "step_100.parquet",
	}
	for i := range sorted {
		for j := range sorted {
			if got := Compare(sorted[i], sorted[j]); (got < 0) != (i < j) || (got == 0) != (i == j) {
				t.Errorf("Compare(%q, %q) = %d", sorted[i], sorted[j], got)
			}
		}
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, Compare)
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("sorted: %q, want %q", shuffled, sorted)
	}
}

// TestCompareIsAnOrder checks antisymmetry and transitivity over
// every triple of a set of tricky names, so that sorting is well defined.
func TestCompareIsAnOrder(t *testing.T) {
	names := []string{"", "0", "00", "1", "01", "10", "a", "a0", "a00", "a1", "a01", "a1b", "a01b", "b", "B", "a-1", "a_1", "9z", "09z"}
	sign := func(x int) int { return min(max(x, -1), 1) }
	for _, a := range names {
		for _, b := range names {
			if sign(Compare(a, b)) != -sign(Compare(b, a)) {
				t.Errorf("not antisymmetric on %q, %q", a, b)
			}
			if a != b && Compare(a, b) == 0 {
				t.Errorf("%q and %q compare equal", a, b)
			}
			for _, c := range names {
				if Compare(a, b) < 0 && Compare(b, c) < 0 && Compare(a, c) >= 0 {
					t.Errorf("not transitive: %q < %q < %q but not %q < %q", a, b, c, a, c)
				}
			}
		}
	}
}
