// Package duplicates counts the IDs that repeat an earlier one. Repeated
// IDs are computed like any other trajectory, but they make compute's
// records ambiguous for whoever joins them back by ID, so the CLI and the
// dashboard warn about them.
package duplicates

import (
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// MaxShown is how many duplicated IDs Count names.
const MaxShown = 5

// named lists the IDs Count named, for a warning: each quoted and cut as
// a message names a value from the data (textsafe.QuoteShort: an ID may
// be a whole prompt), joined by ", " and made safe for a terminal.
func named(first []string) string {
	quoted := make([]string, len(first))
	for i, id := range first {
		quoted[i] = textsafe.QuoteShort(id)
	}
	return textsafe.Line(strings.Join(quoted, ", "))
}

// Warning says that n trajectories (n > 0) repeat an earlier one's ID,
// first the IDs named (named): `N trajectories repeat an earlier one's
// ID ("a", "b")`. It is the one wording of compute, stats, stats --follow
// and the dashboard, each adding what it does of them. Safe for a
// terminal.
func Warning(n int, first []string) string {
	return fmt.Sprintf("%d %s %s an earlier one's ID (%s)", n, english.Plural(n, "trajectory"), english.Verb(n, "repeats", "repeat"), named(first))
}

// idHash is the hash of the ID of the trajectory at position i.
type idHash struct {
	hash uint64
	i    int
}

// Count counts the positions i < count whose ID, id(i), an earlier
// position already has, and names the first few such IDs in order of
// position. It sorts 64-bit hashes rather than building a set of the IDs: a million
// IDs cost 16 MB and a sort, not a million map entries and strings; equal
// hashes are then told apart by comparing the IDs, so the count is exact.
func Count[S string | []byte](count int, id func(i int) S) (n int, first []string) {
	seed := maphash.MakeSeed()
	hashes := make([]idHash, count)
	for i := range hashes {
		hashes[i] = idHash{hashID(seed, id(i)), i}
	}
	sortByHash(hashes)
	var repeats []int // the positions repeating an earlier ID
	for lo := 0; lo < len(hashes); {
		hi := lo + 1
		for hi < len(hashes) && hashes[hi].hash == hashes[lo].hash {
			hi++
		}
		if hi-lo > 1 {
			repeats = appendRepeats(repeats, hashes[lo:hi], id)
		}
		lo = hi
	}
	slices.Sort(repeats)
	named := map[string]bool{}
	for _, i := range repeats {
		if s := string(id(i)); len(first) < MaxShown && !named[s] {
			named[s] = true
			first = append(first, s)
		}
	}
	return len(repeats), first
}

// sortByHash sorts hashes by (hash, position), given in position order. The
// hashes are uniform, so a counting sort on their top bits, about log2 n of
// them and at most 16, leaves buckets of a few entries each, finished by a
// stable insertion sort: O(n), where a comparison sort of a million entries
// took 0.2 s.
func sortByHash(hashes []idHash) {
	top := min(max(bits.Len(uint(len(hashes))), 1), 16)
	start := make([]int, 1<<top+1)
	for _, h := range hashes {
		start[h.hash>>(64-top)+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	sorted := make([]idHash, len(hashes))
	next := slices.Clone(start[:1<<top])
	for _, h := range hashes {
		b := h.hash >> (64 - top)
		sorted[next[b]] = h
		next[b]++
	}
	for b := 0; b < 1<<top; b++ {
		bucket := sorted[start[b]:start[b+1]]
		for i := 1; i < len(bucket); i++ {
			for j := i; j > 0 && bucket[j].hash < bucket[j-1].hash; j-- {
				bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
			}
		}
	}
	copy(hashes, sorted)
}

// appendRepeats appends the positions in run, IDs of one hash in input
// order, whose ID an earlier one of run has. The IDs of a run are all the
// same but for a hash collision, which a set then sorts out.
func appendRepeats[S string | []byte](repeats []int, run []idHash, id func(i int) S) []int {
	first := id(run[0].i)
	same := true
	for _, h := range run[1:] {
		same = same && string(id(h.i)) == string(first)
	}
	if same {
		for _, h := range run[1:] {
			repeats = append(repeats, h.i)
		}
		return repeats
	}
	seen := map[string]bool{}
	for _, h := range run {
		if s := string(id(h.i)); seen[s] {
			repeats = append(repeats, h.i)
		} else {
			seen[s] = true
		}
	}
	return repeats
}

// hashID hashes an ID held as a string or as bytes, without copying it.
func hashID[S string | []byte](seed maphash.Seed, s S) uint64 {
	if b, ok := any(s).([]byte); ok {
		return maphash.Bytes(seed, b)
	}
	return maphash.String(seed, any(s).(string))
}
