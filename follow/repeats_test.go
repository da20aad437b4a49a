package follow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/duplicates"
)

// rows returns trajectories of source src, one per ID, in step step.
func rows(src string, step int64, ids ...string) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, len(ids))
	for i, id := range ids {
		ts[i] = scoring.Trajectory{ID: id, Batch: step, LoaderState: scoring.LoaderState{Source: src}}
	}
	return ts
}

// TestRepeatsWarnsOncePerUpdate: a first reading seeded (warned of by
// its own warning), then updates: one re-logging two of its IDs at step
// 2 is warned of once, naming them and the step; one with new IDs says
// nothing; a second re-logging counts across updates (`so far`); the IDs
// of a file read again leave with it, and what replaces them repeats
// nothing.
func TestRepeatsWarnsOncePerUpdate(t *testing.T) {
	var r Repeats
	first := rows("a.jsonl", 2, "s2-c0", "s2-c1", "s2-c2")
	r.Seed(len(first), func(i int) *scoring.Trajectory { return &first[i] })
	if w := r.TakeWarning(); w != "" {
		t.Errorf("seeded: %q, want no warning", w)
	}
	steps := []struct {
		reloaded []string
		ts       []scoring.Trajectory
		want     string
	}{
		{nil, rows("a.jsonl", 2, "s2-c0", "s2-c1"), `2 trajectories repeat an earlier one's ID ("s2-c0", "s2-c1") at step 2; each is computed`},
		{nil, rows("a.jsonl", 3, "s3-c0"), ""},
		{nil, append(rows("b.jsonl", 3, "s3-c0"), rows("b.jsonl", 4, "s4-c0", "s4-c0")...), `2 trajectories repeat an earlier one's ID ("s3-c0", "s4-c0") at steps 3, 4; 4 so far; each is computed`},
		{[]string{"a.jsonl"}, rows("a.jsonl", 2, "s2-c0", "s2-c1", "s2-c2"), ""},
		{nil, rows("c.jsonl", 9, "s2-c2"), `1 trajectory repeats an earlier one's ID ("s2-c2") at step 9; 5 so far; each is computed`},
	}
	for i, s := range steps {
		r.Forget(s.reloaded)
		r.Add(s.ts)
		if w := r.TakeWarning(); w != s.want {
			t.Errorf("update %d: warning\n%q\nwant\n%q", i+1, w, s.want)
		}
	}
}

// TestRepeatsNamesTheFirstFive: many repeats name their first five IDs,
// each once, as stats names a whole reading's.
func TestRepeatsNamesTheFirstFive(t *testing.T) {
	var r Repeats
	ids := make([]string, 8)
	for i := range ids {
		ids[i] = fmt.Sprint("id", i)
	}
	r.Add(rows("a", 0, ids...))
	r.Add(rows("a", 1, append(ids, ids...)...))
	want := `16 trajectories repeat an earlier one's ID ("id0", "id1", "id2", "id3", "id4") at step 1; each is computed`
	if w := r.TakeWarning(); w != want {
		t.Errorf("warning\n%q\nwant\n%q", w, want)
	}
}

// TestRepeatsNamesTheFirstFiveSteps: repeats of many steps name the
// first five steps in the order they came and count the others.
func TestRepeatsNamesTheFirstFiveSteps(t *testing.T) {
	var r Repeats
	for step := range int64(8) {
		r.Add(rows("a", step, fmt.Sprint("s", step)))
	}
	for step := range int64(8) {
		r.Add(rows("b", 10+step, fmt.Sprint("s", step)))
	}
	r.Add(rows("b", 10, "s0")) // a step named already
	want := `9 trajectories repeat an earlier one's ID ("s0", "s1", "s2", "s3", "s4") at steps 10, 11, 12, 13, 14 and 3 more; each is computed`
	if w := r.TakeWarning(); w != want {
		t.Errorf("warning\n%q\nwant\n%q", w, want)
	}
}

// TestSeedCountsAsDuplicatesCount: Seed gives the first reading's warning
// what duplicates.Count would (how many repeat an earlier one's ID, the
// first IDs named in order), so that its IDs are hashed once; the
// repeats seeded count in an update's `so far`.
func TestSeedCountsAsDuplicatesCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range 50 {
		ids := make([]string, 1+rng.IntN(200))
		for i := range ids {
			ids[i] = fmt.Sprint("id", rng.IntN(len(ids)))
		}
		ts := rows("a.jsonl", 0, ids...)
		var r Repeats
		n, first := r.Seed(len(ts), func(i int) *scoring.Trajectory { return &ts[i] })
		wantN, wantFirst := duplicates.Count(len(ids), func(i int) string { return ids[i] })
		if n != wantN || !slices.Equal(first, wantFirst) {
			t.Fatalf("case %d: Seed gives %d %q, duplicates.Count %d %q", c, n, first, wantN, wantFirst)
		}
		if w := r.TakeWarning(); w != "" {
			t.Fatalf("case %d: seeded, then warned %q", c, w)
		}
		r.Add(rows("a.jsonl", 1, ids[0]))
		want := fmt.Sprintf(`1 trajectory repeats an earlier one's ID (%q) at step 1; %d so far; each is computed`, ids[0], n+1)
		if n == 0 {
			want = fmt.Sprintf(`1 trajectory repeats an earlier one's ID (%q) at step 1; each is computed`, ids[0])
		}
		if w := r.TakeWarning(); w != want {
			t.Fatalf("case %d: the update's warning\n%q\nwant\n%q", c, w, want)
		}
	}
}
