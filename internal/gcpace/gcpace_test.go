package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestSteady sets the steady pace and restores the previous one, and
// leaves the user's GOGC alone.
func TestSteady(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := Steady()
	if got := debug.SetGCPercent(SteadyPercent); got != SteadyPercent {
		t.Errorf("GOGC %d after Steady, want %d", got, SteadyPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC %d after restore, want 100", got)
	}
	t.Setenv("GOGC", "300")
	debug.SetGCPercent(300)
	Steady()()
	if got := debug.SetGCPercent(100); got != 300 {
		t.Errorf("GOGC %d with GOGC=300 set by the user, want it left at 300", got)
	}
}

// TestBusy: under Steady, Busy lets the heap grow by BusyHeadroom or the
// live heap, whichever is less, until Idle sets SteadyPercent back; Idle
// does nothing once another burst began since its caller looked, even one
// begun while busy; Busy does nothing once Steady is restored, while
// Following, or when Steady left the user's GOGC.
func TestBusy(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := Steady()
	Busy()
	if got := gogc(); got != GrowingPercent { // a test's heap is small
		t.Errorf("GOGC %d when busy, want %d", got, GrowingPercent)
	}
	looked := Bursts()
	Busy() // already busy: another burst, the pace kept
	if got := gogc(); got != GrowingPercent {
		t.Errorf("GOGC %d busy again, want %d", got, GrowingPercent)
	}
	Idle(looked)
	if got := gogc(); got != GrowingPercent {
		t.Errorf("GOGC %d after an Idle asked before the last burst, want the burst's %d", got, GrowingPercent)
	}
	Idle(Bursts())
	if got := gogc(); got != SteadyPercent {
		t.Errorf("GOGC %d once idle, want %d", got, SteadyPercent)
	}
	restore()
	defer func(h uint64) { headroom = h }(headroom)
	headroom = 0 // Following at SteadyPercent, where Busy would raise it
	restoreFollowing := Following()
	following := gogc()
	Busy()
	if got := gogc(); got != following {
		t.Errorf("GOGC %d busy while Following, want Following's %d", got, following)
	}
	restoreFollowing()
	Busy()
	if got := gogc(); got != 100 {
		t.Errorf("GOGC %d busy after Steady was restored, want the 100 before", got)
	}

	t.Setenv("GOGC", "300")
	debug.SetGCPercent(300)
	defer Steady()() // the user's GOGC: nothing to pace
	Busy()
	if got := gogc(); got != 300 {
		t.Errorf("GOGC %d busy with GOGC=300 set by the user, want it left at 300", got)
	}
	for _, c := range []struct {
		live uint64
		want int
	}{{0, GrowingPercent}, {100 << 20, GrowingPercent}, {512 << 20, 50}, {10 << 30, SteadyPercent}} {
		if got := busyPercent(c.live); got != c.want {
			t.Errorf("busyPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// gogc reads the collector's GOGC without changing it.
func gogc() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// awaitGOGC collects until Following's look after a collection has set
// want, or fails after a few seconds.
func awaitGOGC(t *testing.T, want int64, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); gogc() != want; {
		if time.Now().After(deadline) {
			t.Fatalf("%s: GOGC %d, want %d", what, gogc(), want)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// seeGOGC reports whether the collector's GOGC is want within d, without
// collecting.
func seeGOGC(want int64, d time.Duration) bool {
	for deadline := time.Now().Add(d); gogc() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestSteadyPercent checks the pace of a live heap that does not grow
// against hand-computed values: headroom's percent of the live heap,
// between SteadyPercent and GrowingPercent.
func TestSteadyPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},
		{headroom / 2, 100},
		{headroom, 100},
		{headroom * 2, 50},
		{headroom * 4, 25},
		{headroom * 5, 20},
		{headroom * 100, 20},
	} {
		if got := steadyPercent(c.live); got != c.want {
			t.Errorf("steadyPercent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// burst holds the test's growing live data.
var burst [][]byte

// TestFollowingByPhase checks Following's pace: steady at first, relaxed
// while the live heap grows from one collection to the next, steady again
// once it stops, the previous setting back at the end; and the user's
// GOGC left alone. The headroom is made small, so that a heap of a few
// megabytes is paced as a large one.
func TestFollowingByPhase(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	kept := headroom
	headroom = 64 << 10
	defer func() { headroom = kept }()
	data := make([]byte, 8<<20) // the data followed so far
	runtime.GC()
	restore := Following()
	if got := gogc(); got != SteadyPercent {
		t.Fatalf("GOGC %d once Following, want %d", got, SteadyPercent)
	}
	// Each collection finds more live. The look after one runs on the
	// cleanup goroutine: it is waited for before the next collection, or
	// a later look, finding the heap no longer growing, could set the
	// steady pace back before the test saw the relaxed one.
	for range 8 {
		burst = append(burst, make([]byte, 4<<20))
		runtime.GC()
		if seeGOGC(GrowingPercent, time.Second) {
			break
		}
	}
	if got := gogc(); got != GrowingPercent {
		t.Fatalf("live heap growing: GOGC %d, want %d", got, GrowingPercent)
	}
	burst = nil
	awaitGOGC(t, SteadyPercent, "live heap no longer growing")
	runtime.KeepAlive(data)
	restore()
	if got := gogc(); got != 100 {
		t.Errorf("GOGC %d after restore, want 100", got)
	}
	runtime.GC() // a look after restore changes nothing
	time.Sleep(10 * time.Millisecond)
	if got := gogc(); got != 100 {
		t.Errorf("GOGC %d after a collection past restore, want 100", got)
	}

	t.Setenv("GOGC", "300")
	debug.SetGCPercent(300)
	Following()()
	if got := gogc(); got != 300 {
		t.Errorf("GOGC %d with GOGC=300 set by the user, want it left at 300", got)
	}
}

// TestIdleCollectsAtTheBurstsPace: Idle collects before it sets the
// steady pace back, and leaves the pace raised for a burst begun while it
// collects, until that burst's own Idle.
func TestIdleCollectsAtTheBurstsPace(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	defer Steady()()
	defer func(f func()) { freeOSMemory = f }(freeOSMemory)
	var during int64
	freeOSMemory = func() { during = gogc() }
	Busy()
	Idle(Bursts())
	if during != GrowingPercent || gogc() != SteadyPercent {
		t.Errorf("GOGC %d while collecting, %d after, want %d then %d", during, gogc(), GrowingPercent, SteadyPercent)
	}
	Busy()
	freeOSMemory = func() { Busy() } // a key pressed meanwhile
	Idle(Bursts())
	if got := gogc(); got != GrowingPercent {
		t.Errorf("GOGC %d after an Idle during which a burst began, want %d", got, GrowingPercent)
	}
	freeOSMemory = func() {}
	Idle(Bursts())
	if got := gogc(); got != SteadyPercent {
		t.Errorf("GOGC %d once that burst's Idle ran, want %d", got, SteadyPercent)
	}
}
