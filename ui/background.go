package ui

import (
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/health"
)

// The screen first: a recompute computes the batch on screen and the
// statistics the tabs show of it (recompute.go); once that result is
// shown, the other batches, the trends and the health checks are computed
// off the event loop, while the header's badge says the health is
// updating. A tab that needs them at once (the Steps tab) waits for the
// same computation rather than doing it again.

// healthJob computes a result's other batches, trends and health
// findings, once, whoever asks first: the background command or a tab.
type healthJob struct {
	result *engine.Result
	cfg    health.Config
	ref    []float64

	once sync.Once
	// running is set when a command starts the job, done when it is over.
	running, done atomic.Bool
	trends        []engine.Trend
	findings      []health.Finding
	// started is set once a background command is due to run the job
	// (event loop only).
	started bool
}

// run computes the job unless it was; it returns once it is computed.
func (j *healthJob) run() {
	j.once.Do(func() {
		j.result.Finish()
		j.trends = j.result.Trends(j.ref)
		j.findings = health.Findings(j.result, j.trends, j.cfg)
		j.done.Store(true)
	})
}

// healthDoneMsg says that a health job finished.
type healthDoneMsg struct{ job *healthJob }

// healthJobOf returns the job of the current result, making it if needed.
func (s *Session) healthJobOf() *healthJob {
	if s.job == nil || s.job.result != s.Result {
		s.job = &healthJob{result: s.Result, cfg: s.HealthConfig, ref: s.HVRef}
	}
	return s.job
}

// healthReady reports whether the current result's health is known.
func (s *Session) healthReady() bool { return s.health.result == s.Result }

// background returns the command that computes what the current result
// still lacks (the other batches, the trends and the health), or nil when
// nothing is missing or it is under way.
func (m *Model) background() tea.Cmd {
	s := m.common.Session
	if s.healthReady() {
		return nil
	}
	j := s.healthJobOf()
	if j.started {
		return nil
	}
	j.started = true
	return tea.Tick(backgroundDelay, func(time.Time) tea.Msg { return backgroundDueMsg{j} })
}

// backgroundDelay is how long the background work waits after a result is
// shown: long enough for its frame to be drawn, on cores the work would
// otherwise take, and for a burst of keys to replace the result first.
const backgroundDelay = 3 * recomputeInterval

// backgroundDueMsg says that job may start.
type backgroundDueMsg struct{ job *healthJob }

// startBackground runs job in a command, unless its result was replaced
// meanwhile.
func (m *Model) startBackground(j *healthJob) tea.Cmd {
	if j.result != m.common.Session.Result {
		return nil
	}
	j.running.Store(true)
	return func() tea.Msg {
		j.run()
		return healthDoneMsg{j}
	}
}

// healthDone takes a finished job's trends and findings when its result is
// still the one shown (else they are dropped), and updates the badge.
func (m *Model) healthDone(msg healthDoneMsg) tea.Cmd {
	s := m.common.Session
	j := msg.job
	if j.result != s.Result {
		return nil
	}
	if !s.healthReady() {
		s.health = healthCache{j.result, j.trends, j.findings}
	}
	m.header.refresh(s)
	return nil
}

// retire offers a result no longer shown for its arrays to be reused by
// the next recompute: only one whose computation is over (no background
// job still reads it), outside follow mode (whose results extend one
// another's arrays), and not the Compare tab's.
func (m *Model) retire(old *engine.Result) {
	s := m.common.Session
	if m.live != nil || old == nil || old == s.Result || old == s.compare || !old.Finished() {
		return
	}
	if s.job != nil && s.job.result == old && s.job.running.Load() && !s.job.done.Load() {
		return // a background command reads it
	}
	m.rc.spare = old
}
