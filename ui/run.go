package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
)

// Input tells the dashboard what to open.
type Input struct {
	Source   string                                                          // "sample" or the file names, for the header
	Config   engine.Config                                                   // as configured, before InferObjectives
	Load     func(progress func(done, total int64)) (*loaders.Result, error) // reads the inputs; calls progress as bytes are read
	Warnings []string                                                        // shown in the status line
	Layout   string                                                          // how the inputs were read ("read as verl rollout dumps: ..."), "" for plain records
	Health   health.Config                                                   // the health checks' settings
	HVRef    []float64                                                       // the hypervolume reference, nil for the default
	// Follow, when not nil, reads the inputs instead of Load and follows
	// them (loaders.Follow), handing the trajectories of the first reading
	// to hooks.Each as loaders.FollowOptions.Each does: the dashboard
	// evaluates them as they come and keeps them lean, as with Stream,
	// then shows the updates as they come (live.go). hooks.Pick is called
	// on the follower's goroutine too. The follower is stopped by the
	// caller's context.
	Follow func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error)
	// Stream, when not nil, reads the inputs instead of Load, handing
	// their trajectories to hooks.Each as it reads them, as loaders.Stream
	// does: the dashboard evaluates them as they come and keeps them lean
	// (engine.Trajectory.DropBody), so that the responses and metadata of
	// a large input are never all in memory at once.
	Stream func(hooks StreamHooks) (*loaders.Result, error)
}

// StreamHooks are what the dashboard gives Input.Stream to call: Progress
// and Pick are loaders.Options' fields of those names, Each is
// loaders.Stream's each.
type StreamHooks struct {
	Progress func(done, total int64)
	Pick     func(first *engine.Trajectory) *engine.Pick
	Each     func(ts []engine.Trajectory) error
}

// Run opens the dashboard on in, full screen: a loading screen with a
// progress bar while in.Load reads, then the tabs. It returns when the user
// quits or ctx ends, with the error that stopped the load, if any (the
// loading screen shows it first). Colours follow the terminal's background
// and NO_COLOR.
func Run(ctx context.Context, in Input) error {
	return run(ctx, in)
}

// run is Run with more options for the program: tests give it an input
// and an output that are no terminal.
func run(ctx context.Context, in Input, opts ...tea.ProgramOption) error {
	m := newLoadingModel(in, os.Getenv("NO_COLOR") != "")
	defer func() {
		if m.restoreGC != nil {
			m.restoreGC()
		}
	}()
	// At Bubble Tea's highest frame rate a new screen waits at most 8 ms
	// for its frame, not 17: a method switch is seen that much sooner.
	// Frames are drawn only when the screen changed.
	// Signals are main's: SIGINT and SIGTERM end ctx, and the program
	// with it, so that the run ends as interrupted (130, 143); Bubble
	// Tea's own handler made SIGTERM a quit (status 0) and SIGINT an
	// error of its own (status 1).
	final, err := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(maxFPS), tea.WithoutSignalHandler()}, opts...)...).Run()
	if err != nil {
		return err
	}
	if l, ok := final.(*loadingModel); ok {
		return l.err
	}
	return nil
}

// maxFPS is Bubble Tea's highest frame rate.
const maxFPS = 120

// errNoTrajectories is the load's error for inputs without trajectories.
var errNoTrajectories = errors.New("no trajectories to show")

// session reads the inputs, with Stream when set, else Load, and builds
// the session the dashboard shows (not in follow mode).
func (in Input) session(progress func(done, total int64)) (*Session, error) {
	if in.Stream != nil {
		return in.streamSession(progress)
	}
	res, err := in.Load(progress)
	if err != nil {
		return nil, err
	}
	return openSession(in.Source, in.Config, res, in.Warnings)
}

// openSession builds the session the dashboard shows from what Load read:
// the computer for cfg, a pareto config's objectives inferred from the
// first trajectory, with the caller's warnings and the skipped lines as
// warnings. (The invalid trajectories are counted by the status line, from
// the current result.) Once evaluated, the trajectories whose bodies can be
// read again are kept lean.
func openSession(source string, cfg engine.Config, res *loaders.Result, warnings []string) (*Session, error) {
	ts := res.Trajectories
	if len(ts) == 0 {
		return nil, errNoTrajectories
	}
	cfg, c, err := computerFor(cfg, &ts[0])
	if err != nil {
		return nil, err
	}
	e := c.NewEvaluator()
	e.Add(ts)
	ev := e.Evaluation()
	fields := addFirstFields(nil, ts)
	dropBodies(ts)
	return openedSession(source, trajectoriesOf(ts), c, ev, func(s *Session) {
		s.Fields = fields
		s.loaded(cfg, res, warnings)
	}), nil
}

// openedSession returns newSession(source, ts, c, ev) after loaded (which
// checks the IDs), with the first frame's statistics computed: the IDs are
// checked on a core of their own meanwhile, as compute does.
func openedSession(source string, ts Trajectories, c *engine.RewardComputer, ev *engine.Evaluation, loaded func(*Session)) *Session {
	var duplicates string
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		duplicates = duplicateWarning(&ts)
	}()
	s := newSession(source, ts, c, ev)
	s.Result.BatchStats(s.CurrentBatch())
	<-checked
	s.duplicates = duplicates
	loaded(s)
	return s
}

// computerFor returns cfg with its objectives inferred from the first
// trajectory, and its computer.
func computerFor(cfg engine.Config, first *engine.Trajectory) (engine.Config, *engine.RewardComputer, error) {
	cfg = cfg.InferObjectives(first)
	c, err := engine.New(cfg)
	return cfg, c, err
}

// loaded records the config the session was computed with and its
// warnings: the caller's, the duplicate IDs and the lines res skipped.
func (s *Session) loaded(cfg engine.Config, res *loaders.Result, warnings []string) {
	s.Config = cfg
	s.Warnings = append(s.Warnings, warnings...)
	if s.duplicates != "" {
		s.Warnings = append(s.Warnings, s.duplicates)
	}
	if res.Skipped > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("skipped %d malformed lines (the first: %v)", res.Skipped, res.SkipReasons[0]))
	}
	if res.Capped {
		s.Warnings = append(s.Warnings, fmt.Sprintf("read only the first %d trajectories (--max-rows): the rest of the input was not read", s.Trajectories.Len()))
	}
}

// streamSession builds the session as in.Stream reads the inputs: the
// trajectories are evaluated a chunk at a time and kept lean.
func (in Input) streamSession(progress func(done, total int64)) (*Session, error) {
	b := &sessionBuilder{cfg: in.Config, pickBuilds: true}
	res, err := in.Stream(StreamHooks{Progress: b.sizing(progress), Pick: b.pick, Each: b.add})
	if err != nil {
		return nil, err
	}
	if b.ev == nil {
		return nil, errNoTrajectories
	}
	return b.session(in, res), nil
}

// sizing returns progress, noting the inputs' total size on the way, from
// which add estimates how many trajectories will come.
func (b *sessionBuilder) sizing(progress func(done, total int64)) func(done, total int64) {
	return func(done, total int64) {
		b.size = total
		progress(done, total)
	}
}

// expectedTrajectories estimates how many trajectories inputs of size bytes
// hold from the first ones read, ts: the size over the bytes per record so
// far, plus 5%. It is 0 when it cannot tell: the size is unknown (standard
// input) or the records have no offsets (Parquet).
func expectedTrajectories(size int64, ts []engine.Trajectory) int {
	n := len(ts)
	if size <= 0 || n < 2 || ts[n-1].Source != ts[0].Source || ts[n-1].Offset <= ts[0].Offset {
		return 0
	}
	perRecord := float64(ts[n-1].Offset-ts[0].Offset) / float64(n-1)
	return int(float64(size)/perRecord*1.05) + 1
}

// sessionBuilder evaluates streamed trajectories and keeps them lean
// (streamSession, followedSession).
type sessionBuilder struct {
	cfg      engine.Config // inferred from the first trajectory once it came
	computer *engine.RewardComputer
	ev       *engine.Evaluator // nil until the first trajectory
	err      error             // why the computer could not be built (pick)
	reserved bool              // the evaluator's arrays are sized for the inputs
	ts       Trajectories
	fields   []string // Session.Fields
	// size is the inputs' total size in bytes, when known (sizing).
	size int64
	// pickKeys is the scorer's Pick once the computer is built (nil before,
	// or when it reads more than its objectives' keys): an atomic, since
	// a follower calls Pick on its own goroutine.
	pickKeys atomic.Pointer[engine.Pick]
	// pickBuilds lets pick build the computer on the first trajectory, as
	// a stream calls Pick on the goroutine that calls add; a follower's
	// Pick only reads pickKeys.
	pickBuilds bool
}

// start builds the computer and the evaluator on the first trajectory.
func (b *sessionBuilder) start(first *engine.Trajectory) error {
	cfg, c, err := computerFor(b.cfg, first)
	if err != nil {
		return err
	}
	b.cfg, b.computer, b.ev = cfg, c, c.NewEvaluator()
	if c.Logged == nil { // the logged advantage reads more than the objectives
		if picker, ok := c.Scorer.(interface{ Pick() *engine.Pick }); ok {
			b.pickKeys.Store(picker.Pick())
		}
	}
	return nil
}

// pick is loaders.Options.Pick: on an input's first trajectory (building
// the computer on the very first, with pickBuilds), it returns the
// metadata keys the scorer reads, so that the loader picks them rather
// than building a map per trajectory, as compute does. The rows are kept
// lean anyway, so nothing else of the metadata is lost; but an input whose
// records cannot be read again (gzip, standard input) keeps its maps for
// the detail view.
func (b *sessionBuilder) pick(first *engine.Trajectory) *engine.Pick {
	if b.pickBuilds && b.ev == nil && b.err == nil {
		b.err = b.start(first)
	}
	if first.Format == "" {
		return nil
	}
	return b.pickKeys.Load()
}

// add evaluates ts and keeps them without their bodies, or, when those
// cannot be read again, with a copy of their metadata: the stream reuses
// the maps.
func (b *sessionBuilder) add(ts []engine.Trajectory) error {
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
		if n := expectedTrajectories(b.size, ts); n > len(ts) {
			b.ev.Reserve(n)
		}
		b.reserved = true
	}
	b.ev.Add(ts)
	b.fields = addFirstFields(b.fields, ts)
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

// session returns the session of the trajectories added, at least one,
// for in, with the skipped lines of res.
func (b *sessionBuilder) session(in Input, res *loaders.Result) *Session {
	return openedSession(in.Source, b.ts, b.computer, b.ev.Evaluation(), func(s *Session) {
		s.Fields = b.fields
		s.loaded(b.cfg, res, in.Warnings)
	})
}
