// Package gcpace sets the garbage collector's pace for a process that
// holds a large live heap for long and adds to it little at a time: the
// dashboard once its data are shown, stats --follow once the first reading
// is over.
package gcpace

import (
	"os"
	"runtime/debug"
)

// SteadyPercent is the collector's GOGC that Steady sets: it collects once
// the heap has grown by a fifth rather than doubled. At GOGC=100 the
// garbage of every method switch or followed update would take such a
// process towards twice its data's memory before the first collection;
// the bulk loading before keeps the default, which is faster.
const SteadyPercent = 20

// Steady sets the collector to SteadyPercent, unless the user set GOGC,
// and returns what puts the previous setting back.
func Steady() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(SteadyPercent)
	return func() { debug.SetGCPercent(prev) }
}
