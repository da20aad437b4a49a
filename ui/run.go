package ui

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/crash"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Input tells the dashboard what to open.
type Input struct {
	Source   string                                                          // "sample" or the file names, for the header
	Config   setup.Config                                                    // as configured, before InferObjectives
	Load     func(progress func(done, total int64)) (*loaders.Result, error) // reads the inputs; calls progress as bytes are read
	Warnings []string                                                        // shown in the status line
	Layout   string                                                          // how the inputs were read ("read as verl rollout dumps: ..."), "" for plain records
	Health   health.Config                                                   // the health checks' settings
	HVRef    []float64                                                       // the hypervolume reference, nil for the default
	// LayoutWarnings, when not nil, returns, for a reading that rowCap
	// says --max-rows did or did not stop and that left out linesLeftOut
	// (engine.RewardComputer.LinesLeftOut), the function that gives the
	// trainer layout's warnings about the given batches of a result (nil
	// for none): what the trainer did otherwise (TRL's groups normalised
	// apart, verl's NaN groups), in the status line, asked again for each
	// new evaluation.
	LayoutWarnings func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(res *engine.Result, batches []int) []string
	// LayoutWarningsRead returns the options LayoutWarnings reads of a
	// result, the others zero (layouts.WarningsRead): the status line asks
	// the warnings again when the evaluation changes or these do, not on
	// every switch. nil: every option but the weights.
	LayoutWarningsRead func(engine.Options) engine.Options
	// RunNote is the layout's note of the whole run (layouts.RunNote),
	// which LayoutWarnings leaves out (layouts.StepWarnings) and the
	// status line shows after them, withdrawn with why when a later
	// result refutes it; nil for none.
	RunNote *session.RunNote
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
	// (scoring.Trajectory.DropBody), so that the responses and metadata of
	// a large input are never all in memory at once.
	Stream func(hooks StreamHooks) (*loaders.Result, error)
	// Opened, when not nil, is called once the session is built, as the
	// tabs are about to show: from then on the process holds its data for
	// long (the caller sets the collector's pace there, internal/gcpace).
	Opened func()
}

// StreamHooks are what the dashboard gives Input.Stream to call: Progress
// and Pick are loaders.Options' fields of those names, Each is
// loaders.Stream's each.
type StreamHooks struct {
	Progress func(done, total int64)
	Pick     func(first *scoring.Trajectory) *scoring.Pick
	Each     func(ts []scoring.Trajectory) error
}

// Run opens the dashboard on in, full screen: a loading screen with a
// progress bar while in.Load reads, then the tabs. It returns when the user
// quits or ctx ends, with the error that stopped the load, if any, as a
// LoadError (the loading screen shows it first). Colours follow the terminal's background
// and NO_COLOR.
func Run(ctx context.Context, in Input) error {
	return run(ctx, in)
}

// run is Run with more options for the program: tests give it an input
// and an output that are no terminal.
func run(ctx context.Context, in Input, opts ...tea.ProgramOption) error {
	m := newLoadingModel(in, os.Getenv("NO_COLOR") != "")
	// At Bubble Tea's highest frame rate a new screen waits at most 8 ms
	// for its frame, not 17: a method switch is seen that much sooner.
	// Frames are drawn only when the screen changed.
	// Signals are main's: SIGINT and SIGTERM end ctx, and the program
	// with it, so that the run ends as interrupted (130, 143); Bubble
	// Tea's own handler made SIGTERM a quit (status 0) and SIGINT an
	// error of its own (status 1).
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(maxFPS), tea.WithoutSignalHandler()}, opts...)...)
	// A panic in a goroutine of ours (loading, following) ends the
	// process: Kill gives the terminal back first (main screen, cursor,
	// no mouse reporting, cooked mode). Bubble Tea does so for its own.
	defer crash.OnPanic(p.Kill)()
	final, err := p.Run()
	if crash.Panicking() {
		select {} // the panicking goroutine ends the process
	}
	if err != nil {
		return err
	}
	if l, ok := final.(*loadingModel); ok && l.err != nil {
		return LoadError{l.err}
	}
	return nil
}

// LoadError is the error that stopped the load, shown on the loading
// screen ("Could not open"): an error of the inputs, which the CLI ends
// with compute's status for bad input, unlike the terminal's errors.
type LoadError struct{ Err error }

func (e LoadError) Error() string { return e.Err.Error() }
func (e LoadError) Unwrap() error { return e.Err }

// maxFPS is Bubble Tea's highest frame rate.
const maxFPS = 120

// session reads the inputs, with Stream when set, else Load, and builds
// the session the dashboard shows (not in follow mode).
func (in Input) session(progress func(done, total int64)) (*session.Session, error) {
	if in.Stream != nil {
		return in.streamSession(progress)
	}
	res, err := in.Load(progress)
	if err != nil {
		return nil, err
	}
	s, err := session.Open(in.Source, in.Config, res, in.Warnings)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// streamSession builds the session as in.Stream reads the inputs: the
// trajectories are evaluated a chunk at a time and kept lean.
func (in Input) streamSession(progress func(done, total int64)) (*session.Session, error) {
	b := session.NewBuilder(in.Config, true)
	res, err := in.Stream(StreamHooks{Progress: b.Sizing(progress), Pick: b.Pick, Each: b.Add})
	if err != nil {
		return nil, err
	}
	if b.Empty() {
		return nil, session.ErrNoTrajectories
	}
	return b.Session(in.Source, res, in.Warnings), nil
}
