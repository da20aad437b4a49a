package testkit

import (
	"runtime"

	"github.com/rewardlens/rewardlens/internal/pause"
)

// StopsAt waits until n goroutines wait at g, and reports whether they
// did before done was closed (the work went past the gate, or never came
// to it): it waits on what happens, not on the clock.
func StopsAt(g *pause.Gate, n int, done <-chan struct{}) bool {
	for g.Waiting() < n {
		select {
		case <-done:
			return false
		default:
			runtime.Gosched()
		}
	}
	return true
}
