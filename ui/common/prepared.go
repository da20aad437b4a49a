package common

import "sync"

// Prepared holds what a JobPreparer's job makes of a recompute's result,
// T, for the tab's refresh on that result to take. The protocol:
//   - on the event loop, PrepareJob starts it (Start) with what the job
//     reads, set before the job exists;
//   - off the event loop, the job makes it (prepare, which Start returns)
//     under its lock, held from the job's start to its end, and done once
//     the job ends;
//   - on the event loop, a refresh takes it (Take) once done. One that
//     finds it unfinished, the lock held by the job or the job not run
//     yet, does not wait: it gets nothing and leaves it held for a later
//     refresh. Once taken, or let go of (Drop), the tab holds none.
//
// The zero Prepared holds none.
type Prepared[T any] struct {
	making *making[T]
}

// making is one job's T, shared by the tab and the job.
type making[T any] struct {
	sync.Mutex
	done bool
	made T
}

// Start holds made, what the job reads, in place of any held, and returns
// what the job makes it with: prepare, called off the event loop, runs
// fill on it under its lock, then marks it done.
func (p *Prepared[T]) Start(made T) (prepare func(fill func(made *T))) {
	m := &making[T]{made: made}
	p.making = m
	return m.prepare
}

// prepare is the prepare Start returns.
func (m *making[T]) prepare(fill func(made *T)) {
	m.Lock()
	defer m.Unlock()
	fill(&m.made)
	m.done = true
}

// Take returns what the job made once it is done, and holds none; else
// nil, held still (none started, or unfinished).
func (p *Prepared[T]) Take() *T {
	m := p.making
	if m == nil || !m.TryLock() {
		return nil
	}
	defer m.Unlock()
	if !m.done {
		return nil
	}
	p.making = nil
	return &m.made
}

// Held returns the T held, made or not, or nil: started and neither
// taken nor let go of. What the job writes in it is read only once the
// job has ended.
func (p *Prepared[T]) Held() *T {
	if p.making == nil {
		return nil
	}
	return &p.making.made
}

// Drop lets go of the T held, made or not: a job still running makes it
// for nobody.
func (p *Prepared[T]) Drop() { p.making = nil }
