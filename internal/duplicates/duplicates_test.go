package duplicates

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

func TestCount(t *testing.T) {
	ids := func(s ...string) []string { return s }
	for _, c := range []struct {
		ids   []string
		n     int
		first []string
	}{
		{nil, 0, nil},
		{ids("a"), 0, nil},
		{ids("a", "b", "c"), 0, nil},
		{ids("a", "b", "a"), 1, []string{"a"}},
		// In the order of the repeats: b repeats before a does.
		{ids("a", "b", "b", "a", "a", "é🚀", "é🚀"), 4, []string{"b", "a", "é🚀"}},
		{ids("x", "x", "x", "x"), 3, []string{"x"}},
		{ids("1", "2", "3", "4", "5", "6", "1", "2", "3", "4", "5", "6"), 6, []string{"1", "2", "3", "4", "5"}},
	} {
		n, first := Count(len(c.ids), func(i int) string { return c.ids[i] })
		if n != c.n || !slices.Equal(first, c.first) {
			t.Errorf("Count(%q) = %d %q, want %d %q", c.ids, n, first, c.n, c.first)
		}
	}
}

// TestCountBytes checks the byte form against the string one on
// many IDs, and a run of one ID repeated 100,000 times, which must not cost
// a comparison per pair.
func TestCountBytes(t *testing.T) {
	var ids [][]byte
	for i := range 50000 {
		ids = append(ids, fmt.Appendf(nil, "id-%d", i%40000))
	}
	for range 100000 {
		ids = append(ids, []byte("same"))
	}
	n, first := Count(len(ids), func(i int) []byte { return ids[i] })
	if n != 10000+99999 || len(first) != 5 || first[0] != "id-0" {
		t.Errorf("%d duplicates, first %q", n, first)
	}
}

func TestSortByHashMatchesAComparisonSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{0, 1, 7, 1000, 200000} {
		hashes := make([]idHash, n)
		for i := range hashes {
			h := rng.Uint64()
			if i > 0 && rng.IntN(4) == 0 { // equal hashes must stay in position order
				h = hashes[rng.IntN(i)].hash
			}
			hashes[i] = idHash{h, i}
		}
		want := slices.Clone(hashes)
		slices.SortFunc(want, func(a, b idHash) int {
			return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.i, b.i))
		})
		sortByHash(hashes)
		if !slices.Equal(hashes, want) {
			t.Fatalf("n = %d: sortByHash differs from the comparison sort", n)
		}
	}
}

// TestNamed: the IDs a warning names are quoted and cut to their first
// textsafe.ShortRunes runes (an ID may be a whole prompt), a control
// character or escape sequence escaped.
func TestNamed(t *testing.T) {
	long := strings.Repeat("é", textsafe.ShortRunes) + strings.Repeat("x", 10000)
	got := named([]string{"a", long, "b\x1b[2Jc\n"})
	want := `"a", "` + strings.Repeat("é", textsafe.ShortRunes) + `"…, "b\x1b[2Jc\n"`
	if got != want {
		t.Errorf("Named = %q, want %q", got, want)
	}
}
