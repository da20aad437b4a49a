package session

import (
	"errors"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/internal/crash"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
)

// ErrNoTrajectories is the load's error for inputs without trajectories.
var ErrNoTrajectories = errors.New("no trajectories to show")

// Open builds the session the dashboard shows from what Load read:
// the computer for cfg, a pareto config's objectives inferred from the
// first trajectory, with the caller's warnings and the skipped lines as
// warnings. (The invalid trajectories are counted by the status line, from
// the current result.) Once evaluated, the trajectories whose bodies can be
// read again are kept lean.
func Open(source string, cfg setup.Config, res *loaders.Result, warnings []string) (*Session, error) {
	ts := res.Trajectories
	if len(ts) == 0 {
		return nil, ErrNoTrajectories
	}
	cfg, c, err := computerFor(cfg, &ts[0])
	if err != nil {
		return nil, err
	}
	e := c.NewEvaluator()
	e.Add(ts)
	ev := e.Evaluation()
	fields := addFirstFields(nil, ts)
	columns, columnsErr := promptColumns(cfg, c.Scorer.Objectives())
	if columns != nil {
		if err := columns.Add(ts); err != nil {
			columns, columnsErr = nil, err
		}
	}
	lastStep := map[string]int64{}
	loaders.NoteLastSteps(lastStep, ts)
	c.LinesLeftOut = loaders.LinesLeftOut(loaders.LastLinesLeftOut(res.Unfinished), lastStep)
	dropBodies(ts)
	c.RowCap = res.RowCap()
	return openedSession(source, trajectoriesOf(ts), lastStep, c, ev, false, func(s *Session) {
		s.Fields = fields
		s.Prompts, s.PromptsErr = columns, columnsErr
		s.finishPrompts()
		s.loaded(cfg, res, warnings)
	}), nil
}

// openedSession returns newSession(source, ts, lastStep, c, ev) after loaded (which
// checks the IDs), with the first frame's statistics computed: the IDs are
// checked on a core of their own meanwhile, as compute does, and for a
// session to be followed noted as they are (FollowedIDs). The trainer's
// output is checked first (agreement.CheckTrainer), as compute
// and stats do: its notes go to the status line, and with --match-logged
// the options found become the computer's.
func openedSession(source string, ts Trajectories, lastStep map[string]int64, c *engine.RewardComputer, ev *engine.Evaluation, followed bool, loaded func(*Session)) *Session {
	var (
		duplicates string
		ids        *follow.Repeats
	)
	checked := make(chan struct{})
	go func() {
		defer crash.Recover()
		defer close(checked)
		duplicates, ids = checkIDs(&ts, followed)
	}()
	check := agreement.CheckTrainer(c, ev)
	c.Options = check.Options
	s := newSession(source, ts, lastStep, c, ev)
	if ev.Logged != nil {
		// Said again as the settings and the rows change (LoggedWarning);
		// until then by the open's check: --match-logged's note says it
		// when no setting reproduces the log, not twice.
		s.logged = loggedCheck{ev: ev, n: ev.N(), options: agreement.TrainerOptions(c.Options), layout: c.Layout, linesLeftOut: c.LinesLeftOut}
		if !c.MatchLogged {
			s.logged.note = check.LoggedNote
			check.Notes = slices.DeleteFunc(check.Notes, func(n agreement.Note) bool { return n.Warning && n.Text == check.LoggedNote })
		}
	}
	diagnose.StatsOf(s.Result, s.CurrentBatch())
	<-checked
	s.duplicates, s.FollowedIDs = duplicates, ids
	loaded(s)
	cut := agreement.CutGroupOf(s.Result, s.logged.rowCap)
	s.logged.cutGroupNote(cut, s.Result)
	// --match-logged's note that no setting reproduces the log stays among
	// the notes: reworded for the group --max-rows cut as the CLI does,
	// which is left out of the groups of unequal size too.
	for _, note := range agreement.CutGroupNotes(check, s.Result, cut) {
		s.Warnings = append(s.Warnings, note.Text) // every entry of the status line warns
	}
	return s
}

// computerFor returns cfg with its objectives inferred from the first
// trajectory, and its computer; a SettingsError when either fails.
func computerFor(cfg setup.Config, first *scoring.Trajectory) (setup.Config, *engine.RewardComputer, error) {
	cfg, err := cfg.InferObjectives(first)
	if err != nil {
		return cfg, nil, SettingsError{Err: err}
	}
	c, err := engine.New(cfg)
	if err != nil {
		return cfg, nil, SettingsError{Err: err, Config: &cfg}
	}
	return cfg, c, nil
}

// SettingsError is the error of settings that the data read does not
// fit: no objective to infer from it, or a computer that cannot be built
// on it. The CLI exits with status 2 on it, as compute does. Config is
// the config the computer could not be built for, its objectives inferred
// from the data (nil when they could not be): the CLI checks a config
// file's names against them.
type SettingsError struct {
	Err    error
	Config *setup.Config
}

func (e SettingsError) Error() string { return e.Err.Error() }

func (e SettingsError) Unwrap() error { return e.Err }

// loaded records the config the session was computed with and its
// warnings: the caller's, the duplicate IDs, in a trainer's layout the
// groups of more than one prompt (as compute and stats say them), the
// lines res skipped and the unfinished files it left out, and whether
// --max-rows stopped res (health.Config.RowCap). The prompts are
// finished.
func (s *Session) loaded(cfg setup.Config, res *loaders.Result, warnings []string) {
	s.Config = cfg
	s.Warnings = append(s.Warnings, warnings...)
	if s.duplicates != "" {
		s.Warnings = append(s.Warnings, s.duplicates)
	}
	s.mixedPrompts = s.mixedPrompts || cfg.EqualGroups
	s.warnMixedPrompts()
	s.Skipped.Read(res.Skipped, res.SkipReasons)
	if w := s.Skipped.Warning(); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
	if res.Capped {
		s.Warnings = append(s.Warnings, res.CappedWarning(s.Trajectories.Len(), cfg.SourceBy != ""))
	}
	// The group --max-rows cut is not graded against the trainer's log,
	// nor blamed on its settings.
	s.HealthConfig.RowCap = res.RowCap()
	s.HealthConfig.Trainer = engine.Trainer(cfg.From) // non_finite's level
	s.logged.rowCap = res.RowCap()
	s.Unfinished = res.Unfinished
	s.stillWritten = loaders.LastLinesLeftOut(res.Unfinished)
	for _, u := range res.Unfinished {
		s.Warnings = append(s.Warnings, u.String())
	}
	if w := res.ReloggedWarning(); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
}

// warnMixedPrompts, in a trainer's layout (mixedPrompts), warns of the
// groups of more than one prompt, in place of what it warned before. The
// batches whose rows are as many as when last checked keep what was
// found in them: an update appends to the newest batches; a file read
// again (Reloads) has every batch checked again. Only the batches checked
// are split into groups (scope group's, whatever the result's scope).
func (s *Session) warnMixedPrompts() {
	if s.Prompts == nil || !s.mixedPrompts {
		return
	}
	if s.mixedOf == nil || s.mixedReloads != s.Reloads {
		s.mixedOf, s.mixedReloads = map[int64]mixedBatch{}, s.Reloads
	}
	var groups []agreement.MixedGroup
	for _, b := range s.Result.Ranking.Batches {
		m, ok := s.mixedOf[b.Step]
		if !ok || m.rows != len(b.Members) {
			if s.Result.Options.Scope != engine.ScopeGroup {
				b = groupsOf(s.Evaluation, b)
			}
			m = mixedBatch{len(b.Members), agreement.MixedPromptsIn(b, s.Prompts.Keys.Of)}
			s.mixedOf[b.Step] = m
		}
		groups = append(groups, m.groups...)
	}
	w := agreement.MixedWarning(groups, s.Config.PromptBy)
	s.Warnings = ReplaceWarning(s.Warnings, s.mixedWarning, w)
	s.mixedWarning = w
}

// groupsOf returns batch b split into its groups of scope group, in
// order of first appearance, as ev.Partition(engine.ScopeGroup) splits it.
func groupsOf(ev *engine.Evaluation, b engine.Batch) engine.Batch {
	index := map[string]int{}
	var groups []engine.Group
	for _, i := range b.Members {
		key := ev.GroupOf(i)
		k, ok := index[key]
		if !ok {
			k = len(groups)
			index[key] = k
			groups = append(groups, engine.Group{Key: key})
		}
		groups[k].Members = append(groups[k].Members, i)
	}
	return engine.Batch{Step: b.Step, Members: b.Members, Groups: groups}
}

// mixedBatch is what warnMixedPrompts found in a batch of rows rows.
type mixedBatch struct {
	rows   int
	groups []agreement.MixedGroup
}

// MixedWarning is the warning of the groups of more than one prompt among
// Warnings, "" for none.
func (s *Session) MixedWarning() string { return s.mixedWarning }

// ReplaceWarning returns warnings with was, if there, taken out and now,
// unless "", added at the end.
func ReplaceWarning(warnings []string, was, now string) []string {
	if was == now {
		return warnings
	}
	if k := slices.Index(warnings, was); was != "" && k >= 0 {
		warnings = slices.Delete(warnings, k, k+1)
	}
	if now != "" {
		warnings = append(warnings, now)
	}
	return warnings
}

// Sizing returns progress, noting the inputs' total size on the way, from
// which add estimates how many trajectories will come.
func (b *Builder) Sizing(progress func(done, total int64)) func(done, total int64) {
	return func(done, total int64) {
		b.size = total
		progress(done, total)
	}
}

// Builder evaluates streamed trajectories and keeps them lean
// (the dashboard's streamed and followed loads).
type Builder struct {
	cfg      setup.Config // inferred from the first trajectory once it came
	computer *engine.RewardComputer
	ev       *engine.Evaluator // nil until the first trajectory
	err      error             // why the computer could not be built (Pick)
	reserved bool              // the evaluator's arrays are sized for the inputs
	ts       Trajectories
	fields   []string // Session.Fields
	// columns are the prompts' columns (Session.Prompts), nil with
	// columnsErr when they cannot be read.
	columns    *prompts.Columns
	columnsErr error
	// size is the inputs' total size in bytes, when known (Sizing).
	size int64
	// pickKeys is the scorer's Pick once the computer is built (nil before,
	// or when it reads more than its objectives' keys): an atomic, since
	// a follower calls Pick on its own goroutine.
	pickKeys atomic.Pointer[scoring.Pick]
	// pickBuilds lets pick build the computer on the first trajectory, as
	// a stream calls Pick on the goroutine that calls add; a follower's
	// Pick only reads pickKeys.
	pickBuilds bool
	// mixedPrompts is Session.mixedPrompts (WarnMixedPrompts).
	mixedPrompts bool
	// followed is set for a session to be followed (Follow).
	followed bool
	// lastStep holds the step of each file's last row added
	// (loaders.NoteLastSteps), for the unfinished lines
	// (engine.RewardComputer.LinesLeftOut).
	lastStep map[string]int64
}

// NewBuilder returns a builder for cfg; with pickBuilds, Pick
// builds the computer on the first trajectory.
func NewBuilder(cfg setup.Config, pickBuilds bool) *Builder {
	return &Builder{cfg: cfg, pickBuilds: pickBuilds, lastStep: map[string]int64{}}
}

// WarnMixedPrompts makes the session warn of the groups of more than one
// prompt as a trainer's layout does (setup.Config.EqualGroups), batch
// after batch as they come, for a follower that leaves EqualGroups off
// to check the groups' sizes itself.
func (b *Builder) WarnMixedPrompts() { b.mixedPrompts = true }

// Follow makes the session one to be followed: the pass that counts its
// repeated IDs notes them for the updates' repeats (FollowedIDs).
func (b *Builder) Follow() { b.followed = true }

// Empty reports whether no trajectory was added yet.
func (b *Builder) Empty() bool { return b.ev == nil }

// start builds the computer and the evaluator on the first trajectory.
func (b *Builder) start(first *scoring.Trajectory) error {
	cfg, c, err := computerFor(b.cfg, first)
	if err != nil {
		return err
	}
	b.cfg, b.computer, b.ev = cfg, c, c.NewEvaluator()
	b.columns, b.columnsErr = promptColumns(cfg, c.Scorer.Objectives())
	if b.columns == nil || !b.columns.ReadsRecords() {
		b.pickKeys.Store(c.Pick())
	} // else the prompts' expressions read the whole records
	return nil
}

// Pick is loaders.Options.Pick: on an input's first trajectory (building
// the computer on the very first, with pickBuilds), it returns the
// metadata keys the scorer reads, so that the loader picks them rather
// than building a map per trajectory, as compute does. The rows are kept
// lean anyway, so nothing else of the metadata is lost; but an input whose
// records cannot be read again (gzip, standard input) keeps its maps for
// the detail view.
func (b *Builder) Pick(first *scoring.Trajectory) *scoring.Pick {
	if b.pickBuilds && b.ev == nil && b.err == nil {
		b.err = b.start(first)
	}
	if first.Format == "" {
		return nil
	}
	return b.pickKeys.Load()
}

// Add evaluates ts and keeps them without their bodies, or, when those
// cannot be read again, with a copy of their metadata: the stream reuses
// the maps.
func (b *Builder) Add(ts []scoring.Trajectory) error {
	if b.err != nil {
		return b.err
	}
	if b.ev == nil {
		if err := b.start(&ts[0]); err != nil {
			return err
		}
	}
	if !b.reserved {
		// Arrays grown as they fill would be copied over and over, into
		// fresh memory each time: a large share of loading a million.
		if n := loaders.ExpectedCount(b.size, ts); n > len(ts) {
			b.ev.Reserve(n)
		}
		b.reserved = true
	}
	b.ev.Add(ts)
	loaders.NoteLastSteps(b.lastStep, ts)
	b.fields = addFirstFields(b.fields, ts)
	if b.columns != nil {
		if err := b.columns.Add(ts); err != nil {
			b.columns, b.columnsErr = nil, err
		}
	}
	// Copied all at once, then made lean where they lie: a copy per
	// trajectory costs a call and a write barrier each.
	from := b.ts.Len()
	b.ts.Append(ts...)
	for i := from; i < b.ts.Len(); i++ {
		if t := b.ts.At(i); !t.DropBody() {
			t.Metadata, t.Picked = maps.Clone(t.Metadata), slices.Clone(t.Picked)
		}
	}
	return nil
}

// Session returns the session of the trajectories added, at least one,
// named source, with the caller's warnings and the skipped lines of res.
func (b *Builder) Session(source string, res *loaders.Result, warnings []string) *Session {
	b.computer.RowCap = res.RowCap()
	// Following, a file whose last line had no line end at the first
	// reading (res.Unended) is being written as a newest file cut is.
	cut := loaders.LastLinesLeftOut(res.Unfinished)
	for _, u := range res.Unended {
		cut = append(cut, u.Path)
	}
	b.computer.LinesLeftOut = loaders.LinesLeftOut(cut, b.lastStep)
	return openedSession(source, b.ts, b.lastStep, b.computer, b.ev.Evaluation(), b.followed, func(s *Session) {
		s.Fields = b.fields
		s.Prompts, s.PromptsErr = b.columns, b.columnsErr
		s.finishPrompts()
		s.mixedPrompts = b.mixedPrompts
		s.loaded(b.cfg, res, warnings)
	})
}
