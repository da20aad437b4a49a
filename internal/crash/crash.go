// Package crash restores what a panic would leave broken: a panic in a
// goroutine ends the process at once, without running the deferred calls
// of the other goroutines, so the dashboard's terminal stayed in the
// alternate screen, its cursor hidden and mouse reporting on. Every
// goroutine rewardlens starts defers Recover; the dashboard registers, with
// OnPanic, how to give the terminal back.
package crash

import (
	"sync"
	"sync/atomic"
)

var (
	mu        sync.Mutex
	cleanup   func()
	panicking atomic.Bool
)

// OnPanic makes f run when a goroutine that defers Recover panics, before
// the panic goes on; the returned function unregisters it. One function
// is registered at a time.
func OnPanic(f func()) (unregister func()) {
	mu.Lock()
	cleanup = f
	mu.Unlock()
	return func() {
		mu.Lock()
		cleanup = nil
		mu.Unlock()
	}
}

// Recover, deferred first in a goroutine, runs the function OnPanic
// registered when the goroutine panics, once, then panics again with the
// same value: the process ends as it would have, with the panic and the
// goroutine's stack on stderr (exit status 2).
func Recover() {
	p := recover()
	if p == nil {
		return
	}
	if panicking.CompareAndSwap(false, true) {
		mu.Lock()
		f := cleanup
		mu.Unlock()
		if f != nil {
			f()
		}
	}
	panic(p)
}

// Panicking reports whether a goroutine that defers Recover is panicking:
// the process is about to end, and the goroutine that waited on what the
// panic stopped should wait for that instead of going on.
func Panicking() bool { return panicking.Load() }
