package session

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// loggedCheck is the warning of the logged-advantage check: what it is
// computed on (the evaluation, its size and the trainer options) and its
// note, "warning: ..." or "". rowCap says --max-rows stopped the
// reading: the note is reworded for the group it cut (cutGroupNote).
type loggedCheck struct {
	ev      *engine.Evaluation
	n       int
	options engine.Options
	note    string
	rowCap  scoring.RowCap
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
	return &loggedCheck{ev: ev, n: ev.N(), options: agreement.TrainerOptions(res.Options), rowCap: have.rowCap}
}

// run counts again the rows of c's evaluation that differ from the log
// under c's options (agreement.LoggedWarning), reusing res when it is
// computed with them.
func (c *loggedCheck) run(res *engine.Result) {
	res = c.resultOf(res)
	if w, _ := agreement.LoggedWarning(c.ev, c.options, res); w != "" {
		c.note = "warning: " + agreement.CutGroupWarning(w, res, c.rowCap)
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

// LoggedWarning returns the warning that the logged advantages differ
// from the rewards of the settings on screen as a trainer computes them
// ("warning: ..."), "" when they agree or there is no logged advantage.
// The open's check (agreement.CheckTrainer), which also names the
// settings that reproduce the log, holds until the settings or the rows
// change (a followed run grows); then the result's health job, or the
// followed update that computes the health, counts the rows of the whole
// run again (agreement.LoggedWarning), off the event loop but for a
// followed update; the warning goes once the settings on screen
// reproduce the log.
func (s *Session) LoggedWarning() string { return s.logged.note }
