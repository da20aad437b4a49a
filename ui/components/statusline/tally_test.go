package statusline

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// tallyRows returns n trajectories of step, in groups of four, each
// invalid (x missing) where invalid says so of its index in the step.
func tallyRows(step int64, n int, invalid func(k int) bool) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, n)
	for k := range ts {
		md := map[string]any{"x": float64(k % 3)}
		if invalid(k) {
			md = map[string]any{"y": 1.0}
		}
		ts[k] = scoring.Trajectory{ID: fmt.Sprint(step, "-", k), Batch: step, Group: fmt.Sprint("g", k/4), Done: true, Metadata: md}
	}
	return ts
}

// TestInvalidWarningsFollowTheUpdates: following, the line counts the
// invalid trajectories among the rows each update adds, and says what
// counting the whole run from scratch says: the mostly invalid steps (one
// that comes so, one that an update makes so, the first detailed) and
// the causes over the run.
func TestInvalidWarningsFollowTheUpdates(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := session.NewSession("tally", tallyRows(0, 16, func(k int) bool { return k == 3 }), c)
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	var l Line
	l.Refresh(s)
	for _, u := range [][]scoring.Trajectory{
		tallyRows(1, 16, func(k int) bool { return k%4 != 0 }), // step 1 mostly invalid
		tallyRows(2, 8, func(int) bool { return false }),
		tallyRows(2, 12, func(int) bool { return true }), // step 2 grows mostly invalid
		tallyRows(3, 16, func(k int) bool { return k < 2 }),
	} {
		s.ApplyUpdate(live, loaders.Update{Trajectories: u})
		l.Refresh(s)
		var scratch Line
		scratch.Refresh(s)
		if got, want := l.Warnings(), scratch.Warnings(); !slices.Equal(got, want) {
			t.Errorf("after %d rows: counted update by update %q\nfrom scratch %q", s.Trajectories.Len(), got, want)
		}
	}
	const mostly = "more than half invalid in 2 steps (1, 2): step 1: 12 of 16 trajectories invalid (75%)"
	if !slices.ContainsFunc(l.Warnings(), func(w string) bool { return len(w) >= len(mostly) && w[:len(mostly)] == mostly }) {
		t.Errorf("warnings %q, want one starting %q", l.Warnings(), mostly)
	}
}

// BenchmarkInvalidWarningsUpdate1M times the line's count of the invalid
// trajectories after a followed update of 1,024 rows onto the run of
// uitest.PromptRun (2^20 trajectories over 500 steps), some invalid:
// update is the line's whole refresh after an update of a step of its
// own, join after one whose rows join the run's step 499, which grows
// update by update as a step a trainer is writing does; scan, the
// reference, the two scans of the run it made before
// (invalid.MostlyBatches, engine.Evaluation.InvalidCounts). The update's
// own work is not timed.
func BenchmarkInvalidWarningsUpdate1M(b *testing.B) {
	ts, cfg := uitest.PromptRun()
	for i := 0; i < len(ts); i += 97 {
		delete(ts[i].Metadata, "x")
	}
	c, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	s := session.NewSession("bench", ts, c)
	ts = nil
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	step, updates := int64(500), 0
	var kept Line
	kept.Refresh(s)
	for _, name := range []string{"update", "join", "scan"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				to := step
				if name == "join" {
					to = 499
				} else {
					step++
				}
				updates++
				u := loaders.Update{Trajectories: make([]scoring.Trajectory, 1024)}
				for i := range u.Trajectories {
					md := map[string]any{"accuracy": float64(i % 2), "x": float64(i%10) / 10}
					if i%97 == 0 {
						delete(md, "x")
					}
					u.Trajectories[i] = scoring.Trajectory{ID: fmt.Sprint("u", updates, "-", i), Batch: to, Group: fmt.Sprintf("prompt %05d", i/8), Done: true, Metadata: md}
				}
				s.ApplyUpdate(live, u)
				b.StartTimer()
				if name == "scan" {
					invalid.MostlyBatches(s.Result)
					s.Result.Evaluation.InvalidCounts()
				} else {
					kept.Refresh(s)
				}
			}
			b.StopTimer()
			kept.Refresh(s) // the line kept follows the scan's updates too
		})
	}
}

// TestInvalidWarningsFilterFlipsOldRows: with the group filter on, an
// update that adds a row to a group the filter dropped (all the same x)
// keeps the group, its old rows valid again; the line, counting the
// update, says what counting from scratch says, and counts invalid the
// one row without x alone, before and after: the dropped rows are not
// invalid data.
func TestInvalidWarningsFilterFlipsOldRows(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(id string, step int64, g string, x float64) scoring.Trajectory {
		return scoring.Trajectory{ID: id, Batch: step, Group: g, Done: true, Metadata: map[string]any{"x": x}}
	}
	var ts []scoring.Trajectory
	for k := 0; k < 4; k++ {
		ts = append(ts, row(fmt.Sprint("a", k), 0, "same", 1)) // zero spread: dropped
		ts = append(ts, row(fmt.Sprint("b", k), 0, "diverse", float64(k)))
	}
	ts = append(ts, scoring.Trajectory{ID: "b4", Batch: 0, Group: "diverse", Done: true, Metadata: map[string]any{}})
	s := session.NewSession("tally", ts, c)
	if err := s.SetFilterGroups("x"); err != nil {
		t.Fatal(err)
	}
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	var l Line
	l.Refresh(s)
	before := slices.Clone(l.Warnings()) // the line reuses its array
	prev := s.Evaluation
	s.ApplyUpdate(live, loaders.Update{Trajectories: []scoring.Trajectory{row("a4", 0, "same", 0)}})
	if _, ok := s.Evaluation.RowsSince(prev); !ok {
		t.Fatal("the filtered evaluation does not extend the one before: the update is not counted as one")
	}
	l.Refresh(s)
	var scratch Line
	scratch.Refresh(s)
	if got, want := l.Warnings(), scratch.Warnings(); !slices.Equal(got, want) {
		t.Errorf("counted update by update %q\nfrom scratch %q", got, want)
	}
	want := []string{"1 invalid trajectory in the run (reward = their group's mean): x: missing ×1"}
	if !slices.Equal(before, want) || !slices.Equal(l.Warnings(), want) {
		t.Errorf("warnings %q, then after the update that kept the dropped group %q; want %q both", before, l.Warnings(), want)
	}
	if got, want := l.tally.causes, s.Evaluation.InvalidCounts(); !maps.Equal(got, want) {
		t.Errorf("causes counted %v, the evaluation's %v", got, want)
	}
}

// TestInvalidTallyKeepsToARecount: through followed updates (new steps,
// rows joining old steps' groups, one a group the filter dropped, which
// it then keeps) and toggles of the group filter, the tally counted
// update by update holds, step by step and cause by cause, what counting
// the evaluation shown from scratch holds; the updates on either side of
// the filter extend the evaluation counted, so that they are counted by
// their rows alone.
func TestInvalidTallyKeepsToARecount(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := 0
	// rows returns a row of step in group g per x: nil is a row without
	// x, a string one whose x is not a number.
	rows := func(step int64, g string, xs ...any) []scoring.Trajectory {
		ts := make([]scoring.Trajectory, len(xs))
		for k, x := range xs {
			md := map[string]any{}
			if x != nil {
				md["x"] = x
			}
			id++
			ts[k] = scoring.Trajectory{ID: fmt.Sprint("r", id), Batch: step, Group: g, Done: true, Metadata: md}
		}
		return ts
	}
	// step returns a step's groups: one of zero spread (dropped by the
	// filter), one of spread, one with a row without x, one invalid whole.
	step := func(s int64) []scoring.Trajectory {
		return slices.Concat(
			rows(s, "same", 1.0, 1.0, 1.0, 1.0),
			rows(s, "diverse", 0.0, 1.0, 2.0, 1.0),
			rows(s, "partial", 0.0, nil, 2.0, 1.0),
			rows(s, "broken", nil, "bad", nil, "bad"),
		)
	}
	s := session.NewSession("tally", step(0), c)
	if err := s.SetFilterGroups("x"); err != nil {
		t.Fatal(err)
	}
	_, k := s.FilterObjective()
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	var l Line
	extended := map[bool]int{} // updates that extend the evaluation counted, by the filter's state
	for n, op := range []struct {
		update []scoring.Trajectory
		filter string // "on" or "off": a toggle, not an update
	}{
		{update: step(1)},
		{update: rows(0, "same", 0.0, nil)}, // the dropped group of step 0 kept, and a row without x
		{filter: "off"},
		{update: step(2)},
		{update: rows(1, "broken", "bad", 3.0)},
		{filter: "on"},
		{update: rows(2, "same", 2.0)},
		{update: slices.Concat(step(3), rows(1, "partial", nil))},
		{filter: "off"},
		{filter: "on"},
		{update: rows(3, "diverse", nil, 5.0)},
	} {
		l.Refresh(s)
		switch op.filter {
		case "":
			prev := s.Evaluation
			s.ApplyUpdate(live, loaders.Update{Trajectories: op.update})
			if _, ok := s.Evaluation.RowsSince(prev); ok {
				extended[s.Filter.On]++
			}
		default:
			on := op.filter == "on"
			ev, f := session.FilterOf(s.Unfiltered(), k, on)
			s.SetFiltered(on, s.Unfiltered(), ev, f, ev.Prepare(s.Options, nil))
		}
		l.Refresh(s)
		var recount invalidTally
		recount.count(s.Result)
		if !maps.Equal(l.tally.steps, recount.steps) || !maps.Equal(l.tally.causes, recount.causes) {
			t.Errorf("after op %d (filter on: %v): counted update by update %v %v, recounted %v %v", n, s.Filter.On, l.tally.steps, l.tally.causes, recount.steps, recount.causes)
		}
		if got, want := l.tally.causes, s.Evaluation.InvalidCounts(); !maps.Equal(got, want) {
			t.Errorf("after op %d: causes counted %v, the evaluation's %v", n, got, want)
		}
	}
	if extended[true] == 0 || extended[false] == 0 {
		t.Errorf("updates extending the evaluation counted, filter on and off: %v; want some of each", extended)
	}
}
