package session

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
)

// loggedCheck is the warning of the logged-advantage check: what it is
// computed on (the evaluation, its size, the options on screen, given,
// and their trainer options) and its note, the warning's text or "". rowCap
// says --max-rows stopped the reading: the note is reworded for the group
// it cut (cutGroupNote); layout is the computer's input layout
// (engine.RewardComputer.Layout), whose trainer's settings are searched.
type loggedCheck struct {
	ev      *engine.Evaluation
	n       int
	given   engine.Options
	options engine.Options
	note    string
	rowCap  scoring.RowCap
	layout  string
	// linesLeftOut names, per step, the unfinished last line the reading
	// left out after it (engine.RewardComputer.LinesLeftOut): the
	// agreement names it as why the step's group is short.
	linesLeftOut map[int64]string
}

// holds reports whether c was computed on ev, as long as n, under the
// trainer options of opts.
func (c *loggedCheck) holds(ev *engine.Evaluation, opts engine.Options) bool {
	return c.ev == ev && c.n == ev.N() && c.options.Equal(agreement.TrainerOptions(opts))
}

// loggedCheckOf returns the check to make of res, nil when res has no
// logged advantage or have holds for it.
func loggedCheckOf(res *engine.Result, have *loggedCheck) *loggedCheck {
	ev := res.Evaluation
	if ev.Logged == nil || have.holds(ev, res.Options) {
		return nil
	}
	return &loggedCheck{ev: ev, n: ev.N(), given: res.Options, options: agreement.TrainerOptions(res.Options), rowCap: have.rowCap, layout: have.layout, linesLeftOut: have.linesLeftOut}
}

// run checks again the rows of c's evaluation against the log under c's
// options and, when they differ, searches the settings that reproduce it
// (agreement.MatchLoggedFrom, as compute and stats do), the flags said
// from the options on screen; res, when computed under c's options, is
// reused to reword the warning for a group --max-rows cut.
func (c *loggedCheck) run(res *engine.Result) {
	res = c.resultOf(res)
	if w := agreement.MatchLoggedFrom(c.ev, c.given, c.layout, c.rowCap, c.linesLeftOut).Warning(); w != "" {
		c.note = agreement.CutGroupWarning(w, res, agreement.CutGroupOf(res, c.rowCap), nil)
	}
}

// resultOf returns res when it is computed on c's evaluation under c's
// options, else that result, computed.
func (c *loggedCheck) resultOf(res *engine.Result) *engine.Result {
	if res.Options.Equal(c.options) && res.Evaluation == c.ev {
		return res
	}
	return c.ev.Compute(c.options)
}

// cutGroupNote rewords c's note, the open's check (agreement.CheckTrainer),
// for cut, the group --max-rows cut (nil for none), as the CLI does
// (agreement.CutGroup.LoggedNote); res is the session's result, reused
// when computed under c's options.
func (c *loggedCheck) cutGroupNote(cut *agreement.CutGroup, res *engine.Result) {
	c.note = cut.LoggedNote(c.note, func() *engine.Result { return c.resultOf(res) })
}

// LoggedJob checks a followed update's result against the log again
// (loggedCheck.run: the rows that differ and the settings that reproduce
// them), off the event loop: a check of the whole run, which the update's
// incremental recompute and trends leave out.
type LoggedJob struct {
	check  *loggedCheck
	result *engine.Result
}

// Run counts the rows; it only reads the job's result, which stays valid
// as later updates extend the run (engine.Evaluation.Append).
func (j *LoggedJob) Run() { j.check.run(j.result) }

// TakeLoggedJob returns the count the last followed update left due, nil
// for none (or when the session's warning holds for the result shown
// already), and forgets it.
func (s *Session) TakeLoggedJob() *LoggedJob {
	j := s.loggedDue
	s.loggedDue = nil
	if j == nil || s.logged.holds(s.Result.Evaluation, s.Result.Options) {
		return nil
	}
	return j
}

// LoggedDone takes the warning j counted when it holds for the result
// shown (its evaluation, as long, under the same trainer options), or is
// of an earlier update of it (following: the result shown extends j's
// evaluation, under the same trainer options) and not older than the
// warning kept (older only when the result shown extends the kept one's
// evaluation too: one of the run before a file was read again gives
// way), which it brings forward, said to be behind (LoggedWarningBehind);
// it reports whether it took it. Another count (other options, a run
// since read again) is dropped.
func (s *Session) LoggedDone(j *LoggedJob) bool {
	c := j.check
	switch {
	case c.holds(s.Result.Evaluation, s.Result.Options):
	case !c.options.Equal(agreement.TrainerOptions(s.Result.Options)) || !s.Result.Evaluation.Extends(c.ev):
		return false
	case s.logged.ev != nil && olderThanKept(s.Result.Evaluation, c.ev, s.logged.ev):
		return false
	}
	s.logged = *c
	return true
}

// LoggedWarningBehind returns how the logged-advantage warning
// (LoggedWarning) stands to the result shown: behind when it is not of it
// (a followed update, or new settings, whose count is due); the zero Lag
// when it is, or there is no warning.
func (s *Session) LoggedWarningBehind() Lag {
	ev := s.Result.Evaluation
	if s.logged.note == "" || s.logged.holds(ev, s.Result.Options) {
		return Lag{}
	}
	return Lag{Behind: true, Grew: s.logged.ev != ev || s.logged.n != ev.N(), Rows: s.logged.n}
}

// LoggedWarning returns the warning that the logged advantages differ
// from the rewards of the settings on screen as a trainer computes them
// (its text, which the status line shows), "" when they agree or there is no logged advantage.
// The open's check (agreement.CheckTrainer), which also names the
// settings that reproduce the log, holds until the settings or the rows
// change (a followed run grows); then the result's health job, or for a
// followed update that computes the health a LoggedJob, checks the rows
// of the whole run again with the same search
// (agreement.MatchLoggedFrom), off the event loop: until it lands the
// warning before stays. The warning goes once the settings on screen
// reproduce the log.
func (s *Session) LoggedWarning() string { return s.logged.note }

// SetUnfinishedLines notes paths, the followed files whose last line is
// unfinished and left out: the checks of the log made from now on name
// that line as why its step's group is short
// (engine.RewardComputer.LinesLeftOut), the step being that of the
// file's last row read; so do the layout's warnings, made again of them
// (FollowLayoutWarnings).
func (s *Session) SetUnfinishedLines(paths []string) {
	var lines map[int64]string
	if len(paths) > 0 {
		lines = loaders.LinesLeftOut(paths, s.lastStep)
	}
	s.logged.linesLeftOut = lines
	if s.loggedDue != nil {
		s.loggedDue.check.linesLeftOut = lines
	}
	s.setLayoutLines(lines)
}
