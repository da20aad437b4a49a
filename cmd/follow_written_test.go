package cmd

import (
	"maps"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStatsFollowNotesRunsOfRows gives stats --follow's follower an
// update whose rows interleave steps and files: every step is noted as
// being written and every file's unfinished line forgotten, those met
// again after another's rows too (noted once per run of rows).
func TestStatsFollowNotesRunsOfRows(t *testing.T) {
	row := func(source string, step int64) scoring.Trajectory {
		return scoring.Trajectory{Batch: step, LoaderState: scoring.LoaderState{Source: source}}
	}
	ts := []scoring.Trajectory{row("a", 3), row("a", 3), row("b", 4), row("a", 5), row("a", 5), row("c", 3), row("a", 6)}
	f := &statsFollower{unfinished: map[string]bool{"a": true, "b": true, "c": true, "d": true}}
	f.noteUnfinished(loaders.Update{Trajectories: ts})
	f.noteWritten(ts)
	if got := slices.Sorted(maps.Keys(f.written)); !slices.Equal(got, []int64{3, 4, 5, 6}) {
		t.Errorf("steps written %v, want [3 4 5 6]", got)
	}
	if got := slices.Sorted(maps.Keys(f.unfinished)); !slices.Equal(got, []string{"d"}) {
		t.Errorf("files still unfinished %v, want [d] (no row of it came)", got)
	}
	if want := map[string]int64{"a": 6, "b": 4, "c": 3}; !maps.Equal(f.lastStep, want) {
		t.Errorf("last steps %v, want %v", f.lastStep, want)
	}
}
