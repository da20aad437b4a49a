package loaders

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestFollowRecyclesParts appends a burst of many parts to a followed
// file read with a Pick. A consumer that recycles each update once done
// with it gets later parts in the arrays of earlier ones, trajectories
// and picked values, each line once, in order, with its own values; one
// that does not (it keeps the trajectories, as the dashboard does) never
// gets an array twice. Every part but the last says that more follows
// (Behind).
func TestFollowRecyclesParts(t *testing.T) {
	defer goleak.VerifyNone(t)
	kept := growChunk
	growChunk = 4 << 10
	defer func() { growChunk = kept }()
	for _, recycle := range []bool{true, false} {
		t.Run("recycle="+strconv.FormatBool(recycle), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl")
			if err := os.WriteFile(path, []byte(idLines("s", 2)), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := followOptions(true)
			pick := &scoring.Pick{Keys: []string{"a"}}
			opts.Pick = func(*scoring.Trajectory) *scoring.Pick { return pick }
			_, ch, err := Follow(ctx, []string{path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			const n = 3000 // about 25 parts
			appendText(t, path, idLines("b", n))
			var (
				got             []string
				arrays          = map[*scoring.Trajectory]bool{}
				pickedArrays    = map[*scoring.PickedValue]bool{}
				reused, reusedP int
				behind          []bool
			)
			awaitUpdates(t, ch, "the burst", func(u Update) {
				if len(u.Trajectories) == 0 {
					return
				}
				if arrays[&u.Trajectories[0]] {
					reused++
				}
				arrays[&u.Trajectories[0]] = true
				for _, tr := range u.Trajectories {
					if len(tr.Picked) != 1 || strconv.Itoa(int(tr.Picked[0].Number)) != strings.TrimPrefix(tr.ID, "b") {
						t.Fatalf("%s: picked %v", tr.ID, tr.Picked)
					}
					got = append(got, tr.ID)
				}
				if p := &u.Trajectories[0].Picked[0]; pickedArrays[p] {
					reusedP++
				} else {
					pickedArrays[p] = true
				}
				behind = append(behind, u.Behind)
				if recycle {
					u.Recycle()
					if u.Trajectories != nil {
						t.Fatal("Recycle left the trajectories")
					}
				}
			}, func() bool { return len(got) >= n }, func() string { return strconv.Itoa(len(got)) })
			if !slices.Equal(got, ids("b", n)) {
				t.Fatalf("ids %v, want b0 to b%d", got, n-1)
			}
			if recycle != (reused > 0) || recycle != (reusedP > 0) {
				t.Errorf("recycle %v: %d of %d updates in an array given before, %d picked arrays", recycle, reused, len(behind), reusedP)
			}
			if len(behind) < n/200 || behind[len(behind)-1] || !slices.Contains(behind, true) {
				t.Errorf("%d updates, behind: %v; want many, all but the last behind", len(behind), behind)
			}
		})
	}
}
