// Package gcpace sets the garbage collector's pace for a process that
// holds a large live heap for long and adds to it little at a time: the
// dashboard once its data are shown, stats --follow once the first reading
// is over.
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// SteadyPercent is the collector's GOGC that Steady sets: it collects once
// the heap has grown by a fifth rather than doubled. At GOGC=100 the
// garbage of every method switch or followed update would take such a
// process towards twice its data's memory before the first collection;
// the bulk loading before keeps the default, which is faster.
const SteadyPercent = 20

// GrowingPercent is the GOGC that Following sets while the live heap
// grows: the default, as for the first loading.
const GrowingPercent = 100

// growthRatio is how much the live heap must have grown between two
// collections, as a fraction of the earlier one, for Following to count
// the heap as growing: at SteadyPercent a collection comes once the heap
// has grown by a fifth, so a growth of a tenth means that most of what
// was allocated since the last one stayed live.
const growthRatio = 0.1

// headroom is the least growth of the heap past the live heap that
// Following allows before a collection, when not growing: a fifth of a
// small heap is a collection every few megabytes allocated, for a memory
// saving too small to matter. (A variable for the tests.)
var headroom uint64 = 32 << 20

// Steady sets the collector to SteadyPercent, unless the user set GOGC,
// and returns what puts the previous setting back. Until then, Busy and
// Idle pace the collector by phase.
func Steady() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(SteadyPercent)
	phase.Lock()
	phase.steady, phase.busy = true, false
	phase.Unlock()
	return func() {
		phase.Lock()
		phase.steady, phase.busy = false, false
		phase.Unlock()
		debug.SetGCPercent(prev)
	}
}

// BusyHeadroom is how much the heap may grow past the live heap, at most,
// while Busy: the garbage of a burst of work (a method switch, or a tab's
// first visit, on a million trajectories) without a collection, which at
// SteadyPercent would come in the middle of it, marking the whole live
// heap on a core the burst needs.
const BusyHeadroom = 256 << 20

// phase is the pace Steady set: steady while the collector is Steady's,
// busy from Busy to the next Idle; bursts counts the Busy calls.
var phase struct {
	sync.Mutex
	steady, busy bool
	bursts       uint64
}

// Busy paces the collector for a burst of work that the screen waits for
// (the dashboard's recompute, the shown tab's job, the group filter's
// toggle, a change of constraints) and the work that follows it:
// the heap may grow by the live heap or BusyHeadroom, whichever is less
// (at least SteadyPercent), before a collection. Idle sets SteadyPercent
// back. When already busy, or when Steady did not set the pace (while
// Following, or when the user set GOGC), it only counts the burst
// (Bursts).
func Busy() {
	phase.Lock()
	defer phase.Unlock()
	phase.bursts++
	if !phase.steady || phase.busy {
		return
	}
	phase.busy = true
	debug.SetGCPercent(busyPercent(liveHeap()))
}

// Bursts returns how many times Busy was called, for Idle to tell whether
// another burst began since its caller decided to collect.
func Bursts() uint64 {
	phase.Lock()
	defer phase.Unlock()
	return phase.bursts
}

// busyPercent is Busy's GOGC for a live heap of live bytes: BusyHeadroom's
// percent of it, at least SteadyPercent and at most GrowingPercent.
func busyPercent(live uint64) int { return roomPercent(live, BusyHeadroom) }

// roomPercent is the GOGC that lets a live heap of live bytes grow by
// room: room's percent of it, at least SteadyPercent and at most
// GrowingPercent (GrowingPercent for no live heap).
func roomPercent(live, room uint64) int {
	if live == 0 {
		return GrowingPercent
	}
	return int(min(max(room*100/live, SteadyPercent), GrowingPercent))
}

// liveHeap returns the heap the last collection found live, 0 when the
// runtime does not say.
func liveHeap() uint64 {
	s := [1]metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Idle ends a burst of work. It collects the garbage and returns the
// memory the collection frees to the operating system
// (debug.FreeOSMemory), then sets SteadyPercent back if Busy raised it.
// For a process that holds a large live heap, the resident memory is then
// about that heap: not the heap with the garbage the burst left and the
// pages the runtime keeps for later, which it would otherwise give back
// only slowly. It blocks until done: call it off the event loop, once
// idle. bursts is Bursts when the caller found the process idle: if Busy
// began another burst since (a key pressed meanwhile), Idle does nothing
// rather than collect in the middle of it; if one begins while it
// collects, the pace stays raised for it.
func Idle(bursts uint64) {
	phase.Lock()
	stale := phase.bursts != bursts
	phase.Unlock()
	if stale {
		return
	}
	// Collected at the burst's pace: at the steady one the heap would be
	// far past its goal, and every goroutine that allocates meanwhile
	// (the event loop drawing a frame) would be made to help mark it.
	freeOSMemory()
	phase.Lock()
	defer phase.Unlock()
	if phase.busy && phase.bursts == bursts { // not if another burst began meanwhile
		phase.busy = false
		debug.SetGCPercent(SteadyPercent)
	}
}

// freeOSMemory is debug.FreeOSMemory (a variable for the tests).
var freeOSMemory = debug.FreeOSMemory

// Following is Steady for a process that follows growing inputs, paced by
// phase: after each collection it looks at the live heap, and while that
// grows by more than growthRatio from one collection to the next (a burst
// of new lines being read and evaluated: data, not garbage) it sets
// GrowingPercent; once the live heap stops growing (the burst digested,
// its lines let go), SteadyPercent, or the percent of the live heap that
// headroom is if that is more (at most GrowingPercent). At SteadyPercent
// the collector would mark the growing heap again at every fifth of
// growth. Unless the user set GOGC; restore puts the previous setting
// back and stops looking.
func Following() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	p := new(pacer)
	p.lastLive = liveHeap()
	p.percent = steadyPercent(p.lastLive)
	p.prev = debug.SetGCPercent(p.percent)
	p.arm()
	return p.stop
}

// pacer is Following's state. Its cycle runs as a cleanup after each
// collection, on the runtime's cleanup goroutine.
type pacer struct {
	mu       sync.Mutex
	stopped  bool
	prev     int // the GOGC before Following
	percent  int // the GOGC set
	lastLive uint64
}

// sentinel is allocated for a collection to find unreachable: large enough
// not to share a tiny allocator's block with other objects, whose life
// would delay its cleanup.
type sentinel struct{ _ [32]byte }

// arm has cycle called after the next collection.
func (p *pacer) arm() {
	runtime.AddCleanup(new(sentinel), (*pacer).cycle, p)
}

// cycle sets the pace from the live heap the last collection left, and
// arms the next look.
func (p *pacer) cycle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	live := liveHeap()
	want := steadyPercent(live)
	if float64(live) > float64(p.lastLive)*(1+growthRatio) {
		want = GrowingPercent
	}
	if want != p.percent {
		debug.SetGCPercent(want)
		p.percent = want
	}
	p.lastLive = live
	p.arm()
}

// steadyPercent is the GOGC of a live heap of live bytes that does not
// grow: SteadyPercent, or headroom's percent of it if that is more, at
// most GrowingPercent.
func steadyPercent(live uint64) int { return roomPercent(live, headroom) }

// stop puts the GOGC before Following back and stops the looks.
func (p *pacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		debug.SetGCPercent(p.prev)
	}
}
