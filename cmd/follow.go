package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
)

// followQuiet is how long stats --follow waits, once nothing arrives, to
// take the newest batch for complete and print it (follow.Quiet; a
// variable for the tests): the other batches are printed when a later one
// starts.
var followQuiet = follow.Quiet

// unendedWait is how long a followed file's last line may stay without
// its line end before it is warned of (loaders.FollowOptions.UnendedWait).
var unendedWait = loaders.DefaultUnendedWait

// awaitPoll is how often a followed path that does not exist yet is
// looked for.
const awaitPoll = 250 * time.Millisecond

// awaitInputs waits for the followed paths that do not exist yet
// (loaders.AwaitInputs), saying so on w: a watcher is often started before
// the trainer's first dump creates its directory.
func awaitInputs(ctx context.Context, paths []string, w io.Writer) error {
	return loaders.AwaitInputs(ctx, paths, awaitPoll, func(path string) {
		fmt.Fprintf(w, "rewardlens: waiting for %s to appear\n", textsafe.Line(path))
	})
}

// refuseFollowedStdin is the error of --follow given standard input ("-")
// among args, before anything is read or said. Following reads a file
// again when it is replaced, rewritten or cut short (loaders.Follow), and
// a trainer's defaults are taken from the first records of the files
// before the follower starts (layouts.Apply); a pipe is read once, so
// neither holds for it.
func refuseFollowedStdin(args []string) error {
	if !slices.Contains(args, "-") {
		return nil
	}
	return usagef(`standard input ("-") cannot be followed: --follow reads its files again when they are replaced or rewritten, which a pipe cannot be; give the file's path (a run on another host: rewardlens there, or the files synced here), or read standard input to its end without --follow`)
}

// runStatsFollow is stats --follow: it prints one line per batch, for a
// terminal or a log, as the inputs grow, until ctx ends (an interrupt).
// With --health, the status is then 3 if a check raised an ALERT.
func runStatsFollow(ctx context.Context, cmd *cobra.Command, s *settings, health *healthFlags, format string, args []string, stdio IO) error {
	if len(args) == 0 {
		return usagef("no input files (give FILE... or directories; standard input cannot be followed)")
	}
	// Following stops when this returns, on an error as at the interrupt.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cfg, opts, layout, rowsCheck, err := s.resolveFollowed(ctx, cmd.Flags(), nil, args, stdinOf(stdio), stdio.Stderr)
	if err != nil {
		return err
	}
	s.sayWarnings(stdio.Stderr)
	if err := notFiltered(cfg, "stats --follow", s.file); err != nil {
		return err
	}
	sayLayout(stdio.Stderr, layout, cfg)
	sessions := layouts.NewVerlSessions(cfg)
	f := &statsFollower{cfg: cfg, file: s.file, sessions: sessions, health: health, json: format == "json", out: stdio.Stdout, errOut: stdio.Stderr, printed: map[int64]printedLine{},
		warned: map[givenWarning]bool{}, matchLogged: cfg.MatchLogged != nil && *cfg.MatchLogged}
	f.warnings = follow.Warnings(sessions.With(f.layoutWarnings()), cfg.EqualGroups)
	f.runNote = layouts.RunNoteOf(cfg)
	// The first reading is evaluated as it streams: only the evaluation
	// is kept, never every trajectory. The computer is built on the first
	// trajectory, when the loader asks what to pick, as compute does: the
	// rest of that reading, the lines the file grows by and the files read
	// later come picked (no metadata map per line).
	opts.Pick = f.pickFor
	each := func(ts []scoring.Trajectory) error {
		f.repeats.Add(ts)
		f.noteLastSteps(ts)
		return f.evaluate(ts)
	}
	first, updates, err := loaders.Follow(ctx, args, loaders.FollowOptions{Options: opts, Each: checkedEach(rowsCheck, sessions, each), UnendedWait: unendedWait,
		AtEnd: f.setUnended, Apart: layouts.FollowApart(cfg, opts)})
	if err != nil {
		return inputError{err}
	}
	f.sayInferred()
	reportSkipped(stdio.Stderr, first)
	reportRelogged(stdio.Stderr, first.Relogged)
	if w := rowsCheck.Warning(); w != "" {
		fmt.Fprintf(stdio.Stderr, "rewardlens: warning: %s\n", textsafe.Line(w))
	}
	f.sayRepeats()
	f.skips.Read(first.Skipped, first.SkipReasons)
	reportUnfinished(stdio.Stderr, first.Unfinished)
	for _, path := range loaders.LastLinesLeftOut(first.Unfinished) {
		f.noteUnfinishedLine(path)
	}
	for _, u := range first.Unended {
		f.noteUnfinishedLine(u.Path)
	}
	// An interrupt before the first lines are printed, as the inputs are
	// read or computed, ends the run as it ends stats: status 128 + the
	// signal's number (reportInterrupted), the compute stopped rather
	// than waited for.
	if err := f.compute(ctx); err != nil {
		return err
	}
	defer gcpace.Following()()
	quiet := time.NewTimer(followQuiet)
	defer quiet.Stop()
	// settle is set when the quiet timer printed the newest step partial
	// as being written (rows of it came while following) and was started
	// again: when it fires with nothing come since, the step is final.
	settle := false
	for {
		select {
		case u, ok := <-updates:
			if !ok { // ctx ended: the newest batch as it stands
				return f.interrupted(ctx, ctx.Err(), updates)
			}
			settle = false
			if err := f.take(ctx, u); err != nil {
				if !errors.Is(err, ctx.Err()) {
					return f.withAlerts(err)
				}
				return f.interrupted(ctx, err, updates)
			}
			quiet.Reset(followQuiet)
		case <-quiet.C:
			if settle {
				f.settleNewest()
			}
			// The parts said to follow did not come: what came is
			// computed.
			if err := f.catchUp(ctx); err != nil {
				if !errors.Is(err, ctx.Err()) {
					return f.withAlerts(err)
				}
				return f.interrupted(ctx, err, updates)
			}
			// The newest step may be complete: the settings are
			// looked for with it before its line is printed.
			if err := f.rematch(ctx, true); err != nil {
				if !errors.Is(err, ctx.Err()) {
					return f.withAlerts(err)
				}
				return f.interrupted(ctx, err, updates)
			}
			if err := f.printBatches(true); err != nil {
				return f.withAlerts(err)
			}
			if settle = f.newestPartialAsWritten(); settle {
				quiet.Reset(followQuiet)
			}
		}
	}
}

// withAlerts is err with the ALERTs raised so far joined when err is a
// failed write (its reader gone: | head): the status is then 3, both
// said, as stats says a report it could not write. Another error is
// returned as it is, its own status kept.
func (f *statsFollower) withAlerts(err error) error {
	var pathErr *fs.PathError
	if alert := f.status(); alert != nil && (errors.Is(err, syscall.EPIPE) || errors.As(err, &pathErr) && pathErr.Op == "write") {
		return fmt.Errorf("%w; %w", err, alert)
	}
	return err
}

// take takes the update u: said on stderr, its skipped lines, repeated
// IDs and verl V1 sessions counted, then applied (update).
func (f *statsFollower) take(ctx context.Context, u loaders.Update) error {
	reportUpdate(f.errOut, u)
	f.malformed += f.skips.Update(u)
	f.unread.Update(u)
	f.repeats.Forget(u.Reloaded)
	f.repeats.Add(u.Trajectories)
	f.sessions.Forget(u.Reloaded)
	f.sessions.Add(u.Trajectories)
	f.sayRepeats()
	return f.update(ctx, u)
}

// interrupted ends following at an interrupt of ctx, err its error, once the
// follower's updates closed: before anything was computed (no trajectory
// came, or the first compute was stopped), with err, as stats ends
// (status 128 + the signal's number); after, with the end it would have
// had at the interrupt, every trajectory read computed and its lines
// printed: the parts said to be followed by more (stale), an update whose
// compute the interrupt stopped, one it stopped before it was applied
// (pending), and the one update the follower may
// still send as it closes (at most one: it sends one at a time), only
// the batches they touch computed (all after a file read again, as
// following would have). The followed files whose last line
// has no line end, never read, are an error (status 2; an ALERT's status
// 3 stands, both told), as are the malformed lines skipped without
// --skip-invalid-lines and the followed files not read (follow.Unread):
// their rows are missing from the lines.
func (f *statsFollower) interrupted(ctx context.Context, err error, updates <-chan loaders.Update) error {
	atEnd := context.WithoutCancel(ctx)
	if u := f.pending; u != nil {
		f.pending = nil
		if err := f.update(atEnd, *u); err != nil {
			return f.withAlerts(err)
		}
	}
	for u := range updates { // the follower says the unended lines as it closes them
		if f.res == nil {
			continue // stopped before its first lines: at once
		}
		if err := f.take(atEnd, u); err != nil {
			return f.withAlerts(err)
		}
	}
	unended := unendedError(f.unendedAtEnd())
	var unread error
	if w := f.unread.Warning(" as following ends"); w != "" {
		unread = errors.New(w)
	}
	if f.res == nil {
		for _, bad := range []error{unended, unread} {
			if bad != nil {
				fmt.Fprintf(f.errOut, "rewardlens: %s\n", textsafe.Line(bad.Error()))
			}
		}
		return err
	}
	if err := f.catchUp(atEnd); err != nil {
		return f.withAlerts(err)
	}
	// The newest step gets its final line now: no more of it will be
	// read. --match-logged looks for the settings with it, as when no
	// more rows came for a while.
	f.settleNewest()
	if err := f.rematch(atEnd, true); err != nil {
		return err
	}
	if err := f.printBatches(true); err != nil {
		return f.withAlerts(err)
	}
	f.sayRunAgreement()
	f.sayProvisional()
	alert := f.status()
	var bad []string
	for _, err := range []error{unended, unread, malformedError(f.malformed)} {
		if err != nil {
			bad = append(bad, err.Error())
		}
	}
	switch {
	case len(bad) > 0 && alert != nil:
		return fmt.Errorf("%w; %s", alert, strings.Join(bad, "; "))
	case len(bad) > 0:
		return inputError{errors.New(strings.Join(bad, "; "))}
	}
	return alert
}

// sayRepeats warns on stderr of the trajectories read since it was last
// called that repeat an earlier one's ID (follow.Repeats), in both
// formats, as the other warnings of following.
func (f *statsFollower) sayRepeats() {
	if w := f.repeats.TakeWarning(); w != "" {
		fmt.Fprintf(f.errOut, "rewardlens: warning: %s\n", w)
	}
}

// statsFollower keeps the live computation of stats --follow: the
// evaluation, the result and its trends, updated batch by batch, and what
// it printed.
type statsFollower struct {
	cfg    setup.Config
	health *healthFlags
	json   bool
	out    io.Writer
	errOut io.Writer // the warnings' (stderr)
	// file is settings.file, for newComputer and the prompts' columns.
	file *configFile
	// sessions finds a verl V1 dump's sessions of more than one output
	// in the rows read, the first reading's (checkedEach) and each
	// update's (take), for warnings (nil: not such a dump).
	sessions *layouts.VerlSessions

	// mu guards computer and buildErr until the computer is built, and
	// fields: the loader's Pick, which builds the computer and notes the
	// fields of a reading's first trajectory, runs on the follower's
	// goroutine for the files read later.
	mu sync.Mutex
	// Set once the first trajectory has come (build).
	computer  *engine.RewardComputer
	buildErr  error
	inferred  string // the objectives inferred, until said (newComputer, sayInferred)
	healthCfg health.Config
	ref       []float64
	live      *live.Evaluation
	res       *engine.Result
	trends    []diagnose.Trend
	// stale is set when trajectories were evaluated since res was
	// computed, at staleSince: updates with more parts to come
	// (loaders.Update.Behind) are computed with the part that ends their
	// run, once, or once followQuiet has passed in a long run.
	stale      bool
	staleSince time.Time
	// pending is an update of files read again that an interrupt stopped
	// before it was applied, as the result caught up before they leave
	// (update): interrupted applies it.
	pending *loaders.Update
	// written holds the steps to which trajectories came while following
	// (not in the first reading): their files are being written.
	written map[int64]bool
	// printed holds, per step, the numbers its last line printed, and
	// lastFindings the findings that line showed: the exit status is
	// told by them, the provisional ones left out (health.Standing).
	printed      map[int64]printedLine
	lastFindings map[int64][]health.Finding
	// provisional holds, per step, why its last line printed is
	// provisional (partial; "" when it is not).
	provisional map[int64]string
	// agreementWarnings holds, per step, the trainer check's warning its
	// last line printed (none: no entry), for its updated line to
	// withdraw or replace.
	agreementWarnings map[int64]string
	// fit is set once a complete batch was printed with a valid
	// trajectory read so far: the objectives fit the data.
	fit bool
	// warnedNoValid is set once the warning that no trajectory read so
	// far is valid, by their values, was given.
	warnedNoValid bool
	// loggedChecked is set once the logged advantage's fields were looked
	// for (checkLoggedField), warnedNoLogged once a step without a logged
	// advantage was warned of.
	loggedChecked, warnedNoLogged bool
	// warnedLoggedNotNumber and warnedLoggedNonFinite are set once the
	// rows whose logged advantage is not a number, or NaN or infinite,
	// were warned of (agreement.NotNumberWarning, NonFiniteWarning).
	warnedLoggedNotNumber, warnedLoggedNonFinite bool
	// warnedUngrouped is set once the first complete batch was looked
	// at for records without a group (layouts.UngroupedWarning).
	warnedUngrouped bool
	// fields are the field names of the first trajectory of each reading
	// and of each update (seen), for the suggestions of an objective that
	// reads none of them.
	fields fieldNames
	// warnings are what to warn of in a batch as its line is printed
	// (follow.Warnings), nil for nothing; warned holds those given, each
	// printed once (sayWarnings), and stepWarnings, per step, those its
	// last line gave, for a later line to withdraw.
	warnings     func(res *engine.Result, batches []int) []string
	warned       map[givenWarning]bool
	stepWarnings map[int64][]givenWarning
	// runNote is the layout's note of the run (layouts.RunNoteOf, nil
	// for none; nil again once withdrawn), said once when first true
	// (runNoteSaid), never the whole run read per line: its Of asks each
	// batch as its line is printed, noteEvidence
	// holds per step what its last line's batch said, borne and refuted
	// count those that bear it out and refute it.
	runNote        *layouts.RunNote
	noteEvidence   map[int64]layouts.RunNoteEvidence
	borne, refuted int
	runNoteSaid    bool
	// float32NoteSaid is the float32 coarse-bound note said last
	// (sayFloat32Note), "" for none.
	float32NoteSaid string
	// lastStep holds the step of each followed file's last row read
	// (loaders.NoteLastSteps), unfinished the files whose last line, not
	// yet ended, the reading left out: the trainer agreement names that
	// line as why its step's group is short (linesLeftOut).
	lastStep   map[string]int64
	unfinished map[string]bool
	// unended are the followed files whose last line had no line end as
	// following ended (loaders.FollowOptions.AtEnd), set on the
	// follower's goroutine while the lines may be printed: under
	// unendedMu.
	unendedMu sync.Mutex
	unended   []loaders.Unended
	// repeats counts the trajectories whose ID an earlier one has, each
	// reading and update warned of as it comes (sayRepeats).
	repeats follow.Repeats
	// skips counts the lines skipped so far, --skip-invalid-lines or
	// not (the JSON lines' skipped_lines), as the dashboard counts them;
	// malformed those skipped without it, which make the end's status 2.
	skips     follow.Skipped
	malformed int
	// unread are the followed files that could not be read so far: each
	// line printed while one is says so, and following ending with one
	// ends with status 2, as a malformed line does.
	unread follow.Unread
	// matchLogged is --match-logged: the result is computed with the
	// settings that reproduce the logged advantages of the rows read so
	// far (rematch). matched is set once they were looked for, found is
	// the search that found the settings (nil when none did), and
	// matchedRows counts the logged rows of the complete steps then;
	// settings are those the result is computed with.
	matchLogged, matched bool
	found                *agreement.Match
	matchedRows          int
	settings             engine.Options
	// columns are the trajectories' task metric, for each batch's dead
	// signal (the prompts are not read: the dead signal is per group),
	// in the live evaluation's order.
	columns *promptColumns
}

// update applies u and prints the batches that are complete: all but the
// newest. Before u makes it forget the files read again (rotated,
// truncated, replaced), every batch gets its final line, the newest too:
// those files' trajectories, the last lines of a rotated one included,
// are about to leave the computation.
func (f *statsFollower) update(ctx context.Context, u loaders.Update) error {
	// Only the evaluation is kept, as of the first reading (evaluate):
	// the lines read next reuse u's arrays.
	defer u.Recycle()
	f.noteUnfinished(u)
	f.noteWritten(u.Trajectories)
	if f.res == nil {
		if err := f.evaluate(u.Trajectories); err != nil {
			return err
		}
		if u.Behind {
			return nil
		}
		return f.compute(ctx)
	}
	if len(u.Reloaded) > 0 {
		// The trajectories of the files read again leave: whether the
		// objectives fit is asked of what replaces them.
		if err := f.catchUp(ctx); err != nil {
			if ctx.Err() != nil {
				// Stopped (an interrupt) before u was applied:
				// interrupted applies it, its arrays kept till then
				// (u, which the deferred Recycle gives back, emptied).
				pending := u
				f.pending, u = &pending, loaders.Update{}
			}
			return err
		}
		if err := f.printFinal(); err != nil {
			return err
		}
		if leaving := f.live.Leaving(u.Reloaded); leaving != nil && f.columns != nil {
			// The task metric read of the records is in input order:
			// the values of the files read again leave with their rows,
			// and those read again come after the others'.
			f.columns.DeleteFunc(leaving)
		}
	}
	if err := f.columns.add(u.Trajectories); err != nil {
		return err
	}
	if !f.fit && len(u.Trajectories) > 0 {
		// The fields read so far decide whether an objective is misnamed.
		f.seen(&u.Trajectories[0])
	}
	if u.Behind && len(u.Reloaded) == 0 && (!f.stale || time.Since(f.staleSince) < followQuiet) {
		// The batch the part ends in grows with the next: computing it
		// now would compute it again, and copy the result's arrays.
		f.live.Update(nil, u.Trajectories)
		if !f.stale {
			f.stale, f.staleSince = true, time.Now()
		}
		return nil
	}
	res, trends, err := follow.StepContext(ctx, f.live, u, f.res, f.trends, f.ref)
	if err != nil {
		// Stopped (an interrupt): the live evaluation holds u's
		// trajectories, computed as following ends (interrupted).
		f.stale = true
		return err
	}
	f.res, f.trends, f.stale = res, trends, false
	if err := f.rematch(ctx, false); err != nil {
		return err
	}
	return f.printBatches(false)
}

// catchUp computes the trajectories evaluated since the result (stale),
// if any, and prints the batches that are complete.
func (f *statsFollower) catchUp(ctx context.Context) error {
	if f.res == nil {
		return f.compute(ctx)
	}
	if !f.stale {
		return nil
	}
	res, trends, err := follow.StepContext(ctx, f.live, loaders.Update{}, f.res, f.trends, f.ref)
	if err != nil {
		return err
	}
	f.res, f.trends, f.stale = res, trends, false
	if err := f.rematch(ctx, false); err != nil {
		return err
	}
	return f.printBatches(false)
}

// noteWritten notes the steps of ts, rows that came while following, as
// being written (written): once per run of rows of one step, not per row.
func (f *statsFollower) noteWritten(ts []scoring.Trajectory) {
	for i := range ts {
		if i > 0 && ts[i-1].Batch == ts[i].Batch {
			continue
		}
		if f.written == nil {
			f.written = map[int64]bool{}
		}
		f.written[ts[i].Batch] = true
	}
}

// noteUnfinished keeps, of u, which files' last line is unfinished and
// the step of each file's last row read: a file read again, gone or
// resumed forgets its unfinished line, one whose rows came has read it
// (should another be unfinished, it comes as Unended), an Unended has
// one.
func (f *statsFollower) noteUnfinished(u loaders.Update) {
	for _, paths := range [][]string{u.Reloaded, u.Gone, u.Resumed} {
		for _, path := range paths {
			delete(f.unfinished, path)
		}
	}
	for _, path := range u.Reloaded {
		delete(f.lastStep, path)
	}
	for i := range u.Trajectories {
		if i == 0 || u.Trajectories[i-1].Source != u.Trajectories[i].Source { // once per run of a file's rows
			delete(f.unfinished, u.Trajectories[i].Source)
		}
	}
	f.noteLastSteps(u.Trajectories)
	for _, un := range u.Unended {
		f.noteUnfinishedLine(un.Path)
	}
}

// noteLastSteps is loaders.NoteLastSteps on f.lastStep.
func (f *statsFollower) noteLastSteps(ts []scoring.Trajectory) {
	if f.lastStep == nil {
		f.lastStep = map[string]int64{}
	}
	loaders.NoteLastSteps(f.lastStep, ts)
}

// noteUnfinishedLine notes that path's last line is unfinished.
func (f *statsFollower) noteUnfinishedLine(path string) {
	if f.unfinished == nil {
		f.unfinished = map[string]bool{}
	}
	f.unfinished[path] = true
}

// linesLeftOut is, per step, the unfinished last line left out after its
// last row read (engine.RewardComputer.LinesLeftOut): those said
// unended while following and, once it ends, those it ended with.
func (f *statsFollower) linesLeftOut() map[int64]string {
	return loaders.LinesLeftOut(f.unfinishedPaths(), f.lastStep)
}

// unfinishedPaths are the files whose unfinished last line is left out:
// those said unended while following and, once it ends, those it ended
// with; sorted, each once.
func (f *statsFollower) unfinishedPaths() []string {
	paths := slices.Collect(maps.Keys(f.unfinished))
	for _, u := range f.unendedAtEnd() {
		paths = append(paths, u.Path)
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}

// layoutWarnings is the layout's warnings of a step's line
// (layouts.StepWarnings), nil when it has none, told the unfinished last
// lines known as the line is printed (linesLeftOut): a group cut short by
// one is said to be, not taken for evaluation rows.
func (f *statsFollower) layoutWarnings() func(*engine.Result, []int) []string {
	if layouts.StepWarnings(f.cfg, scoring.Uncapped, nil) == nil {
		return nil
	}
	return func(res *engine.Result, batches []int) []string {
		return layouts.StepWarnings(f.cfg, scoring.Uncapped, f.linesLeftOut())(res, batches)
	}
}

// stillWritten is why the newest batch is provisional for its file's
// unfinished last line, left out after its last row read, as stats
// --health words it (loaders.StillWritten): "" when no such line is
// known. Once the line ends and is read, the step is graded as any other.
func (f *statsFollower) stillWritten() string {
	batches := f.res.Ranking.Batches
	if len(batches) == 0 {
		return ""
	}
	return loaders.StillWritten(f.unfinishedPaths(), f.lastStep)[batches[len(batches)-1].Step]
}

// partial says why batch b of the result, the newest, is provisional, ""
// when it is not: its file ends in an unfinished line (stillWritten), or
// it is probably read in part by its rows (follow.Partial).
func (f *statsFollower) partial(b int) string {
	if why := f.stillWritten(); why != "" && b == len(f.res.Ranking.Batches)-1 {
		return why
	}
	return follow.Partial(f.res, b, f.written[f.res.Ranking.Batches[b].Step])
}

// setUnended notes the files unended as following ended
// (loaders.FollowOptions.AtEnd, on the follower's goroutine).
func (f *statsFollower) setUnended(u []loaders.Unended) {
	f.unendedMu.Lock()
	defer f.unendedMu.Unlock()
	f.unended = u
}

// unendedAtEnd returns the files setUnended noted, none before following
// ended.
func (f *statsFollower) unendedAtEnd() []loaders.Unended {
	f.unendedMu.Lock()
	defer f.unendedMu.Unlock()
	return f.unended
}

// evaluate adds ts to the live evaluation, building the computer on the
// first trajectory; it keeps none of ts (FollowOptions.Each).
func (f *statsFollower) evaluate(ts []scoring.Trajectory) error {
	if len(ts) > 0 {
		f.seen(&ts[0])
	}
	switch {
	case len(ts) == 0:
		return nil
	case f.live != nil:
		f.live.Update(nil, ts)
		return f.columns.add(ts)
	}
	c, err := f.build(&ts[0])
	if err != nil {
		return err
	}
	if err := f.columns.add(ts); err != nil {
		return err
	}
	if f.healthCfg, f.ref, err = f.health.config(c.Scorer.Objectives()); err != nil {
		return err
	}
	f.healthCfg.Trainer = engine.Trainer(f.cfg.From) // non_finite's level
	// The computer's evaluator evaluates the logged advantage too, which
	// the evaluations appended to it go on evaluating.
	e := c.NewEvaluator()
	e.Reserve(len(ts))
	e.Add(ts)
	f.live = live.New(c.Scorer, e.Evaluation(), ts)
	return nil
}

// pickFor is the loader's Pick: it notes the fields of a reading's first
// trajectory, builds the computer on the first of all, and returns what
// the computer picks (nil when it cannot be built: evaluate reports why).
func (f *statsFollower) pickFor(first *scoring.Trajectory) *scoring.Pick {
	f.seen(first)
	c, err := f.build(first)
	if err != nil || f.columns.readsRecords() {
		return nil // the task metric's expression reads the whole record
	}
	return c.Pick()
}

// sayInferred says, once, the objectives the computer inferred from the
// first record (build, on the loader's goroutine, keeps them for this).
func (f *statsFollower) sayInferred() {
	f.mu.Lock()
	note := f.inferred
	f.inferred = ""
	f.mu.Unlock()
	sayInferred(f.errOut, note)
}

// build builds the computer on first, the first trajectory read, unless
// it is built (or failed) already, and returns it.
func (f *statsFollower) build(first *scoring.Trajectory) (*engine.RewardComputer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.computer == nil && f.buildErr == nil {
		f.computer, f.inferred, f.buildErr = newComputer(f.cfg, first, f.file)
		if f.buildErr == nil {
			// The dead signal is per group: the prompts are not read.
			cfg := f.cfg
			cfg.PromptBy = ""
			f.columns, f.buildErr = newPromptColumns(cfg, f.computer.Scorer.Objectives(), f.file)
		}
	}
	return f.computer, f.buildErr
}

// seen adds t's field names to fields. A picked trajectory has no
// metadata map: its metadata keys are the picked ones it has a value for.
func (f *statsFollower) seen(t *scoring.Trajectory) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fields.add(t)
	if t.Pick == nil {
		return
	}
	for k, key := range t.Pick.Keys {
		if k < len(t.Picked) && t.Picked[k].Kind != scoring.PickedAbsent && !slices.Contains(f.fields, key) {
			f.fields = append(f.fields, key)
		}
	}
	slices.Sort(f.fields)
}

// compute computes the result and the trends of what was evaluated, once
// a trajectory came, and prints the batches that are complete; it stops
// with ctx's error once ctx is done.
func (f *statsFollower) compute(ctx context.Context) error {
	if f.live == nil {
		return nil // nothing yet to build the computer on
	}
	f.sayInferred() // the computer built on a record that came after the first reading
	if err := f.computeOn(ctx, f.live.Evaluation(), f.computer.Options); err != nil {
		return err
	}
	if err := f.rematch(ctx, false); err != nil {
		return err
	}
	return f.printBatches(false)
}

// rematch is --match-logged while following: the settings to compute
// with are looked for (agreement.CheckTrainer) among the trainers' on the
// rows of the complete steps read so far (completeBatches: a step read in
// part has short groups, which reproduce no logged advantage), the first
// time, and again whenever the settings found stop reproducing them (a
// later step tells them apart; found with the rows the trainer grouped
// otherwise left out, the rows outside those: Match.FoundReproduces);
// when none did, again only once those rows have doubled since, as a
// setting that fails some rows fails them still, and looking costs a
// compute of every row per setting tried. When the settings change, the result is computed again with them, and the
// change said on stderr; the lines printed before are printed again,
// updated, where their numbers change.
func (f *statsFollower) rematch(ctx context.Context, withNewest bool) error {
	if !f.matchLogged || f.res == nil {
		return nil
	}
	complete := f.completeBatches(withNewest)
	if complete == 0 || f.matched && f.found != nil && f.found.FoundReproduces(f.res, complete) {
		return nil
	}
	diff, _ := agreement.CompareLoggedFirst(f.res, complete)
	if f.matched && f.found == nil && diff.Rows < 2*max(f.matchedRows, 1) {
		return nil
	}
	c := *f.computer
	c.EqualGroups = false // checked per batch (follow.Warnings)
	c.LinesLeftOut = f.linesLeftOut()
	ev := f.live.Evaluation()
	check := checkTrainer(&c, f.completeRows(ev, complete))
	first := !f.matched
	if first {
		f.settings = f.computer.Options
	}
	f.matched, f.matchedRows = true, diff.Rows
	f.found = nil
	if check.Logged != nil && check.Logged.Found != nil {
		f.found = check.Logged
	}
	changed := !reflect.DeepEqual(check.Options, f.settings)
	f.settings = check.Options
	if !first && !changed {
		return nil
	}
	note := check.Notes[0]
	say := note.Text
	if diff.Rows > 0 {
		say += fmt.Sprintf(" (the %d logged %s of the complete steps read so far)", diff.Rows, english.Plural(diff.Rows, "row"))
	}
	if !first {
		say = fmt.Sprintf("the settings changed as rows came: %s; the steps printed before are printed again where that changes them", say)
	}
	fmt.Fprintf(f.errOut, "rewardlens: %s\n", noteLine(say, note.Warning))
	if !changed {
		return nil
	}
	return f.computeOn(ctx, ev, check.Options)
}

// checkTrainer is agreement.CheckTrainer, the search for the settings
// that rematch runs: a test counts the searches through it.
var checkTrainer = agreement.CheckTrainer

// computeOn computes the result of ev under opts and its trends, which
// become the follower's; it stops with ctx's error once ctx is done.
func (f *statsFollower) computeOn(ctx context.Context, ev *engine.Evaluation, opts engine.Options) error {
	res, err := ev.ComputeContext(ctx, opts)
	if err != nil {
		return err
	}
	trends, err := diagnose.TrendsContext(ctx, res, f.ref)
	if err != nil {
		return err
	}
	f.res, f.trends = res, trends
	return nil
}

// settleNewest forgets that rows of the newest step came while following
// (written): a quiet interval passed after its line was printed partial
// for that, or following ends. It is then partial, or not, by its groups
// alone (follow.Partial), as a step read whole at the start is.
func (f *statsFollower) settleNewest() {
	if f.res == nil || len(f.res.Ranking.Batches) == 0 {
		return
	}
	delete(f.written, f.res.Ranking.Batches[len(f.res.Ranking.Batches)-1].Step)
}

// newestPartialAsWritten reports whether the newest step's last line is
// marked partial while rows of it came while following: settleNewest may
// make it final.
func (f *statsFollower) newestPartialAsWritten() bool {
	if f.res == nil || len(f.res.Ranking.Batches) == 0 {
		return false
	}
	step := f.res.Ranking.Batches[len(f.res.Ranking.Batches)-1].Step
	return f.written[step] && f.printed[step].partial
}

// completeBatches is how many of the result's batches, first to last, are
// complete: all but the newest, which the run may still be writing, unless
// withNewest (no more rows came for a while, or following ends) and it is
// not provisional (partial: its file ends in an unfinished line, whose
// step's last group may be short, which no setting reproduces, or it is
// probably read in part). Once the line ends and is read, the step is
// complete as the others are.
func (f *statsFollower) completeBatches(withNewest bool) int {
	n := len(f.res.Ranking.Batches)
	if n > 0 && (!withNewest || f.partial(n-1) != "") {
		n--
	}
	return n
}

// completeRows is ev, the result's evaluation, without the rows of its
// batches past the first complete ones (completeBatches): the newest's
// when it is not complete.
func (f *statsFollower) completeRows(ev *engine.Evaluation, complete int) *engine.Evaluation {
	if complete == len(f.res.Ranking.Batches) {
		return ev
	}
	newest := f.res.Ranking.Batches[complete].Step
	return ev.Filter(func(i int) bool { return ev.StepOf(i) != newest })
}

// sayRunAgreement says on stderr, as stats does, how the trainer-style
// rewards of every row read compare with the logged advantages, as one
// (agreement.Match.Warning): the steps' lines match each step's rows
// alone. A newest step that is provisional (partial) is left out, and
// said to be, with why: read in part, or its file's last line unfinished.
// Nothing when they agree, or without logged advantages (no row with one
// was warned of at its step).
func (f *statsFollower) sayRunAgreement() {
	if f.res == nil {
		return
	}
	complete := f.completeBatches(true)
	if diff, ok := agreement.CompareLoggedFirst(f.res, complete); !ok || diff.Rows == 0 {
		return
	}
	read := "the whole run read"
	switch {
	case complete == len(f.res.Ranking.Batches):
	case f.stillWritten() != "":
		read = fmt.Sprintf("the run read but step %d, its file's last line unfinished", f.res.Ranking.Batches[complete].Step)
	default:
		read = fmt.Sprintf("the run read but step %d, read in part", f.res.Ranking.Batches[complete].Step)
	}
	if w := agreement.MatchLoggedFrom(f.completeRows(f.res.Evaluation, complete), f.res.Options, f.cfg.From, scoring.Uncapped, f.linesLeftOut()).Warning(); w != "" {
		fmt.Fprintf(f.errOut, "rewardlens: warning: %s: %s\n", read, textsafe.Line(w))
	}
}

// status is the exit status once following ends: a healthAlert with
// --health when the last line printed of a step shows an ALERT that
// stands: not a provisional one, of a step probably still being written
// (health.Standing), as stats --health leaves out a file still being
// written. An ALERT that a step's updated line withdrew does not count:
// the status says what the lines end with. Each check (per objective) is
// named at its first step.
func (f *statsFollower) status() error {
	if !f.health.health {
		return nil
	}
	type key struct {
		check     health.Check
		objective string
	}
	named := map[key]bool{}
	var alerts []health.Finding
	for _, step := range slices.Sorted(maps.Keys(f.lastFindings)) {
		for _, fd := range health.Standing(f.lastFindings[step]) {
			if k := (key{fd.Check, fd.Objective}); fd.Level == health.Alert && !named[k] {
				named[k] = true
				alerts = append(alerts, fd)
			}
		}
	}
	return (&healthReport{Findings: alerts}).status()
}

// sayProvisional says on stderr, with --health, for each step whose last
// line printed is provisional, that it was left out of the exit status
// and why, with its findings' levels (healthReport.sayProvisional, as
// stats --health says it).
func (f *statsFollower) sayProvisional() {
	if !f.health.health {
		return
	}
	r := &healthReport{stillWritten: map[int64]string{}}
	for step, findings := range f.lastFindings {
		if why := f.provisional[step]; why != "" {
			r.stillWritten[step] = why
			r.Findings = append(r.Findings, findings...)
		}
	}
	r.sayProvisional(f.errOut)
}
