package session

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/loaders"
)

// healthCache holds the trends and the health findings of one result: the
// header needs them after every recompute, the Steps tab on every batch.
type healthCache struct {
	result   *engine.Result
	trends   []diagnose.Trend
	findings []health.Finding
}

// SetHealth sets the health checks' settings and the hypervolume
// reference, checked against the objectives. cfg.RowCap and cfg.Trainer
// are not settings but the reading's, which the session keeps.
func (s *Session) SetHealth(cfg health.Config, ref []float64) error {
	objectives := s.Evaluation.Objectives
	if err := cfg.Validate(objectives); err != nil {
		return fmt.Errorf("health checks: %w", err)
	}
	if err := diagnose.ValidateHVRef(objectives, ref); err != nil {
		return err
	}
	cfg.RowCap, cfg.Trainer = s.HealthConfig.RowCap, s.HealthConfig.Trainer
	s.HealthConfig, s.HVRef = cfg, ref
	s.health, s.job = healthCache{}, nil
	return nil
}

// Trends returns the trend point of every batch of the current result,
// nil until its health job is done (HealthReady). Callers must not modify
// them.
func (s *Session) Trends() []diagnose.Trend {
	if !s.HealthReady() {
		return nil
	}
	return s.health.trends
}

// Findings returns the health findings of the current result, nil until
// its health job is done (HealthReady).
func (s *Session) Findings() []health.Finding {
	if !s.HealthReady() {
		return nil
	}
	return s.health.findings
}

// HealthJob computes a result's other batches, trends and health
// findings, once, whoever asks first: the background command or a tab.
type HealthJob struct {
	result *engine.Result
	cfg    health.Config
	ref    []float64
	dead   *deadSignal // nil without the prompts' columns
	// logged is the logged-advantage check to make of the result, nil
	// when the session's holds (loggedCheckOf).
	logged *loggedCheck

	once sync.Once
	// running is set when a command starts the job, done when it is over.
	running, done atomic.Bool
	trends        []diagnose.Trend
	findings      []health.Finding
	// started is set once a background command is due to run the job
	// (event loop only).
	started bool
}

// Run computes the job unless it was; it returns once it is computed.
func (j *HealthJob) Run() { j.RunPausing(nil) }

// RunPausing is Run waiting at g, while it is held, before each of its
// steps and between the batches (pause.Checkpoint): the background
// command's, which steps aside for work the screen waits for. A caller
// that waits for the job while it is paused waits for g's release.
func (j *HealthJob) RunPausing(g *pause.Gate) {
	j.once.Do(func() {
		ctx := pause.With(context.Background(), g)
		_ = j.result.FinishContext(ctx) // never ends
		j.trends, _ = diagnose.TrendsContext(ctx, j.result, j.ref)
		pause.Checkpoint(ctx)
		j.dead.add(j.result, j.trends)
		j.findings = j.dead.findings(j.result, j.trends, j.cfg)
		if j.logged != nil {
			pause.Checkpoint(ctx)
			j.logged.run(j.result)
		}
		j.done.Store(true)
	})
}

// Claim reports whether no background command was due to run j yet, and
// makes one due (event loop only).
func (j *HealthJob) Claim() bool {
	if j.started {
		return false
	}
	j.started = true
	return true
}

// Computes reports whether j computes the health of r.
func (j *HealthJob) Computes(r *engine.Result) bool { return j.result == r }

// Start marks j as run by a command, before the command starts: its result
// is not reused while it runs (Unused).
func (j *HealthJob) Start() { j.running.Store(true) }

// HealthDone takes the trends and findings of j, finished, when its result
// is still the current one; it reports whether it is (else they are
// dropped).
func (s *Session) HealthDone(j *HealthJob) bool {
	if j.result != s.Result {
		return false
	}
	if !s.HealthReady() {
		s.health = healthCache{j.result, j.trends, j.findings}
	}
	if j.logged != nil {
		s.logged = *j.logged
	}
	return true
}

// Unused reports whether old, a result no longer shown, can have its
// arrays reused: its computation is over, no background job still reads
// it, and it is not the Compare tab's.
func (s *Session) Unused(old *engine.Result) bool {
	if old == nil || old == s.Result || old == s.compare || !old.Finished() {
		return false
	}
	// A background command reads it.
	return s.job == nil || s.job.result != old || !s.job.running.Load() || s.job.done.Load()
}

// HealthJob returns the job of the current result, making it if needed.
func (s *Session) HealthJob() *HealthJob {
	if s.job == nil || s.job.result != s.Result {
		s.job = &HealthJob{result: s.Result, cfg: s.healthConfig(), ref: s.HVRef, dead: s.deadSignal(), logged: loggedCheckOf(s.Result, &s.logged)}
	}
	return s.job
}

// HealthReady reports whether the current result's health is known.
func (s *Session) HealthReady() bool { return s.health.result == s.Result }

// SetStillWritten notes paths, the files whose unfinished last line the
// reading left out (loaders.LastLinesLeftOut; following, those not read
// since and those unended): the health computed from now on grades the
// step of each one's last row read provisionally. A follower sets them
// before it applies an update, whose health is then graded so.
func (s *Session) SetStillWritten(paths []string) { s.stillWritten = paths }

// healthConfig is HealthConfig with, as Provisional, the steps of the
// files still being written (SetStillWritten) at the step of each one's
// last row read now (loaders.StillWritten).
func (s *Session) healthConfig() health.Config {
	cfg := s.HealthConfig
	if len(s.stillWritten) > 0 {
		cfg.Provisional = loaders.StillWritten(s.stillWritten, s.lastSteps())
	}
	return cfg
}

// lastSteps returns the step of each file's last row read
// (loaders.NoteLastSteps of the trajectories), kept as they come.
func (s *Session) lastSteps() map[string]int64 { return s.lastStep }
