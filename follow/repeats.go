package follow

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/duplicates"
	"github.com/rewardlens/rewardlens/internal/english"
)

// Repeats counts, update by update, the trajectories followed whose ID a
// trajectory followed before them still has (a resumed run re-logging a
// step): what compute and stats warn of in a whole reading
// (internal/duplicates), which following would otherwise merge into the
// earlier step's groups unsaid. Each ID is kept as a 64-bit hash per
// source, so that the IDs of a file read again leave with its
// trajectories (Forget); two IDs of one hash, a chance of about n²/2⁶⁵
// among n IDs, count as one. The zero Repeats is empty, ready to use.
type Repeats struct {
	seed    maphash.Seed
	held    hashCounts // how many trajectories followed have each hash
	sources map[string]int
	// bySource holds each source's hashes, sources its index there; last
	// is the index of the source of the trajectory noted last, which the
	// next one mostly shares (a file's lines come together).
	bySource   [][]uint64
	lastSource string
	last       int
	// total counts the repeats so far; since, first and steps are those
	// since the last TakeWarning: how many, the first IDs, the first
	// steps; moreSteps the other steps they are of.
	total, since int
	first        []string
	steps        []int64
	moreSteps    map[int64]bool
}

// Seed notes the IDs of n trajectories, at(i) the i-th, that a warning of
// their own covers (the dashboard's first reading), and returns what
// that warning says: how many repeat an earlier one's ID and the first
// duplicates.MaxShown such IDs, as duplicates.Count gives them (but for
// IDs of one hash, counted as one), so that the IDs are hashed once.
// Their repeats count in the total but are not taken (TakeWarning). Seed
// is called first, on an empty Repeats.
func (r *Repeats) Seed(n int, at func(i int) *scoring.Trajectory) (repeats int, first []string) {
	r.add(n, at)
	repeats, first = r.since, r.first
	r.since, r.first, r.steps, r.moreSteps = 0, nil, nil, nil
	return repeats, first
}

// Add notes the trajectories ts, which follow those noted, counting
// those whose ID a trajectory noted before, or an earlier one of ts, has.
func (r *Repeats) Add(ts []scoring.Trajectory) {
	r.add(len(ts), func(i int) *scoring.Trajectory { return &ts[i] })
}

func (r *Repeats) add(n int, at func(i int) *scoring.Trajectory) {
	if r.sources == nil {
		r.seed, r.sources, r.last = maphash.MakeSeed(), map[string]int{}, -1
	}
	r.held.reserve(n)
	for i := range n {
		t := at(i)
		h := maphash.String(r.seed, t.ID)
		if r.held.add(h) > 0 {
			r.total++
			r.since++
			if len(r.first) < duplicates.MaxShown && !slices.Contains(r.first, t.ID) {
				r.first = append(r.first, t.ID)
			}
			r.noteStep(t.Batch)
		}
		if r.last < 0 || t.Source != r.lastSource {
			k, ok := r.sources[t.Source]
			if !ok {
				k = len(r.bySource)
				r.sources[t.Source] = k
				r.bySource = append(r.bySource, nil)
			}
			r.lastSource, r.last = t.Source, k
		}
		r.bySource[r.last] = append(r.bySource[r.last], h)
	}
}

// Forget forgets the IDs of the trajectories of sources (files read again
// from the start, whose trajectories leave): what replaces them repeats
// only the IDs that stay.
func (r *Repeats) Forget(sources []string) {
	for _, s := range sources {
		k, ok := r.sources[s]
		if !ok {
			continue
		}
		for _, h := range r.bySource[k] {
			r.held.remove(h)
		}
		r.bySource[k] = nil
	}
}

// TakeWarning returns the warning of the repeats counted since it was
// last called, "" when there are none, and starts counting them anew:
// `N trajectories repeat an earlier one's ID ("ID", ...) at step S`,
// worded as stats words a whole reading's (duplicates.Warning), the steps they are of in the
// order they came (the first five, then `and K more`), and `; T so far`
// when the total is more. The text is safe for a terminal.
func (r *Repeats) TakeWarning() string {
	if r.since == 0 {
		return ""
	}
	steps := make([]string, len(r.steps))
	for i, s := range r.steps {
		steps[i] = fmt.Sprint(s)
	}
	stepText := strings.Join(steps, ", ")
	if len(r.moreSteps) > 0 {
		stepText += fmt.Sprintf(" and %d more", len(r.moreSteps))
	}
	w := fmt.Sprintf("%s at %s %s", duplicates.Warning(r.since, r.first), english.Plural(len(r.steps)+len(r.moreSteps), "step"), stepText)
	if r.total > r.since {
		w += fmt.Sprintf("; %d so far", r.total)
	}
	r.since, r.first, r.steps, r.moreSteps = 0, nil, nil, nil
	return w + "; each is computed"
}

// noteStep notes a step repeats are of: the first duplicates.MaxShown in the
// order they came, the others only counted.
func (r *Repeats) noteStep(step int64) {
	switch {
	case slices.Contains(r.steps, step):
	case len(r.steps) < duplicates.MaxShown:
		r.steps = append(r.steps, step)
	default:
		if r.moreSteps == nil {
			r.moreSteps = map[int64]bool{}
		}
		r.moreSteps[step] = true
	}
}
