package cmd

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStatsFollowComputesARunOfPartsOnce feeds stats --follow's follower
// the sample experiment's steps 10 to 39 in parts of 300 trajectories
// (cut inside batches) that say more follows (loaders.Update.Behind): it
// prints nothing until the part that ends the run, then the very lines
// of a follower that computes every part; parts left behind (the rest
// never came) are computed when the input goes quiet (catchUp); and a run
// of parts longer than the quiet delay is computed then, not only at its
// end.
func TestStatsFollowComputesARunOfPartsOnce(t *testing.T) {
	res, err := loaders.Load([]string{samplePath}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const perStep = 128
	first, rest := res.Trajectories[:10*perStep], res.Trajectories[10*perStep:40*perStep]
	parts := slices.Collect(slices.Chunk(rest, 300))
	ctx := context.Background()
	start := func() (*statsFollower, *strings.Builder) { return startedFollower(t, first) }
	feed := func(f *statsFollower, parts [][]scoring.Trajectory, behind bool) {
		for _, p := range parts {
			u := loaders.Update{Trajectories: slices.Clone(p), Behind: behind}
			if err := f.update(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	each, eachOut := start()
	feed(each, parts, false)
	run, runOut := start()
	before := runOut.String()
	feed(run, parts[:len(parts)-1], true)
	if runOut.String() != before || !run.stale {
		t.Fatalf("parts said to be followed by more were computed:\n%s", strings.TrimPrefix(runOut.String(), before))
	}
	feed(run, parts[len(parts)-1:], false)
	if runOut.String() != eachOut.String() || run.stale {
		t.Errorf("computed at the run's end:\n%s\nwant, part by part:\n%s", runOut.String(), eachOut.String())
	}
	if !strings.Contains(runOut.String(), "step 38 ") {
		t.Errorf("no line of step 38:\n%s", runOut.String())
	}

	// The rest never comes: the quiet delay computes what came.
	cut, cutOut := start()
	feed(cut, parts[:3], true)
	if err := cut.catchUp(ctx); err != nil {
		t.Fatal(err)
	}
	eachCut, eachCutOut := start()
	feed(eachCut, parts[:3], false)
	if cutOut.String() != eachCutOut.String() || cut.stale {
		t.Errorf("caught up:\n%s\nwant:\n%s", cutOut.String(), eachCutOut.String())
	}
	long, longOut := start()
	feed(long, parts[:1], true)
	long.staleSince = long.staleSince.Add(-followQuiet) // as if read that long ago
	feed(long, parts[1:2], true)
	each2, each2Out := start()
	feed(each2, parts[:2], false)
	if longOut.String() != each2Out.String() || long.stale {
		t.Errorf("a run of parts stale for the quiet delay:\n%s\nwant:\n%s", longOut.String(), each2Out.String())
	}
}

// TestStatsFollowInterruptComputesWhatWasRead: at the interrupt, stats
// --follow computes and prints every trajectory read: parts said to be
// followed by more (stale), an update whose compute the interrupt
// stopped, and an update the follower sent as it closed; the lines are
// those of a follower that computed each as it came, then was
// interrupted.
func TestStatsFollowInterruptComputesWhatWasRead(t *testing.T) {
	res, err := loaders.Load([]string{samplePath}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const perStep = 128
	first, rest := res.Trajectories[:10*perStep], res.Trajectories[10*perStep:16*perStep]
	parts := slices.Collect(slices.Chunk(rest, 300))
	interrupt, stop := context.WithCancel(context.Background())
	stop()
	start := func() (*statsFollower, *strings.Builder) { return startedFollower(t, first) }
	update := func(f *statsFollower, ctx context.Context, p []scoring.Trajectory, behind bool) error {
		return f.update(ctx, loaders.Update{Trajectories: slices.Clone(p), Behind: behind})
	}
	// end interrupts f, the follower sending last (nil for none).
	end := func(f *statsFollower, last []scoring.Trajectory) {
		updates := make(chan loaders.Update, 1)
		if last != nil {
			updates <- loaders.Update{Trajectories: slices.Clone(last)}
		}
		close(updates)
		if err := f.interrupted(interrupt, interrupt.Err(), updates); err != nil {
			t.Fatal(err)
		}
	}
	want, wantOut := start()
	for _, p := range parts {
		if err := update(want, context.Background(), p, false); err != nil {
			t.Fatal(err)
		}
	}
	end(want, nil)
	if !strings.Contains(wantOut.String(), "step 15 ") {
		t.Fatalf("no line of step 15:\n%s", wantOut.String())
	}

	got, gotOut := start()
	n := len(parts)
	for _, p := range parts[:n-2] {
		if err := update(got, context.Background(), p, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := update(got, interrupt, parts[n-2], false); !errors.Is(err, context.Canceled) {
		t.Fatalf("an update computed as the interrupt came: error %v, want it stopped", err)
	}
	end(got, parts[n-1])
	if gotOut.String() != wantOut.String() {
		t.Errorf("interrupted with parts read, not computed:\n%s\nwant:\n%s", gotOut.String(), wantOut.String())
	}

	// An update's compute stopped, nothing stale before it.
	want, wantOut = start()
	if err := update(want, context.Background(), parts[0], false); err != nil {
		t.Fatal(err)
	}
	end(want, nil)
	got, gotOut = start()
	if err := update(got, interrupt, parts[0], false); !errors.Is(err, context.Canceled) {
		t.Fatalf("an update computed as the interrupt came: error %v, want it stopped", err)
	}
	end(got, nil)
	if gotOut.String() != wantOut.String() {
		t.Errorf("interrupted as an update was computed:\n%s\nwant:\n%s", gotOut.String(), wantOut.String())
	}
}

// TestStatsFollowInterruptBeforeAFileReadAgain: an interrupt that stops
// the catch-up of the parts read (stale) before a file read again
// (loaders.Update.Reloaded) leaves takes that file's new reading into the
// end's compute: every trajectory read computed, the lines those of a
// follower that was interrupted after it applied the update. They were
// left out, without an error: the update returned before its rows reached
// the live evaluation.
func TestStatsFollowInterruptBeforeAFileReadAgain(t *testing.T) {
	res, err := loaders.Load([]string{samplePath}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const perStep = 128
	first, stale, again := res.Trajectories[:10*perStep], res.Trajectories[10*perStep:12*perStep], res.Trajectories[:13*perStep]
	reloaded := []string{first[0].Source}
	interrupt, stop := context.WithCancel(context.Background())
	stop()
	// follow feeds a follower the first reading, steps 10 and 11 said
	// to be followed by more, then the file read again as steps 0 to
	// 12 under ctx, and interrupts it.
	follow := func(ctx context.Context) (*statsFollower, string) {
		f, out := startedFollower(t, first)
		if err := f.update(context.Background(), loaders.Update{Trajectories: slices.Clone(stale), Behind: true}); err != nil {
			t.Fatal(err)
		}
		err := f.update(ctx, loaders.Update{Reloaded: reloaded, Trajectories: slices.Clone(again)})
		if ctx.Err() != nil && !errors.Is(err, context.Canceled) || ctx.Err() == nil && err != nil {
			t.Fatalf("the file read again, ctx's error %v: %v", ctx.Err(), err)
		}
		updates := make(chan loaders.Update)
		close(updates)
		if err := f.interrupted(interrupt, interrupt.Err(), updates); err != nil {
			t.Fatal(err)
		}
		return f, out.String()
	}
	_, wantOut := follow(context.Background())
	if !strings.Contains(wantOut, "step 12 ") {
		t.Fatalf("no line of step 12:\n%s", wantOut)
	}
	got, gotOut := follow(interrupt)
	if n := got.res.Evaluation.N(); n != len(again) {
		t.Errorf("%d trajectories computed at the end, want the %d of the file read again", n, len(again))
	}
	if gotOut != wantOut {
		t.Errorf("interrupted before the file read again was applied:\n%s\nwant:\n%s", gotOut, wantOut)
	}
}

// startedFollower returns stats --follow's follower (--health) having
// computed first, its first reading, and what it printed.
func startedFollower(t *testing.T, first []scoring.Trajectory) (*statsFollower, *strings.Builder) {
	t.Helper()
	out := &strings.Builder{}
	f := &statsFollower{health: &healthFlags{health: true, baseline: health.DefaultBaseline}, out: out, errOut: &strings.Builder{}, printed: map[int64]printedLine{}, warned: map[givenWarning]bool{}}
	if err := f.evaluate(slices.Clone(first)); err != nil {
		t.Fatal(err)
	}
	if err := f.compute(context.Background()); err != nil {
		t.Fatal(err)
	}
	return f, out
}
