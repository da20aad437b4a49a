package pause_test

import (
	"context"
	"testing"

	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// waits runs wait in a goroutine and returns a channel closed once it
// returned.
func waits(wait func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		wait()
		close(done)
	}()
	return done
}

func TestWaitBlocksWhileHeld(t *testing.T) {
	var g pause.Gate
	g.Wait() // the zero gate is open
	g.Hold()
	g.Hold() // twice: one Release opens it
	if !g.Held() {
		t.Fatal("Held() = false after Hold")
	}
	first, second := waits(g.Wait), waits(g.Wait)
	if !testkit.StopsAt(&g, 2, first) || !testkit.StopsAt(&g, 2, second) {
		t.Fatal("Wait returned while the gate was held")
	}
	g.Release()
	<-first
	<-second
	if g.Held() || g.Waiting() != 0 {
		t.Errorf("after Release: held %v, %d waiting", g.Held(), g.Waiting())
	}
	g.Release() // releasing an open gate does nothing
	g.Wait()
}

func TestNilGateIsOpen(t *testing.T) {
	var g *pause.Gate
	g.Hold()
	g.Wait()
	g.Release()
	if g.Held() || g.Waiting() != 0 {
		t.Error("a nil gate is held")
	}
	pause.Checkpoint(pause.With(context.Background(), nil))
}

func TestCheckpoint(t *testing.T) {
	pause.Checkpoint(context.Background()) // no gate: returns at once
	var g pause.Gate
	g.Hold()
	ctx, cancel := context.WithCancel(pause.With(context.Background(), &g))
	done := waits(func() { pause.Checkpoint(ctx) })
	if !testkit.StopsAt(&g, 1, done) {
		t.Fatal("Checkpoint returned while the gate was held")
	}
	g.Release()
	<-done

	g.Hold()
	done = waits(func() { pause.Checkpoint(ctx) })
	if !testkit.StopsAt(&g, 1, done) {
		t.Fatal("Checkpoint returned while the gate was held")
	}
	cancel()
	<-done // ctx done: returns though the gate is held
	if !g.Held() || g.Waiting() != 0 {
		t.Errorf("after the end of ctx: held %v, %d waiting", g.Held(), g.Waiting())
	}
}
