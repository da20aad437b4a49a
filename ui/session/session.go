// Package session is the dashboard's data: the trajectories, their
// evaluation and the result shown, with the health checks computed off the
// event loop, and the loading that builds it. It draws nothing; the root
// model in ui owns the Session and every component reads it.
package session

import (
	"errors"
	"slices"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
)

// Session is the data the dashboard shows and the settings it was computed
// with. The root model owns it and is the only one to change it; tabs read
// it (through ui's Common.Session) when they receive SessionChangedMsg.
type Session struct {
	// Source names the input: "sample" or the file names.
	Source string
	// Trajectories are the loaded trajectories, in input order, lean when
	// their bodies can be read again (scoring.Trajectory.DropBody): the
	// views read them with RereadChecked, which notices a
	// record edited since the load.
	Trajectories Trajectories
	// Reloads counts the updates that read files again (ApplyUpdate):
	// what was read of a trajectory by its index before is not its.
	Reloads int
	// serials are the rows' serials, for Find.
	serials rowSerials
	// Config is the config Computer was built from, its objectives
	// inferred: what ctrl+s saves, with the current options.
	Config setup.Config
	// Computer is the scorer and the configured options.
	Computer *engine.RewardComputer
	// Evaluation is the scorer's output: computed once per load.
	Evaluation *engine.Evaluation
	// Options are the current method, scope, scale, normalize and weights,
	// as the keys set them.
	Options engine.Options
	// Result is Evaluation computed with Options, or, while a recompute
	// runs, with the options before: what is shown reads its options from
	// Result.Options. Until its background job is done (healthjob.go),
	// only the batch shown is sure to be computed.
	Result *engine.Result
	// Batch is the index of the shown batch in Result.Batches.
	Batch int
	// CompareMethod is the Compare tab's method B (see CompareResult).
	CompareMethod engine.Method
	// Warnings are shown in the status line (skipped lines, invalid rows).
	Warnings []string
	// Unread are the followed files that could not be read and have not
	// been since (follow.Unread's, set by ui's live state): what is shown
	// lacks their rows, so the health badge says them, never healthy.
	Unread []string
	// FollowedIDs, for a session opened to be followed (Builder.Follow),
	// holds the IDs of what it opened on, noted off the event loop in the
	// pass that counted their repeats (checkIDs), for the repeats of the
	// updates (ui's live state); nil for another session.
	FollowedIDs *follow.Repeats
	// Skipped counts the lines the load skipped; its warning is in
	// Warnings (following goes on counting: ui's live state).
	Skipped follow.Skipped
	// Unfinished are the files the load left out in whole or part, as
	// their run is still writing them; their warnings are in Warnings.
	Unfinished []loaders.Unfinished
	// Fields are the field names of the inputs' first records: when no
	// trajectory is valid, the status line suggests the nearest to a field
	// an objective reads and none of them has.
	Fields []string
	// Layout says how the inputs were read (Input.Layout), first in the
	// status line; "" for plain records.
	Layout string
	// InferredNote says which objectives were inferred from the first
	// record and their goals (setup.Config.InferredNote), "" when the
	// config gave them: the status line says it short, after Layout, and
	// ? whole.
	InferredNote string
	// LayoutWarnings is Input.LayoutWarnings, nil for none, and
	// LayoutWarningsRead Input.LayoutWarningsRead. A LayoutNotesJob
	// computes them, off the event loop; layoutNotes are the last
	// computed (layoutnotes.go).
	LayoutWarnings     func(res *engine.Result, batches []int) []string
	LayoutWarningsRead func(engine.Options) engine.Options
	layoutNotes        *LayoutNotes
	// layoutWarningsOf makes LayoutWarnings of the unfinished lines left
	// out, following (FollowLayoutWarnings), nil otherwise; layoutLines are
	// those LayoutWarnings was made of.
	layoutWarningsOf func(linesLeftOut map[int64]string) func(res *engine.Result, batches []int) []string
	layoutLines      map[int64]string
	// RunNote is Input.RunNote: the layout's note of the run, after
	// LayoutWarnings, which a later result may refute; nil for none.
	RunNote *RunNote
	// duplicates is the warning about repeated IDs, "" without any
	// (openedSession).
	duplicates string
	// mixedPrompts is set in a trainer's layout (setup.Config.EqualGroups,
	// as the session was asked for), where a group of more than one prompt
	// is warned of; mixedWarning is that warning among Warnings, "" for
	// none (warnMixedPrompts).
	mixedPrompts bool
	mixedWarning string
	// mixedOf holds, per step, the groups of more than one prompt found
	// in that batch and its row count then: a followed update checks the
	// batches that changed only (warnMixedPrompts).
	mixedOf      map[int64]mixedBatch
	mixedReloads int
	// HealthConfig configures the health checks; HVRef is the hypervolume
	// reference point (nil for engine.DefaultHVRef).
	HealthConfig health.Config
	HVRef        []float64
	// stillWritten are the files whose unfinished last line the reading
	// left out, their runs probably still writing them: the health grades
	// the step of each one's last row read provisionally (healthConfig).
	stillWritten []string
	// readInPart is the followed step probably read in part and why
	// (SetReadInPart), why "" for none: graded provisionally too.
	readInPart struct {
		step int64
		why  string
	}
	// readInPartOf tells readInPart of each followed update's result
	// (GradeReadInPart); nil when not following.
	readInPartOf func(res *engine.Result) (step int64, why string)
	// lastStep holds the step of each file's last row read
	// (loaders.NoteLastSteps), kept as rows come and go (ApplyUpdate):
	// the unfinished lines' steps without a scan of every row.
	lastStep map[string]int64
	// Prompts are each trajectory's prompt and task metric, by the
	// config's prompt_by, task_metric and pass_threshold, for the Prompts
	// tab; nil when they cannot be read, with PromptsErr saying why.
	Prompts    *prompts.Columns
	PromptsErr error
	// Filter is DAPO's group filter, toggled (filter.go).
	Filter GroupFilter

	// compare is method B's result (CompareResult): only the tabs that
	// show it have it computed, so a recompute elsewhere does not pay for
	// it.
	compare *engine.Result

	// counts are Counts, of Result and Batch.
	counts diagnose.Counts

	// logged is the logged-advantage warning as last said
	// (LoggedWarning); loggedDue, the count a followed update left to do
	// off the event loop (TakeLoggedJob), nil for none.
	logged    loggedCheck
	loggedDue *LoggedJob

	// health caches the trends and health findings of a result; job
	// computes the current result's (healthjob.go).
	health healthCache
	job    *HealthJob
}

// NewSession evaluates ts with c and computes the first result. It keeps
// ts as they are (the dashboard's own loading keeps them lean: see
// Open).
func NewSession(source string, ts []scoring.Trajectory, c *engine.RewardComputer) *Session {
	e := c.NewEvaluator()
	e.Add(ts)
	lastStep := map[string]int64{}
	loaders.NoteLastSteps(lastStep, ts)
	s := newSession(source, trajectoriesOf(ts), lastStep, c, e.Evaluation())
	s.Fields = addFirstFields(nil, ts)
	s.Prompts, s.PromptsErr = promptColumns(setup.Config{}, c.Scorer.Objectives())
	s.addPrompts(ts)
	s.finishPrompts()
	return s
}

// addFirstFields adds to fields the field names of the first of ts and of
// every one read from another input than the one before it (whole, where
// the loader picks what the scorer reads of the others), sorted, without
// repeats.
func addFirstFields(fields []string, ts []scoring.Trajectory) []string {
	for i := range ts {
		if i == 0 || ts[i].Source != ts[i-1].Source {
			fields = append(fields, scoring.FieldNames(&ts[i])...)
		}
	}
	slices.Sort(fields)
	return slices.Compact(fields)
}

// dropBodies drops the bodies of ts that can be read again.
func dropBodies(ts []scoring.Trajectory) {
	for i := range ts {
		ts[i].DropBody()
	}
}

// newSession returns the session of ts, whose evaluation with c is ev,
// and computes the first result; lastStep is the step of each file's
// last row of ts (loaders.NoteLastSteps), which the session keeps.
func newSession(source string, ts Trajectories, lastStep map[string]int64, c *engine.RewardComputer, ev *engine.Evaluation) *Session {
	s := &Session{
		Source:        source,
		Trajectories:  ts,
		lastStep:      lastStep,
		Computer:      c,
		Evaluation:    ev,
		Options:       c.Options,
		CompareMethod: engine.GRPO,
	}
	switch {
	case ev.Logged != nil:
		s.CompareMethod = LoggedMethod
	case s.Options.Method != engine.Pareto:
		s.CompareMethod = engine.Pareto
	}
	s.Recompute()
	return s
}

// Recompute applies Options to the evaluation, on the calling goroutine.
func (s *Session) Recompute() {
	s.SetResult(s.Evaluation.Compute(s.Options), nil)
}

// LoggedMethod is the Compare tab's method B when it is the advantage the
// trainer logged (engine.Evaluation.Logged): no method of rewardlens, but
// what to check the current method against, and B's default when the
// inputs carry it.
const LoggedMethod engine.Method = "logged"

// The getters below only read: what they return was computed off the
// event loop, by the root's commands (ui/recompute.go), and set with
// SetResult, SetBatch and SetCompare.

// CompareResult returns the evaluation of the result shown computed with
// its options but method CompareMethod, or nil until a command computed
// it (CompareOptions, SetCompare).
func (s *Session) CompareResult() *engine.Result {
	if b, ok := s.CompareOptions(); !ok || !resultOf(s.compare, s.Result.Evaluation, b) {
		return nil
	}
	return s.compare
}

// CompareOptions returns the options of method B's result: the result
// shown's with method CompareMethod; ok is false when there is no result
// of B to compute (B is the logged advantage).
func (s *Session) CompareOptions() (b engine.Options, ok bool) {
	if s.Result == nil || s.CompareMethod == LoggedMethod {
		return engine.Options{}, false
	}
	b = s.Result.Options
	b.Method = s.CompareMethod
	return b, true
}

// CompareNeeded returns the options of method B's result beside a
// result of opts on the session's Evaluation, and whether it must be
// computed: not when B is opts' own method or the logged advantage
// (nothing to compute), nor when the result held is B's already, of
// those options and that evaluation (the constraints, gates and group
// filter are the evaluation's, not the options').
func (s *Session) CompareNeeded(opts engine.Options) (b engine.Options, ok bool) {
	if s.CompareMethod == LoggedMethod || s.CompareMethod == opts.Method {
		return engine.Options{}, false
	}
	b = opts
	b.Method = s.CompareMethod
	return b, !resultOf(s.compare, s.Evaluation, b)
}

// SetCompare takes b, method B's result computed off the event loop,
// unless the options or the evaluation of the result shown changed since
// it started (a stale result is dropped); it reports whether it took it.
func (s *Session) SetCompare(b *engine.Result) bool {
	want, ok := s.CompareOptions()
	if !ok || !resultOf(b, s.Result.Evaluation, want) {
		return false
	}
	s.compare = b
	return true
}

// resultOf reports whether res is ev computed with opts: the settings of
// a result are its options and its evaluation, whose constraints, gates
// and group filter no option holds.
func resultOf(res *engine.Result, ev *engine.Evaluation, opts engine.Options) bool {
	return res != nil && res.Evaluation == ev && res.Options.Equal(opts)
}

// CurrentBatch returns the shown batch, its rewards computed (SetResult,
// SetBatch).
func (s *Session) CurrentBatch() *engine.Batch {
	return &s.Result.Ranking.Batches[s.Batch]
}

// ResultCurrent reports whether the result shown is of the session's
// options and evaluation: no recompute is to replace it (one for method B
// alone keeps it).
func (s *Session) ResultCurrent() bool {
	return s.Result.Options.Equal(s.Options) && s.Result.Evaluation == s.Evaluation
}

// Counts returns the counts of the shown batch, computed when it was set
// (SetResult, SetBatch). Callers must not modify them.
func (s *Session) Counts() diagnose.Counts { return s.counts }

// BatchStats returns the statistics of the shown batch: a recompute for a
// tab that shows them (common.StatsShower) computed them off the event
// loop, as the health job does for every batch; else the tab computes
// them off the event loop first (StatsJob), or they are computed here.
func (s *Session) BatchStats() diagnose.BatchStats { return ShownStats(s.Result, s.Batch) }

// StatsJob returns the computation of the shown batch's statistics, to run
// off the event loop before BatchStats finds them, or nil when they are
// computed. It reads the result only.
func (s *Session) StatsJob() func() {
	res, b := s.Result, s.CurrentBatch()
	if diagnose.StatsComputed(res, b) {
		return nil
	}
	return func() { diagnose.StatsOf(res, b) }
}

// Weights returns the weights in use, one per objective.
func (s *Session) Weights() []float64 {
	if s.Options.Weights != nil {
		return s.Options.Weights
	}
	w := make([]float64, len(s.Evaluation.Objectives))
	for k, o := range s.Evaluation.Objectives {
		w[k] = o.Weight
	}
	return w
}

// SetResult shows result, and the Compare tab's result of method B when
// not nil (else the one held stays if it is still B's), clamping the shown
// batch and computing its rewards and counts unless they are (a recompute
// computed them off the event loop: ShownCounts).
func (s *Session) SetResult(result, compare *engine.Result) {
	s.Result = result
	if compare != nil {
		s.compare = compare
	}
	s.SetBatch(s.Batch)
}

// SetBatch shows batch bi of the result, clamped, computing its rewards
// and counts unless they are; its statistics wait for a tab to ask
// (BatchStats).
func (s *Session) SetBatch(bi int) {
	s.Batch = min(max(bi, 0), len(s.Result.Ranking.Batches)-1)
	s.counts = ShownCounts(s.Result, s.Batch)
}

// ShownCounts computes batch bi's rewards (clamped) and counts, for a
// command to compute before SetResult or SetBatch show them; ShownStats
// computes its statistics too, for a tab that shows them.
func ShownCounts(res *engine.Result, bi int) diagnose.Counts {
	b := &res.Ranking.Batches[min(max(bi, 0), len(res.Ranking.Batches)-1)]
	res.ComputeBatchOf(b)
	return diagnose.CountsOf(res, b)
}

// ShownStats computes batch bi's rewards (clamped) and statistics
// (ShownCounts).
func ShownStats(res *engine.Result, bi int) diagnose.BatchStats {
	bi = min(max(bi, 0), len(res.Ranking.Batches)-1)
	return diagnose.StatsOf(res, &res.Ranking.Batches[bi])
}

// RereadChecked returns the function that reads trajectory i of s, t,
// lean, whole again from its file (with reader, or without one opened
// for the call when nil), and checks that it is still what was
// evaluated: scored again with a copy of the scorer, it must give the
// values the evaluation holds (Evaluation.Rescore), else the error is
// loaders.Changed's, "PATH:LINE: trajectory "ID" changed since it was
// loaded: safety is now 0.158, was 0.958". A record edited in place (the
// same size, id and group: a dump rescored) would otherwise show metadata
// that contradicts its computed objectives. A scorer that cannot be
// copied is not run again. The function is bound to the session as it is
// now (its evaluation, record fields and a copy of its scorer, taken on
// the calling goroutine), so that a job off the event loop reads with it
// while the session changes; it is called on one goroutine at a time.
func (s *Session) RereadChecked(reader *loaders.Rereader) func(i int, t *scoring.Trajectory) (scoring.Trajectory, error) {
	ev := s.Unfiltered()
	var scorer scoring.Scorer
	if cloner, ok := s.Computer.Scorer.(scoring.Cloner); ok {
		scorer = cloner.CloneScorer()
	}
	fields := s.Computer.Fields.Clone()
	return func(i int, t *scoring.Trajectory) (scoring.Trajectory, error) {
		var full scoring.Trajectory
		var err error
		if reader != nil {
			full, err = reader.Reread(t)
		} else {
			full, err = loaders.Reread(t, fields)
		}
		if err != nil {
			return full, err
		}
		if scorer != nil {
			if why := ev.Rescore(scorer, i, &full); why != "" {
				return scoring.Trajectory{}, loaders.Changed(t, why)
			}
		}
		return full, nil
	}
}

// Rereader returns a loaders.Rereader with the record fields of s, for a
// caller that reads many lean trajectories again on one goroutine; it
// must close it.
func (s *Session) Rereader() *loaders.Rereader {
	return loaders.NewRereader(s.Computer.Fields.Clone())
}

// EvalReasoner returns the function that says why the expression failed
// on t, trajectory i of s's evaluation read whole, when its cause of
// invalidity is an evaluation error (an objective's, a constraint's or a
// gate's, as Evaluation.CauseOf reads it): the scorer, a copy taken now,
// run on t again (scoring.EvalError's reason, `invalid operation: string
// / int (length = "long")`). The engine keeps the reason of a cause's
// first trajectory alone (Evaluation.EvalReason). It returns "" for
// another cause, or when the run now fails otherwise. A job off the event
// loop calls it once.
func (s *Session) EvalReasoner(i int) func(t *scoring.Trajectory) string {
	ev := s.Result.Evaluation
	cause, ok := ev.CauseOf(ev.Causes[i])
	cloner, clones := s.Computer.Scorer.(scoring.Cloner)
	if !ok || cause.Err != scoring.ErrEval || !clones {
		return func(*scoring.Trajectory) string { return "" }
	}
	objective := cause.Subject
	scorer := cloner.CloneScorer()
	return func(t *scoring.Trajectory) string {
		var invalid *scoring.InvalidError
		var failed *scoring.EvalError
		if err := scorer.Evaluate(t, make([]float64, len(scorer.Objectives()))); errors.As(err, &invalid) && invalid.Objective == objective && errors.As(err, &failed) {
			return failed.Reason()
		}
		return ""
	}
}
