package loaders

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

func TestExpectedCount(t *testing.T) {
	// Records 100 bytes apart: 10,000 bytes hold 100, plus 5%.
	at := func(offsets ...int64) []scoring.Trajectory {
		ts := make([]scoring.Trajectory, len(offsets))
		for i, off := range offsets {
			ts[i] = scoring.Trajectory{LoaderState: scoring.LoaderState{Source: "a.jsonl", Offset: off}}
		}
		return ts
	}
	other := at(0, 100)
	other[1].Source = "b.jsonl"
	for _, c := range []struct {
		name string
		size int64
		ts   []scoring.Trajectory
		want int
	}{
		{"records 100 bytes apart", 10_000, at(0, 100, 200, 300), 106},
		{"the first record after a header", 10_050, at(50, 150, 250), 106},
		{"size unknown", 0, at(0, 100, 200), 0},
		{"one record", 10_000, at(0), 0},
		{"no offsets (Parquet)", 10_000, at(0, 0, 0), 0},
		{"two files", 10_000, other, 0},
	} {
		if got := ExpectedCount(c.size, c.ts); got != c.want {
			t.Errorf("%s: ExpectedCount = %d, want %d", c.name, got, c.want)
		}
	}
}
