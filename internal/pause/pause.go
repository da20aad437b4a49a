// Package pause lets work nothing waits for step aside while work that
// something waits for runs. A goroutine cannot be stopped from outside,
// but it can stop itself: the first work waits at a Gate between its
// steps (Wait, or Checkpoint with the gate in its context), which the
// owner of the second holds (Hold) until that work ends (Release). Work
// already running when the gate is held goes on to its next checkpoint
// only, and resumes where it stopped.
package pause

import (
	"context"
	"sync"
)

// Gate is held or open; the zero Gate is open, a nil *Gate always open.
// Its methods are safe to call from several goroutines.
type Gate struct {
	mu sync.Mutex
	// held is nil while the gate is open, else closed by Release.
	held chan struct{}
	// waiting counts the goroutines blocked at the gate.
	waiting int
}

// Hold makes Wait block until Release; holding a held gate, or a nil
// one, does nothing.
func (g *Gate) Hold() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held == nil {
		g.held = make(chan struct{})
	}
}

// Release opens the gate and lets every Wait blocked at it return.
func (g *Gate) Release() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held != nil {
		close(g.held)
		g.held = nil
	}
}

// Held reports whether the gate is held.
func (g *Gate) Held() bool {
	if g == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held != nil
}

// Waiting reports how many goroutines wait at the gate: the work that
// stepped aside.
func (g *Gate) Waiting() int {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}

// Wait returns once the gate is open: at once when it is, or g is nil.
func (g *Gate) Wait() { g.wait(nil) }

// wait returns once the gate is open, or done is closed.
func (g *Gate) wait(done <-chan struct{}) {
	if g == nil {
		return
	}
	g.mu.Lock()
	held := g.held
	if held == nil {
		g.mu.Unlock()
		return
	}
	g.waiting++
	g.mu.Unlock()
	select {
	case <-held:
	case <-done:
	}
	g.mu.Lock()
	g.waiting--
	g.mu.Unlock()
}

type gateKey struct{}

// With returns ctx carrying g, for Checkpoint.
func With(ctx context.Context, g *Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// Checkpoint waits at the gate ctx carries (With), if any, until it is
// open; it returns at once, whatever the gate, once ctx is done, so that
// work stopped there sees ctx's end at its next check.
func Checkpoint(ctx context.Context) {
	g, _ := ctx.Value(gateKey{}).(*Gate)
	g.wait(ctx.Done())
}
