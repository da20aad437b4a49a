package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// TestPrepareBatchByBatch computes every batch of a prepared result in a
// random order, some at once from several goroutines, and checks the
// rewards against Compute's on a separate evaluation, bit for bit, for
// every method and option; a batch's statistics need only that batch.
func TestPrepareBatchByBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	c := newTestComputer(t)
	for trial := range 8 {
		ts := enginetest.ManyBatches(rng, 200+rng.IntN(400), 2+rng.IntN(12))
		evA, evB := engine.Evaluate(c.Scorer, ts), engine.Evaluate(c.Scorer, ts)
		for _, method := range engine.Methods {
			for _, scope := range engine.Scopes {
				for _, normalize := range []bool{true, false} {
					opts := c.Options
					opts.Method, opts.Scope, opts.Normalize, opts.Scale = method, scope, normalize, engine.Scales[rng.IntN(len(engine.Scales))]
					want := evA.Compute(opts)
					got := evB.Prepare(opts, nil)
					if got.Finished() {
						t.Fatalf("trial %d %s: a prepared result of %d batches is finished", trial, method, len(got.Ranking.Batches))
					}
					// One batch's statistics first, alone.
					bi := rng.IntN(len(got.Ranking.Batches))
					if st, wantSt := StatsOf(got, &got.Ranking.Batches[bi]), StatsOf(want, &want.Ranking.Batches[bi]); st.Reward != wantSt.Reward && !(math.IsNaN(st.Reward.Mean) && math.IsNaN(wantSt.Reward.Mean)) {
						t.Fatalf("trial %d %s: batch %d's reward summary %+v, want %+v", trial, method, bi, st.Reward, wantSt.Reward)
					}
					var wg sync.WaitGroup
					for _, bi := range rng.Perm(len(got.Ranking.Batches)) {
						wg.Go(func() { got.ComputeBatch(bi) })
						got.ComputeBatch(bi)
					}
					wg.Wait()
					if !got.Finished() {
						t.Fatalf("trial %d %s: not finished after every batch", trial, method)
					}
					if !enginetest.SameBits(got.Rewards, want.Rewards) || !enginetest.SameBits(got.Scores, want.Scores) {
						t.Fatalf("trial %d %s scope %s normalize %v: batch by batch differs from Compute", trial, method, scope, normalize)
					}
				}
			}
		}
	}
}

// TestComputeSharesGroupsOverCores checks that a batch large enough to be
// shared out over the cores gets the rewards it gets on one core.
func TestComputeSharesGroupsOverCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	c := newTestComputer(t)
	ts := enginetest.ManyBatches(rng, 3*engine.RewardChunk, 1)
	for _, method := range engine.Methods {
		opts := c.Options
		opts.Method = method
		prev := runtime.GOMAXPROCS(1)
		one := engine.Evaluate(c.Scorer, ts).Compute(opts)
		runtime.GOMAXPROCS(2)
		two := engine.Evaluate(c.Scorer, ts).Compute(opts)
		runtime.GOMAXPROCS(prev)
		if !enginetest.SameBits(one.Rewards, two.Rewards) {
			t.Errorf("%s: the rewards on two cores differ from one core's", method)
		}
	}
}

// TestMethodIndependentWorkIsKept checks what a method switch reuses: the
// scores of the same weights (the same array), their statistics, the
// valid members and the hypervolumes; new weights get new scores, and an
// evaluation with more trajectories (following a run) computes its own.
func TestMethodIndependentWorkIsKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	c := newTestComputer(t)
	ts := enginetest.ManyBatches(rng, 600, 4)
	ev := engine.Evaluate(c.Scorer, ts)
	opts := c.Options
	first := ev.Compute(opts)
	trends := Trends(first, nil)
	// A hypervolume kept is used again: one changed in the cache shows.
	const kept = 12345.0
	for bi := range first.Ranking.Batches {
		key := hypervolumeKey(first, &first.Ranking.Batches[bi], orientRef(first, DefaultHVRef(first)))
		if _, ok := ev.Cache().Get(key); !ok {
			t.Fatalf("batch %d: no hypervolume kept", bi)
		}
		ev.Cache().Put(key, kept)
	}
	for _, method := range engine.Methods {
		opts.Method = method
		res := ev.Compute(opts)
		if unsafe.SliceData(res.Scores) != unsafe.SliceData(first.Scores) || res.ScoreCache() != first.ScoreCache() {
			t.Fatalf("%s: the scores of the same weights were computed again", method)
		}
		got := Trends(res, nil)
		fresh := Trends(engine.Evaluate(c.Scorer, ts).Compute(opts), nil)
		for bi := range got {
			if got[bi].Hypervolume != kept {
				t.Fatalf("%s batch %d: hypervolume %v computed again", method, bi, got[bi].Hypervolume)
			}
			if trends[bi].Hypervolume != fresh[bi].Hypervolume ||
				got[bi].Score != fresh[bi].Score || got[bi].ScoreGroupStd != fresh[bi].ScoreGroupStd || got[bi].Reward != fresh[bi].Reward {
				t.Fatalf("%s batch %d: trend point %+v, a fresh evaluation's %+v", method, bi, got[bi], fresh[bi])
			}
		}
	}

	opts.Weights = []float64{0.2, 0.5, 0.3}
	weighted := ev.Compute(opts)
	if unsafe.SliceData(weighted.Scores) == unsafe.SliceData(first.Scores) {
		t.Fatal("new weights kept the old scores")
	}
	if !enginetest.SameBits(weighted.Scores, engine.Evaluate(c.Scorer, ts).Compute(opts).Scores) {
		t.Fatal("the scores of new weights differ from a fresh evaluation's")
	}

	// Following: the appended evaluation keeps none of this
	// (TestAppendKeepsNoCaches), and its trends are those of the whole
	// data evaluated afresh.
	more := enginetest.ManyBatches(rng, 200, 6)
	next := ev.Append(c.Scorer, more)
	grown := Trends(next.Recompute(weighted), nil)
	all := Trends(engine.Evaluate(c.Scorer, append(slices.Clone(ts), more...)).Compute(opts), nil)
	for bi := range all {
		if grown[bi].Hypervolume != all[bi].Hypervolume || grown[bi].Reward != all[bi].Reward || grown[bi].Score != all[bi].Score {
			t.Fatalf("batch %d after appending: %+v, evaluated afresh %+v", bi, grown[bi], all[bi])
		}
	}
}

// TestPrepareReusesRewards checks that a finished result's rewards array
// is taken by the next one, which computes the same rewards as a fresh
// one, and that an unfinished result's is not.
func TestPrepareReusesRewards(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	c := newTestComputer(t)
	ts := enginetest.ManyBatches(rng, 500, 5)
	ev := engine.Evaluate(c.Scorer, ts)
	opts := c.Options
	old := ev.Compute(opts)
	array := unsafe.SliceData(old.Rewards)
	opts.Method = engine.GRPO
	res := ev.Prepare(opts, old)
	if unsafe.SliceData(res.Rewards) != array || old.Rewards != nil {
		t.Fatal("the finished result's rewards were not reused")
	}
	res.Finish()
	if !enginetest.SameBits(res.Rewards, engine.Evaluate(c.Scorer, ts).Compute(opts).Rewards) {
		t.Fatal("rewards computed in a reused array differ from a fresh result's")
	}
	unfinished := ev.Prepare(opts, nil)
	if again := ev.Prepare(opts, unfinished); unsafe.SliceData(again.Rewards) == unsafe.SliceData(unfinished.Rewards) {
		t.Fatal("an unfinished result's rewards were reused")
	}
}

// TestGroupSummariesShared checks that the group summaries are computed
// once for the results of the same weights and scope, whatever their
// method, and again for other weights or another scope, each equal to a
// fresh evaluation's field for field.
func TestGroupSummariesShared(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c := newTestComputer(t)
	ts := enginetest.ManyBatches(rng, 500, 5)
	ev := engine.Evaluate(c.Scorer, ts)
	opts := c.Options
	summaries := func(res *engine.Result) []GroupSummary { return GroupSummaries(res, &res.Ranking.Batches[2]) }
	first := summaries(ev.Compute(opts))
	opts.Method = engine.GRPO
	if got := summaries(ev.Prepare(opts, nil)); unsafe.SliceData(got) != unsafe.SliceData(first) {
		t.Error("a method switch computed the group summaries again")
	}
	for _, change := range []struct {
		name string
		set  func(o *engine.Options)
	}{
		{"scope batch", func(o *engine.Options) { o.Scope = engine.ScopeBatch }},
		{"other weights", func(o *engine.Options) { o.Weights = []float64{2, 1, 1} }},
	} {
		o := opts
		change.set(&o)
		got := summaries(ev.Prepare(o, nil))
		if unsafe.SliceData(got) == unsafe.SliceData(first) {
			t.Errorf("%s: the group summaries of other options were reused", change.name)
		}
		want := summaries(engine.Evaluate(c.Scorer, ts).Compute(o))
		// Printed, so that NaN equals NaN; %v writes every float exactly.
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Fatalf("%s: group summaries differ from a fresh result's:\n%+v\n%+v", change.name, got[:2], want[:2])
		}
	}
}
