package trajectories

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// zeroSpreadBatches returns the records of batches 0 to batches-1,
// interleaved: in each, group q0's valid scores all equal (a =
// 0.9369000000000001 seven times, an eighth without a), which grpo and
// rloo leave as rounding leftovers, and q1's spread.
func zeroSpreadBatches(batches int) string {
	var b strings.Builder
	for c := range 8 {
		for step := range batches {
			a := "0.9369000000000001"
			if c == 7 {
				a = "null"
			}
			fmt.Fprintf(&b, `{"id":"s%d-q0-c%d","batch":%d,"group":"q0","metadata":{"a":%s,"b":0}}`+"\n", step, c, step, a)
			fmt.Fprintf(&b, `{"id":"s%d-q1-c%d","batch":%d,"group":"q1","metadata":{"a":%g,"b":%d}}`+"\n", step, c, step, float64(c)/8, step)
		}
	}
	return b.String()
}

// TestTrajectoriesSwitchComputesTheBatchShown checks that a switch of
// method shown on the Trajectories tab computes the rewards of the batch
// shown alone, A's and B's: its columns are the batch's rewards as shown
// (rounding leftovers 0), sorted by them, and no other batch is computed.
func TestTrajectoriesSwitchComputesTheBatchShown(t *testing.T) {
	s := uitest.TextSession(t, zeroSpreadBatches(4))
	s.CompareMethod = engine.GRPO
	tab := uitest.TabOn(s, New)
	for _, m := range []engine.Method{engine.RLOO, engine.GRPO} {
		// As the root switches: A prepared, its shown batch computed, B
		// prepared (B is A's method under grpo: its own column then).
		s.Options.Method = m
		s.SetResult(s.Evaluation.Prepare(s.Options, nil), nil)
		s.SetBatch(2)
		if b, ok := s.CompareNeeded(s.Options); ok {
			s.SetCompare(s.Evaluation.Prepare(b, nil))
		}
		// Not uitest.Refresh, which computes the health, of every batch
		// (off the event loop in the dashboard).
		tab.Update(common.SessionChangedMsg{})
		uitest.Jobs(tab)
		view := uitest.Plain(tab)
		if s.Result.Finished() || (s.CompareResult() != nil && s.CompareResult().Finished()) {
			t.Errorf("%s: a switch on the Trajectories tab computed every batch", m)
		}
		if leftover.MatchString(view) {
			t.Errorf("%s: a rounding leftover shown:\n%s", m, view)
		}
		l := &tab.(*trajectoriesTab).rows
		batch := s.CurrentBatch().Members
		leftovers := 0
		for _, i := range batch {
			if s.Result.Settled(i) && s.Result.Rewards[i] != 0 {
				leftovers++
			}
			if got, want := l.columns[sortByReward].value(i), s.Result.ShownReward(i); got != want {
				t.Errorf("%s: trajectory %d's reward shown %v, want %v (reward %v)", m, i, got, want, s.Result.Rewards[i])
			}
			want := s.Result.ShownReward(i) // B's is A's or grpo's
			if s.CompareResult() != nil {
				want = s.CompareResult().ShownReward(i)
			}
			if got := l.columns[sortByRewardB].value(i); got != want {
				t.Errorf("%s: trajectory %d's reward B shown %v, want %v", m, i, got, want)
			}
		}
		if leftovers == 0 {
			t.Fatalf("%s: no rounding leftover in the batch shown: nothing to test", m)
		}
		// The rows sorted by the reward (descending at first), then
		// ascending.
		for _, descending := range []bool{true, false} {
			var shown []float64
			for j := range l.len() {
				shown = append(shown, s.Result.ShownReward(l.row(j)))
			}
			if descending {
				slices.Reverse(shown)
			}
			if l.sortColumn != sortByReward || l.descending != descending || !slices.IsSorted(shown) || len(shown) != len(batch) {
				t.Errorf("%s: rows not sorted by the shown reward (descending %v): %v", m, descending, shown)
			}
			uitest.PressKeys(tab, "S")
		}
	}
}

// leftover matches a rounding leftover as a cell shows it (-1.1e-12).
var leftover = regexp.MustCompile(`[0-9]e-[0-9]`)

// TestRewardColumnsOfTheRowsBatch: the session moved to another batch
// while the tab was hidden (a job, such as the finish sort, may still
// land on it and lay its columns out): the reward columns read the
// batch the rows are listed from, not the session's, whose span the rows
// fall out of.
func TestRewardColumnsOfTheRowsBatch(t *testing.T) {
	s := uitest.TextSession(t, zeroSpreadBatches(4))
	s.Options.Method = engine.GRPO
	s.Recompute()
	s.SetBatch(0)
	tab := uitest.TabOn(s, New)
	tab.Update(common.SessionChangedMsg{})
	uitest.Jobs(tab)
	l := &tab.(*trajectoriesTab).rows
	s.SetBatch(3) // not told: hidden
	for _, c := range []int{sortByReward, sortByRewardB} {
		vals, stride, offset := l.columns[c].values()
		for _, i := range l.rows {
			at := i*stride + offset
			if at < 0 || at >= len(vals) {
				t.Fatalf("column %d: trajectory %d at %d, out of its %d values", c, i, at, len(vals))
			}
			res := s.Result
			if c == sortByRewardB && s.ShowsRewardB() && s.CompareResult() != nil {
				res = s.CompareResult()
			}
			if got, want := vals[at], res.ShownReward(i); got != want {
				t.Errorf("column %d: trajectory %d reads %v, want %v", c, i, got, want)
			}
		}
	}
}
