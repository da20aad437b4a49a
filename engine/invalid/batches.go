// Package invalid says what is wrong when trajectories are invalid: the
// batches mostly invalid and their main cause (MostlyBatches, BatchOf,
// Step), and, when none is valid, an error that names the objective, its
// expression and the fields it reads that the records lack, with the close
// names they have (NoValid, NoValidError.WithHidden). The engine counts
// the causes (Evaluation.Causes); this package reads them.
package invalid

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/english"
)

// Mostly is the fraction of a batch's trajectories above which the
// batch is reported as mostly invalid (a warning, and the invalid_fraction
// check's ALERT).
const Mostly = 0.5

// FilterDropped says that the dashboard's group filter dropped a
// trajectory (engine.Evaluation.Dropped): not invalid data, so counted
// apart (Batch.Dropped).
const FilterDropped = "dropped by the group filter"

// Batch tells how many of a batch's trajectories are invalid and
// the most frequent cause.
type Batch struct {
	Step                  int64
	Trajectories, Invalid int
	// Dropped counts the trajectories of the groups the group filter
	// dropped (engine.Evaluation.Dropped), which Invalid and MainCauses
	// leave out.
	Dropped int
	// MainCauses are the most frequent causes among the invalid
	// trajectories, in byte order: one, or those tied; MainCount is the
	// count of each.
	MainCauses []string
	MainCount  int
}

// Mostly says the main cause: "mostly acc: missing (58)", or, when causes
// tie, "equally acc: NaN, acc: infinite and acc: missing (1 each)"; ""
// when none is invalid.
func (b Batch) Mostly() string {
	switch len(b.MainCauses) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("mostly %s (%d)", b.MainCauses[0], b.MainCount)
	}
	return fmt.Sprintf("equally %s (%d each)", english.List(b.MainCauses), b.MainCount)
}

// Fraction returns Invalid / Trajectories.
func (b Batch) Fraction() float64 { return float64(b.Invalid) / float64(b.Trajectories) }

// String reads "step 7: 60 of 96 trajectories invalid (62%), mostly
// acc: missing (58)" (Mostly), then "; 12 dropped by the group filter"
// when the filter dropped some.
func (b Batch) String() string {
	text := fmt.Sprintf("step %d: %d of %d %s invalid (%s), %s",
		b.Step, b.Invalid, b.Trajectories, english.Plural(b.Trajectories, "trajectory"), english.Percent(b.Fraction()), b.Mostly())
	return text + b.DroppedNote()
}

// DroppedNote is "; N dropped by the group filter" when the filter
// dropped N of the batch's trajectories, else "".
func (b Batch) DroppedNote() string {
	if b.Dropped == 0 {
		return ""
	}
	return fmt.Sprintf("; %d %s", b.Dropped, FilterDropped)
}

// BatchOf returns the invalid counts of batch b, the trajectories the
// group filter dropped counted apart (Dropped).
func BatchOf(res *engine.Result, b *engine.Batch) Batch {
	ev := res.Evaluation
	out := Batch{Step: b.Step, Trajectories: len(b.Members), Dropped: ev.DroppedIn(b.Members)}
	out.Invalid = len(b.Members) - len(res.ValidOf(b)) - out.Dropped // the dropped are not valid
	out.MainCauses, out.MainCount = mainCauses(ev.InvalidCauses(b.Members))
	return out
}

// MostlyBatches returns, in step order, the batches more than
// Mostly of whose trajectories are invalid (those the group filter
// dropped not counted): what is probably wrong
// input or a wrong objective rather than a few bad rollouts.
func MostlyBatches(res *engine.Result) []Batch {
	var out []Batch
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		invalid := 0
		for _, i := range b.Members {
			if res.Evaluation.InvalidAt(i) {
				invalid++
			}
		}
		// The causes are only counted where they are reported.
		if IsMostly(invalid, len(b.Members)) {
			out = append(out, BatchOf(res, b))
		}
	}
	return out
}

// IsMostly reports whether invalid of n trajectories are more than
// Mostly of them.
func IsMostly(invalid, n int) bool { return float64(invalid) > Mostly*float64(n) }

// Step returns the invalid counts of the batch of step; ok is
// false when there is none.
func Step(res *engine.Result, step int64) (b Batch, ok bool) {
	if res.Ranking == nil {
		return b, false
	}
	k, ok := res.Ranking.BatchIndex(step)
	if !ok {
		return b, false
	}
	return BatchOf(res, &res.Ranking.Batches[k]), true
}

// mainCauses returns the most frequent causes of counts, in byte order,
// and their count; nil and 0 when counts is empty.
func mainCauses(counts map[string]int) ([]string, int) {
	var best []string
	n := 0
	for c, k := range counts {
		switch {
		case k > n:
			best, n = []string{c}, k
		case k == n:
			best = append(best, c)
		}
	}
	slices.Sort(best)
	return best, n
}
