package session

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// followRecords returns n random trajectories of file src in the given
// steps: objective a takes 0 to 2, so that ties and groups of zero spread
// are common, in groups of one to four (g0 to g3 within a step), and one
// in eight has no a (invalid).
func followRecords(rng *rand.Rand, src string, n int, steps ...int64) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		md := map[string]any{"a": float64(rng.IntN(3)), "b": float64(rng.IntN(4))}
		if rng.IntN(8) == 0 {
			delete(md, "a")
		}
		ts[i] = scoring.Trajectory{
			ID: fmt.Sprint(src, i), Batch: steps[rng.IntN(len(steps))], Group: fmt.Sprint("g", rng.IntN(4)),
			StepCount: int64(rng.IntN(9)), Done: true, Metadata: md,
			LoaderState: scoring.LoaderState{Source: src},
		}
	}
	return ts
}

// TestFollowFiltered follows a run with the group filter on: lines
// appended to batches held and new ones, a file read again from its start,
// lines after it. After each update the session's evaluation, filter,
// result, statistics and trends must be those of the filter turned on
// from scratch over the trajectories held; an update that reads no file
// again must extend the evaluation before it (only the batches it adds to
// filtered and computed again) and carry the trends forward; method B's
// result held must follow; what compute writes of the dropped
// trajectories must be those of the filter from scratch, a job made for
// the result before the update not kept; and what the session showed
// before must stay as it was.
func TestFollowFiltered(t *testing.T) {
	for _, cfg := range []setup.Config{
		{Method: string(engine.GRPO)},
		{Method: string(engine.Pareto), Scope: string(engine.ScopeBatch)},
		{Method: string(engine.RLOO), Scale: string(engine.ScaleBatch)},
	} {
		t.Run(cfg.Method, func(t *testing.T) {
			cfg.Objectives = []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b", Goal: "min"}}
			c, err := engine.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			followFiltered(t, c)
		})
	}
}

// followFiltered is TestFollowFiltered with the computer c.
func followFiltered(t *testing.T, c *engine.RewardComputer) {
	rng := rand.New(rand.NewPCG(26, 1))
	held := slices.Concat(followRecords(rng, "x", 60, 0, 1, 2), followRecords(rng, "y", 40, 1, 2, 3))
	s := NewSession("test", slices.Clone(held), c)
	if err := s.SetFilterGroups("a"); err != nil {
		t.Fatal(err)
	}
	j := s.HealthJob()
	j.Run()
	s.HealthDone(j)
	s.CompareMethod = engine.GDPO // method B's result, held, follows too
	compareOpts, _ := s.CompareNeeded(s.Result.Options)
	if !s.SetCompare(s.Evaluation.Compute(compareOpts)) {
		t.Fatal("B's result was not taken")
	}
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	for k, u := range []loaders.Update{
		{Trajectories: followRecords(rng, "x", 30, 3, 4)}, // to the newest batch, and a new one
		{Trajectories: followRecords(rng, "y", 25, 5, 6)}, // new batches
		{Trajectories: followRecords(rng, "x", 12, 1)},    // to an old batch
		{Reloaded: []string{"x"}, Trajectories: followRecords(rng, "x", 50, 0, 6, 7)},
		{Trajectories: followRecords(rng, "y", 20, 2, 7, 8)},
		{Trajectories: followRecords(rng, "x", 3, 8)}, // a few, to the newest batch
	} {
		held = slices.DeleteFunc(held, func(t scoring.Trajectory) bool { return slices.Contains(u.Reloaded, t.Source) })
		held = append(held, u.Trajectories...)
		prevEv, prevRes := s.Evaluation, s.Result
		prevValid, prevCauses := slices.Clone(prevEv.Valid), slices.Clone(prevEv.Causes)
		prevScores, prevRewards := slices.Clone(prevRes.Scores), slices.Clone(prevRes.Rewards)
		prevKept, prevKeptCopy := s.Filter.Kept, slices.Clone(s.Filter.Kept)
		prevReloads := s.Reloads
		// What compute writes of the result before, under way when the
		// update lands.
		stale := &WrittenJob{base: s.Filter.unfiltered, of: s.Result, kept: s.Filter.Kept}

		s.ApplyUpdate(live, u)
		if s.SetWritten(stale.Run()) {
			t.Errorf("update %d: what compute writes of the result before the update was kept", k)
		}

		if reloaded := s.Reloads != prevReloads; reloaded != (len(u.Reloaded) > 0) {
			t.Errorf("update %d: Reloads went from %d to %d", k, prevReloads, s.Reloads)
		}

		want := NewSession("test", slices.Clone(held), c)
		if err := want.SetFilterGroups("a"); err != nil {
			t.Fatal(err)
		}
		j := want.HealthJob()
		j.Run()
		want.HealthDone(j)
		if len(u.Reloaded) == 0 {
			if _, ok := s.Evaluation.RowsSince(prevEv); !ok {
				t.Errorf("update %d: the evaluation was filtered whole again", k)
			}
			if !s.HealthReady() {
				t.Errorf("update %d: the trends were not carried forward", k)
			}
		}
		s.Result.Finish()
		if !s.HealthReady() {
			j := s.HealthJob()
			j.Run()
			s.HealthDone(j)
		}
		got, exp := s.Evaluation, want.Evaluation
		if !slices.Equal(got.Valid, exp.Valid) || !slices.Equal(got.Causes, exp.Causes) || !sameValue(got.Values, exp.Values) {
			t.Fatalf("update %d: the evaluation differs from the one filtered from scratch:\n%v\n%v", k, got.Valid, exp.Valid)
		}
		if !slices.Equal(s.Filter.Steps, want.Filter.Steps) || !slices.Equal(s.Filter.Kept, want.Filter.Kept) {
			t.Fatalf("update %d: the filter's steps %+v, want %+v", k, s.Filter.Steps, want.Filter.Steps)
		}
		for _, x := range []*Session{s, want} {
			if j := x.WrittenJob(); j != nil && !x.SetWritten(j.Run()) {
				t.Fatalf("update %d: what compute writes of the result shown was not kept", k)
			}
		}
		if sw, ww := s.Written(), want.Written(); (sw == nil) != (ww == nil) ||
			sw != nil && (!sameValue(sw.Scores, ww.Scores) || !slices.Equal(sw.Ranks, ww.Ranks) || !sameValue(sw.Crowding, ww.Crowding)) {
			t.Errorf("update %d: what compute writes differs from the filter turned on from scratch", k)
		}
		r, w := s.Result, want.Result
		if !sameValue(r.Ranking.Batches, w.Ranking.Batches) || !slices.Equal(r.Ranking.Ranks, w.Ranking.Ranks) || !slices.Equal(r.Ranking.Fronts, w.Ranking.Fronts) ||
			!sameValue(r.Ranking.Crowding, w.Ranking.Crowding) || !sameValue(r.Scores, w.Scores) || !sameValue(r.Rewards, w.Rewards) {
			t.Fatalf("update %d: the result differs from the one computed from scratch", k)
		}
		for bi := range r.Ranking.Batches {
			if !sameValue(diagnose.StatsOf(r, &r.Ranking.Batches[bi]), diagnose.StatsOf(w, &w.Ranking.Batches[bi])) {
				t.Fatalf("update %d: the statistics of step %d differ", k, r.Ranking.Batches[bi].Step)
			}
		}
		if b := s.CompareResult(); b == nil || !sameValue(b.Rewards, want.Evaluation.Compute(compareOpts).Rewards) {
			t.Fatalf("update %d: method B's result is not that of the evaluation shown", k)
		}
		if !sameValue(s.Trends(), want.Trends()) || !sameValue(s.Findings(), want.Findings()) {
			t.Fatalf("update %d: the trends or findings differ from those computed from scratch", k)
		}
		if !slices.Equal(prevEv.Valid, prevValid) || !slices.Equal(prevEv.Causes, prevCauses) || !sameValue(prevRes.Scores, prevScores) ||
			!sameValue(prevRes.Rewards, prevRewards) || !slices.Equal(prevKept, prevKeptCopy) {
			t.Fatalf("update %d: the evaluation or result before changed", k)
		}
	}
}

// sameValue reports whether a and b hold the same values, NaN equal to
// NaN, pointers compared by what they point to.
func sameValue(a, b any) bool { return sameReflect(reflect.ValueOf(a), reflect.ValueOf(b)) }

func sameReflect(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameReflect(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameReflect(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameReflect(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if !sameReflect(a.MapIndex(k), b.MapIndex(k)) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestLastStepsKeptAsRowsCome: the step of each file's last row read,
// kept as updates come, is that of a pass over the rows after each: a
// file grown, a new one, one read again shorter, one emptied (its rows
// gone).
func TestLastStepsKeptAsRowsCome(t *testing.T) {
	rows := func(src string, steps ...int64) []scoring.Trajectory {
		ts := make([]scoring.Trajectory, len(steps))
		for i, step := range steps {
			ts[i] = scoring.Trajectory{ID: fmt.Sprint(src, "-", i), Batch: step, Group: "g", Done: true,
				Metadata: map[string]any{"a": float64(i % 3)}, LoaderState: scoring.LoaderState{Source: src, Line: i + 1}}
		}
		return ts
	}
	scan := func(s *Session) map[string]int64 {
		lastStep := map[string]int64{}
		for _, tr := range s.Trajectories.All() {
			lastStep[tr.Source] = tr.Batch
		}
		return lastStep
	}
	s := newFindSession(t, slices.Concat(rows("a", 0, 0, 1), rows("b", 0, 1), rows("c", 0)))
	updates := []struct {
		name string
		u    loaders.Update
	}{
		{"a grown, d new", loaders.Update{Trajectories: slices.Concat(rows("a", 2, 2), rows("d", 2))}},
		{"b read again shorter", loaders.Update{Reloaded: []string{"b"}, Trajectories: rows("b", 0)}},
		{"c emptied", loaders.Update{Reloaded: []string{"c"}}},
		{"b and d read again, a grown", loaders.Update{Reloaded: []string{"b", "d"}, Trajectories: slices.Concat(rows("b", 0, 3), rows("a", 3), rows("d", 1))}},
	}
	if got, want := s.lastStep, scan(s); !maps.Equal(got, want) {
		t.Fatalf("opened: last steps %v, want %v", got, want)
	}
	for _, step := range updates {
		applyUpdate(s, step.u)
		if got, want := s.lastStep, scan(s); !maps.Equal(got, want) {
			t.Fatalf("%s: last steps %v, want %v", step.name, got, want)
		}
	}
}
