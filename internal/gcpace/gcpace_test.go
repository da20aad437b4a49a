package gcpace

import (
	"runtime/debug"
	"testing"
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
