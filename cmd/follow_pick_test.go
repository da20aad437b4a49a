package cmd

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestStatsFollowPicksFromTheFirstTrajectory checks that stats --follow
// builds its computer when the loader asks what to pick, on the first
// trajectory, so that the rest of the first reading and every line the
// file grows by are picked rather than read into metadata maps; and that
// the computer is built once.
func TestStatsFollowPicksFromTheFirstTrajectory(t *testing.T) {
	f := &statsFollower{}
	first := &scoring.Trajectory{ID: "a", Metadata: map[string]any{"o1": 0.5, "o2": 1.0}}
	pick := f.pickFor(first)
	if pick == nil || !slices.Equal(pick.Keys, []string{"o1", "o2"}) {
		t.Fatalf("Pick on the first trajectory = %+v, want the keys o1, o2", pick)
	}
	c := f.computer
	other := &scoring.Trajectory{ID: "b", Metadata: map[string]any{"x": 1.0}}
	if f.pickFor(other); f.computer != c {
		t.Error("a later reading's first trajectory built the computer again")
	}
	if !slices.Contains(f.fields, "o1") || !slices.Contains(f.fields, "x") {
		t.Errorf("fields %v, want those of both readings' first trajectories", f.fields)
	}
}

// TestStatsFollowSeesPickedFields checks that a picked trajectory, which
// has no metadata map, counts its picked keys with a value as fields read,
// and not those it lacks.
func TestStatsFollowSeesPickedFields(t *testing.T) {
	f := &statsFollower{}
	picked := &scoring.Trajectory{ID: "a"}
	picked.Pick = &scoring.Pick{Keys: []string{"o1", "o2"}}
	picked.Picked = []scoring.PickedValue{{Number: 1, Kind: scoring.PickedNumber}, {Kind: scoring.PickedAbsent}}
	f.seen(picked)
	if !slices.Contains(f.fields, "o1") || slices.Contains(f.fields, "o2") {
		t.Errorf("fields %v, want o1 (picked, a number) and not o2 (absent)", f.fields)
	}
	if !slices.IsSorted(f.fields) {
		t.Errorf("fields %v not sorted", f.fields)
	}
}
