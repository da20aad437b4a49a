package session

import (
	"context"
	"fmt"
	"maps"
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
// The findings are graded with the steps in provisional graded
// provisionally (health.Config.Provisional), and graded again when those
// change: a followed step read in part taken as complete, or a later one
// started, or a file's unfinished last line said or ended.
type healthCache struct {
	result      *engine.Result
	trends      []diagnose.Trend
	findings    []health.Finding
	provisional map[int64]string
	// baseline is how many of the first batches the baseline spans
	// (health.BaselineLen), fewer than the setting when one of them is
	// provisional in a short run.
	baseline int
}

// cacheOf returns the health of result, its findings graded under cfg.
func cacheOf(result *engine.Result, trends []diagnose.Trend, findings []health.Finding, cfg health.Config) healthCache {
	return healthCache{result, trends, findings, cfg.Provisional, health.BaselineLen(trends, cfg)}
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

// Baseline returns how many of the first batches the baseline of the
// current health spans (health.BaselineLen), 0 until its health job is
// done (HealthReady).
func (s *Session) Baseline() int {
	if !s.HealthReady() {
		return 0
	}
	return s.health.baseline
}

// HealthJob computes a result's other batches, trends and health
// findings, once, whoever asks first: the background command or a tab.
type HealthJob struct {
	result *engine.Result
	cfg    health.Config
	ref    []float64
	dead   *deadSignal // nil without the prompts' columns
	// logged is the logged-advantage check to make of the result, nil
	// when the session's holds (loggedCheckOf) or the job regrades.
	logged *loggedCheck
	// regrade is set when the trends are the session's, of the same
	// result: only the steps graded provisionally changed, so the job
	// grades them again; it checks the log no more (a followed update's
	// LoggedJob does).
	regrade bool

	once sync.Once
	// running is set when a command starts the job, done when it is over.
	running, done atomic.Bool
	trends        []diagnose.Trend
	findings      []health.Finding
	// started is set once a background command is due to run the job
	// (event loop only).
	started bool
	// over is set once the job landed (HealthDone) or its command was
	// dropped before it started (Drop): the health it graded, if
	// not the current one, needs another job (event loop only).
	over bool
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
		if !j.regrade {
			_ = j.result.FinishContext(ctx) // never ends
			j.trends, _ = diagnose.TrendsContext(ctx, j.result, j.ref)
			pause.Checkpoint(ctx)
			j.dead.add(j.result, j.trends)
		}
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

// Start marks j as run by a command, before the command starts: its result
// is not reused while it runs (Unused).
func (j *HealthJob) Start() { j.running.Store(true) }

// HealthDone takes the trends and findings of j, finished, when its
// result is still the current one, and reports whether it is (else they
// are dropped). Taken when the steps graded provisionally changed while
// it ran, they are not the current health (HealthReady), whose job then
// grades the trends again (HealthJob) rather than compute them anew.
func (s *Session) HealthDone(j *HealthJob) bool {
	if j.result != s.Result {
		j.over = true
		return false
	}
	if !s.HealthReady() {
		s.health = cacheOf(j.result, j.trends, j.findings, j.cfg)
	}
	j.over = !s.HealthReady() // its grading is not the current one
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

// HealthJob returns the job of the current health, making it if needed:
// the session's job while it is still wanted (HealthJobCurrent) and has
// neither landed nor been dropped; else, when the result's trends are
// known and only the steps graded provisionally changed, a job that
// grades them again, or one that computes them.
func (s *Session) HealthJob() *HealthJob {
	if s.job != nil && !s.job.over && s.HealthJobCurrent(s.job) {
		return s.job
	}
	s.job = &HealthJob{result: s.Result, cfg: s.healthConfig(), ref: s.HVRef, dead: s.deadSignal()}
	if s.health.result == s.Result {
		s.job.trends, s.job.regrade = s.health.trends, true
	} else {
		s.job.logged = loggedCheckOf(s.Result, &s.logged)
	}
	return s.job
}

// HealthJobCurrent reports whether j's work is still wanted: it grades
// the current result with the steps now provisional graded so, or it
// computes the current result's trends, which no health holds yet (a
// change of the provisional steps meanwhile grades them again once they
// land: HealthDone).
func (s *Session) HealthJobCurrent(j *HealthJob) bool {
	if j.result != s.Result {
		return false
	}
	if !j.regrade && s.health.result != s.Result {
		return true
	}
	return maps.Equal(j.cfg.Provisional, s.healthConfig().Provisional)
}

// Drop notes that the command due to run j did not start it, j being no
// longer wanted (HealthJobCurrent): the next HealthJob makes another
// rather than hand back j, claimed, which no command would run (event
// loop only).
func (j *HealthJob) Drop() { j.over = true }

// HealthReady reports whether the current health is known: that of the
// current result, with the steps now provisional graded so.
func (s *Session) HealthReady() bool {
	if s.health.result != s.Result {
		return false
	}
	if s.health.provisional == nil && len(s.stillWritten) == 0 && s.readInPart.why == "" {
		return true // nothing provisional, before or now
	}
	return maps.Equal(s.health.provisional, s.healthConfig().Provisional)
}

// SetStillWritten notes paths, the files whose unfinished last line the
// reading left out (loaders.LastLinesLeftOut; following, those not read
// since and those unended): the health computed from now on grades the
// step of each one's last row read provisionally. A follower sets them
// before it applies an update, whose health is then graded so.
func (s *Session) SetStillWritten(paths []string) { s.stillWritten = paths }

// SetReadInPart notes that the followed step is probably read in part,
// with why (follow.Partial), or, why "", that no step is: the health
// grades that step provisionally, as stats --follow does, and is graded
// again (HealthJob) when this changes.
func (s *Session) SetReadInPart(step int64, why string) {
	s.readInPart.step, s.readInPart.why = step, why
}

// GradeReadInPart has each followed update (ApplyUpdate) note, before
// its health is graded, the newest step probably read in part and why
// (readInPart: its step, and "" for none), as SetReadInPart does: the
// update's health is then graded so at once, not again after it.
func (s *Session) GradeReadInPart(readInPart func(res *engine.Result) (step int64, why string)) {
	s.readInPartOf = readInPart
}

// healthConfig is HealthConfig with, as Provisional, the steps of the
// files still being written (SetStillWritten) at the step of each one's
// last row read now (loaders.StillWritten), and the followed step read
// in part (SetReadInPart) with its own why unless its file's unfinished
// line gives one: stats --follow gives that one first
// (statsFollower.partial).
func (s *Session) healthConfig() health.Config {
	cfg := s.HealthConfig
	if len(s.stillWritten) > 0 {
		cfg.Provisional = loaders.StillWritten(s.stillWritten, s.lastStep)
	}
	if s.readInPart.why != "" && cfg.Provisional[s.readInPart.step] == "" {
		if cfg.Provisional == nil {
			cfg.Provisional = map[int64]string{}
		}
		cfg.Provisional[s.readInPart.step] = s.readInPart.why
	}
	return cfg
}
